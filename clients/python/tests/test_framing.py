"""The clients write request frames by hand (`_wire.request_frame`): byte for byte what
protobuf writes for the same Envelope, for every request kind and id size."""
import json
import os

from google.protobuf import json_format

from layoutd import _wire
from layoutd.v1 import envelope_pb2

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "LayoutWireTests", "Vectors")


def test_request_frames_are_protobufs_bytes():
    spec = json.load(open(os.path.join(VECTORS, "golden.json")))
    kinds = set()
    for body in spec["requests"].values():
        message = json_format.ParseDict(body, envelope_pb2.Envelope())
        message.deadline_ms = 0  # the clients send none: deadlines are their own
        name = message.WhichOneof("body")
        kinds.add(name)
        for request_id in (1, 127, 128, 300, 2 ** 32, 2 ** 64 - 1):
            message.request_id = request_id
            expected = message.SerializeToString()
            assert _wire.request_frame(request_id, name, getattr(message, name)) == len(expected).to_bytes(4, "big") + expected
    assert kinds >= {"hello", "layout", "fonts", "stats", "cancel", "justify", "render", "tags", "tag_hit", "tag_style",
                     "reload", "hit_test"}
    # An empty body (fonts, reload) is still written, as protobuf writes a set oneof member.
    assert _wire.request_frame(5, "fonts", envelope_pb2.Envelope().fonts) == bytes.fromhex("00000004080572 00".replace(" ", ""))
