"""Version and feature checks against stand-ins for daemons this build is not (an older one,
one of another protocol version): a socket that answers hello as told and nothing else."""
import socket
import struct
import threading

import pytest

import layoutd
from layoutd import envelope_pb2, service_pb2


class StandIn:
    def __init__(self, path, **hello):
        self.received = []
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(path)
        self.listener.listen()
        self.hello = service_pb2.HelloReply(**dict({"server_version": "0.3.0", "protocol_version": 1}, **hello))
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        connection, _ = self.listener.accept()
        with connection:
            while True:
                header = connection.recv(4, socket.MSG_WAITALL)
                if len(header) < 4:
                    return
                body = connection.recv(struct.unpack(">I", header)[0], socket.MSG_WAITALL)
                request = envelope_pb2.Envelope.FromString(body)
                self.received.append(request.WhichOneof("body"))
                if request.WhichOneof("body") == "hello":
                    reply = envelope_pb2.Envelope(request_id=request.request_id, hello_reply=self.hello)
                    data = reply.SerializeToString()
                    connection.sendall(struct.pack(">I", len(data)) + data)


def test_an_older_daemon_is_named_for_a_request_it_lacks(tmp_path):
    old = StandIn(str(tmp_path / "old.sock"), features=["hello", "layout"], server_version="0.1.0")
    client = layoutd.Client(str(tmp_path / "old.sock"))
    with pytest.raises(layoutd.LayoutdUnsupported, match="layoutd 0.1.0 does not serve render requests"):
        client.render(layout={"text": "x", "width": 10})
    assert old.received == ["hello"]  # nothing was sent for the render
    client.close()


def test_another_protocol_version_is_refused_on_connect(tmp_path):
    StandIn(str(tmp_path / "new.sock"), protocol_version=2, features=["hello", "layout"])
    with pytest.raises(layoutd.LayoutdUnsupported, match="speaks protocol 2"):
        layoutd.Client(str(tmp_path / "new.sock"))
