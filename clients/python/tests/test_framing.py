"""The clients write request frames by hand (`_wire.request_frame`): byte for byte what
protobuf writes for the same Envelope, for every request kind and id size."""
import json
import os

from google.protobuf import json_format

from layoutd import _requests, _wire
from layoutd.v1 import envelope_pb2, layout_pb2

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


def test_plain_layout_requests_are_protobufs_bytes():
    """`layout(text, width, font=, size=)` writes its request by hand: byte for byte what protobuf
    writes for the same message, for empty, long (two-byte lengths) and non-ASCII text, zero,
    negative zero, fractional, huge, infinite and NaN numbers, and absent values."""
    texts = [None, "", "a", "Hello, world", "Привет, мир — 你好 🙂", "x" * 127, "x" * 128, "é" * 5000]
    numbers = [None, 0, 0.0, -0.0, 1, 24, 300, 0.1, -7.5, 1e-50, 3.4e38, float("inf"), float("-inf"), float("nan")]
    fonts = [None, "", "Noto Sans", "Noto Sans CJK SC"]
    checked = 0
    for text in texts:
        for width in numbers:
            for font in fonts:
                for size in (None, 0, 24, -0.0, 1e-50, float("nan")):
                    written = _requests.plain_layout_bytes(text, width, font, size)
                    assert written is not None
                    message = _requests.build(layout_pb2.LayoutRequest, None, {"text": text, "width": width})
                    if font is not None:
                        message.default_style.family = font
                    if size is not None:
                        message.default_style.size = size
                    assert written == message.SerializeToString(), (text, width, font, size)
                    checked += 1
    assert checked == len(texts) * len(numbers) * len(fonts) * 6


def test_plain_layout_bytes_leave_what_is_not_plain_to_protobuf():
    # Not a str or a number, a float past float32's range, a lone surrogate: the runtime builds
    # the message and raises (or converts) as it always has.
    for arguments in ((b"bytes", 300, None, 24), ("a", True, None, 24), ("a", "300", None, 24), ("a", 1e39, None, 24),
                      ("\ud800", 300, None, 24), ("a", 300, 7, 24), ("a", 10 ** 400, None, None)):
        assert _requests.plain_layout_bytes(*arguments) is None
    # Through the client's builder, other fields or a request given take protobuf's path.
    assert isinstance(_requests.layout("a", 300, None, 24, None, {"max_lines": 2}), layout_pb2.LayoutRequest)
    assert isinstance(_requests.layout("a", 300, None, 24, None, {}), bytes)


def test_a_batch_of_layouts_is_written_as_each_alone():
    """`layout_many` writes the shared style and width once for a batch of plain texts; each
    request's bytes are still what protobuf writes for it, and requests or other fields in the
    batch take protobuf's path."""
    given = layout_pb2.LayoutRequest(text="given", width=80)
    texts = ["", "a", "Привет, мир", "x" * 200, given, "\ud800"]
    for width, font, size, fields in ((300, None, 24, {}), (0, "Noto Sans", None, {}), (None, None, None, {}),
                                      (300, None, 24, {"max_lines": 2}), (True, None, 24, {})):
        batch = _requests.layouts(texts[:-1], width, font, size, fields)
        for text, written in zip(texts, batch):
            alone = (_requests.layout(None, width, font, size, text, fields) if isinstance(text, layout_pb2.LayoutRequest)
                     else _requests.layout(text, width, font, size, None, fields))
            as_bytes = lambda m: m if isinstance(m, bytes) else m.SerializeToString()  # noqa: E731
            assert as_bytes(written) == as_bytes(alone), (text, width, font, size, fields)
    # A text protobuf refuses is refused as protobuf refuses it.
    try:
        _requests.layouts(texts, 300, None, 24, {})
        raised = None
    except Exception as error:  # whatever the runtime raises for a lone surrogate
        raised = error
    try:
        layout_pb2.LayoutRequest(text="\ud800").SerializeToString()
        expected = None
    except Exception as error:
        expected = error
    assert type(raised) is type(expected)
