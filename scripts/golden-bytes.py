#!/usr/bin/python3
"""The cross-language wire vectors, written with Python's protobuf runtime (an implementation
independent of swift-protobuf and protobuf-c): every client must encode and decode the same.

    scripts/golden-bytes.py                   write the vectors from Tests/LayoutWireTests/Vectors/golden.json
    scripts/golden-bytes.py --capture SOCKET  first refresh golden.json's replies from a running daemon

golden.json holds one request Envelope of every kind and one reply of every kind (as proto3
JSON). From it this writes golden.hex (`NAME HEX-FRAME` per line) and golden.dump (every field
set in every vector, `NAME path = value`, the form clients/c/tests/golden-test.c prints), and
layout-request.hex, the first vector, from the Python client's `golden_envelope()`.
"""
import json
import os
import socket
import struct
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "clients", "python"))
from google.protobuf import descriptor, json_format  # noqa: E402
from layoutd.v1 import envelope_pb2  # noqa: E402
from layoutd_client import frame, golden_envelope  # noqa: E402

vectors = os.path.join(root, "Tests/LayoutWireTests/Vectors")


def dump(message, path=""):
    """Every field set, depth first in field-number order: scalars that are not their default,
    messages present, oneof members set, every repeated element."""
    lines = []
    for field in sorted(message.DESCRIPTOR.fields, key=lambda f: f.number):
        name = f"{path}{field.name}"
        # protobuf 5.28 on says `is_repeated`; 7 no longer has `label`.
        if getattr(field, "is_repeated", None) or getattr(field, "label", None) == descriptor.FieldDescriptor.LABEL_REPEATED:
            for index, item in enumerate(getattr(message, field.name)):
                lines += value_lines(field, f"{name}[{index}]", item)
            continue
        if field.containing_oneof is not None or field.message_type is not None:
            if not message.HasField(field.name):
                continue
        elif getattr(message, field.name) == field.default_value:
            continue
        lines += value_lines(field, name, getattr(message, field.name))
    return lines


def value_lines(field, name, value):
    kind = field.type
    if kind == descriptor.FieldDescriptor.TYPE_MESSAGE:
        inner = dump(value, name + ".")
        return inner if inner else [f"{name} = {{}}"]
    if kind == descriptor.FieldDescriptor.TYPE_FLOAT:
        return [f"{name} = {value:.9g}"]
    if kind == descriptor.FieldDescriptor.TYPE_DOUBLE:
        return [f"{name} = {value:.17g}"]
    if kind == descriptor.FieldDescriptor.TYPE_BOOL:
        return [f"{name} = {'true' if value else 'false'}"]
    if kind == descriptor.FieldDescriptor.TYPE_STRING:
        return [f"{name} = {value.encode('utf-8').hex()}"]
    if kind == descriptor.FieldDescriptor.TYPE_BYTES:
        return [f"{name} = {value.hex()}"]
    return [f"{name} = {int(value)}"]


def capture(path):
    """One reply of every kind from the daemon at `path`, for the requests in golden.json."""
    spec = json.load(open(os.path.join(vectors, "golden.json")))
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    replies = {}
    for name, request in spec["requests"].items():
        if name in ("cancel", "reload"):
            continue
        envelope = json_format.ParseDict(request, envelope_pb2.Envelope())
        sock.sendall(frame(envelope))
        length = struct.unpack(">I", sock.recv(4, socket.MSG_WAITALL))[0]
        reply = envelope_pb2.Envelope.FromString(sock.recv(length, socket.MSG_WAITALL))
        # The first reply of each kind: open_document's (every paragraph), not close_document's.
        replies.setdefault(reply.WhichOneof("body"), json_format.MessageToDict(reply, preserving_proto_field_name=True))
    # A reload reply, as the daemon's own user would get it (not from a test daemon's fonts).
    replies["reload_reply"] = {"request_id": "11", "reload_reply": {"fonts_loaded": 42, "message": "reloaded 42 faces"}}
    spec["replies"] = dict(sorted(replies.items()))
    with open(os.path.join(vectors, "golden.json"), "w") as out:
        json.dump(spec, out, indent=1, ensure_ascii=False)
        out.write("\n")


def write():
    spec = json.load(open(os.path.join(vectors, "golden.json")))
    hex_lines, dump_lines = [], []
    for group in ("requests", "replies"):
        for name, body in spec[group].items():
            envelope = json_format.ParseDict(body, envelope_pb2.Envelope())
            label = f"{ {'requests': 'request', 'replies': 'reply'}[group] }.{name}"
            hex_lines.append(f"{label} {frame(envelope).hex()}")
            dump_lines += [f"{label} {line}" for line in dump(envelope)]
    open(os.path.join(vectors, "golden.hex"), "w").write("\n".join(hex_lines) + "\n")
    open(os.path.join(vectors, "golden.dump"), "w").write("\n".join(dump_lines) + "\n")
    with open(os.path.join(vectors, "layout-request.hex"), "w") as out:
        out.write(frame(golden_envelope()).hex() + "\n")
    print(f"wrote {len(hex_lines)} vectors to {vectors}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--capture":
        capture(sys.argv[2])
    elif len(sys.argv) != 1:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    write()
