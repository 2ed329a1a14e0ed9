#!/usr/bin/python3
"""A small layoutd command-line tool for the repository's scripts and tests (the hostile-input
tools, the golden bytes, the daemon's instruction counts), on the `layoutd` package beside it.
Programs use the package itself: `pip install ./clients/python`, then `import layoutd`.

    layoutd_client.py golden FILE.hex            encode the shared request vector; exit 1 if it differs
    layoutd_client.py layout SOCKET WIDTH TEXT   lay TEXT out through a running daemon
"""
import os
import socket
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    """The protobuf modules of the package beside this file (clients/python/layoutd), generated
    and committed by clients/python/generate.sh."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    from layoutd.v1 import envelope_pb2, layout_pb2
    return envelope_pb2, layout_pb2


def frame(envelope):
    body = envelope.SerializeToString(deterministic=True)
    return struct.pack(">I", len(body)) + body


def check_peer(sock, path):
    """Refuses a daemon not run by this user, root or the service's `layoutd` user (SO_PEERCRED):
    a socket in a shared place can be another user's daemon, which would read the text sent."""
    pid, uid, gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    try:
        import pwd
        service = pwd.getpwnam("layoutd").pw_uid
    except KeyError:
        service = None
    if uid not in (os.getuid(), 0, service):
        sock.close()
        raise ConnectionRefusedError(f"refusing the daemon at {path}: it is served by uid {uid} (pid {pid}), "
                                     "not by you, root or the layoutd service")


def connect(path, timeout=None):
    """A connected Unix socket to the daemon at `path`, its peer checked (`check_peer`)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(path)
    check_peer(sock, path)
    return sock


class FrameReader:
    """Frames (a 4-byte big-endian length, then the body) read from a socket; bytes that arrive
    past one frame wait in the buffer for the next call."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = bytearray()

    def frame(self):
        """The next frame's body; ConnectionError when the daemon closes the connection first."""
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack(">I", self.buffer[:4])
                if len(self.buffer) >= 4 + length:
                    body = bytes(self.buffer[4:4 + length])
                    del self.buffer[:4 + length]
                    return body
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the daemon closed the connection")
            self.buffer += chunk

    def frames(self, count):
        """Up to `count` frame bodies: fewer when the daemon closes the connection or the
        socket's timeout passes first (a frame partly read stays buffered)."""
        bodies = []
        try:
            while len(bodies) < count:
                bodies.append(self.frame())
        except OSError:
            pass
        return bodies


class Client:
    """One connection; `call` sends a body and returns the reply with the same id."""

    def __init__(self, path):
        self.envelope_pb2, self.layout_pb2 = load()
        self.sock = connect(path)
        self.reader = FrameReader(self.sock)
        self.next_id = 1

    def call(self, **body):
        envelope = self.envelope_pb2.Envelope(request_id=self.next_id, **body)
        self.next_id += 1
        self.sock.sendall(frame(envelope))
        reply = self.envelope_pb2.Envelope()
        reply.ParseFromString(self.reader.frame())
        if reply.WhichOneof("body") == "error":
            raise RuntimeError(f"layoutd: {reply.error.field}: {reply.error.message}")
        return reply


def golden_envelope():
    """The request of the shared wire vector, Tests/LayoutWireTests/Vectors/layout-request.hex.
    scripts/golden-bytes.py writes the vector from it; every binding must encode the same bytes."""
    envelope_pb2, layout_pb2 = load()
    env = envelope_pb2.Envelope(request_id=7, deadline_ms=250)
    req = env.layout
    req.text = "Hé 👋"
    req.width = 300
    req.default_style.family = "Noto Sans"
    req.default_style.size = 24
    span = req.spans.add()
    span.range.start = 3
    span.range.length = 2
    span.style.weight = 700
    req.alignment = layout_pb2.ALIGNMENT_CENTER
    req.max_lines = 2
    return env


def golden(path):
    produced = frame(golden_envelope()).hex()
    expected = open(path).read().strip()
    print(("ok: Python frame equals" if produced == expected else "FAIL: Python frame differs from") + " the shared vector")
    return 0 if produced == expected else 1


def layout(path, width, text):
    client = Client(path)
    _, layout_pb2 = load()
    reply = client.call(layout=layout_pb2.LayoutRequest(text=text, width=width, default_style=layout_pb2.Style(size=20)))
    result = reply.layout_reply
    for index, line in enumerate(result.lines):
        print(f"line {index}: range [{line.range.start},{line.range.start + line.range.length}) "
              f"baseline {line.baseline_origin.y:.2f} width {line.width:.2f}")
    print(f"{len(result.runs)} glyph runs, size {result.width:.2f} x {result.height:.2f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "golden":
        sys.exit(golden(sys.argv[2]))
    if len(sys.argv) == 5 and sys.argv[1] == "layout":
        sys.exit(layout(sys.argv[2], float(sys.argv[3]), sys.argv[4]))
    print(__doc__, file=sys.stderr)
    sys.exit(2)
