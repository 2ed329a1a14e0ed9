#!/usr/bin/python3
"""Prints docs/protocol.md's example session: three requests sent to a running daemon and its
three answers (a hello, a layout, a refused layout), every frame in bytes and taken apart field
by field. A test runs this against a daemon started with its defaults and checks that the doc
holds exactly what it prints.

    scripts/protocol-example.py SOCKET
"""
import os
import socket
import struct
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "clients", "python"))
from google.protobuf import descriptor  # noqa: E402
from layoutd.v1 import envelope_pb2, layout_pb2, service_pb2  # noqa: E402

FD = descriptor.FieldDescriptor


def varint(data, at):
    value, shift = 0, 0
    while True:
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at += 1
        shift += 7
        if byte < 0x80:
            return value, at


def hexes(data):
    return " ".join(f"{b:02x}" for b in data)


def dissect(data, message_type, depth, out):
    """One line per field: its bytes (key and value, a nested message's key and length only),
    then what they say."""
    at = 0
    while at < len(data):
        start = at
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        field = message_type.fields_by_number.get(number)
        name = field.name if field else f"field {number}"
        indent = "  " * depth
        if wire == 0:
            value, at = varint(data, at)
            shown = value
            if field is not None and field.type == FD.TYPE_ENUM:
                shown = f"{field.enum_type.values_by_number[value].name} ({value})"
            elif field is not None and field.type == FD.TYPE_BOOL:
                shown = "true" if value else "false"
            out.append((indent + hexes(data[start:at]), f"{indent}{number} {name}: {shown}"))
        elif wire == 5:
            (value,) = struct.unpack("<f", data[at:at + 4])
            at += 4
            out.append((indent + hexes(data[start:at]), f"{indent}{number} {name}: {value:g} (float)"))
        elif wire == 2:
            length, body_start = varint(data, at)
            body = data[body_start:body_start + length]
            at = body_start + length
            if field is not None and field.type == FD.TYPE_MESSAGE:
                out.append((indent + hexes(data[start:body_start]), f"{indent}{number} {name}: {length} bytes of {field.message_type.name}"))
                dissect(body, field.message_type, depth + 1, out)
            elif field is not None and field.type == FD.TYPE_STRING:
                out.append((indent + hexes(data[start:at]), f"{indent}{number} {name}: \"{body.decode()}\""))
            elif field is not None and field.type == FD.TYPE_FLOAT:
                values = struct.unpack(f"<{length // 4}f", body)
                out.append((indent + hexes(data[start:at]), f"{indent}{number} {name}: packed floats {', '.join(f'{v:g}' for v in values)}"))
            elif field is not None and field.type in (FD.TYPE_UINT32, FD.TYPE_UINT64):
                values, cursor = [], 0
                while cursor < len(body):
                    value, cursor = varint(body, cursor)
                    values.append(str(value))
                out.append((indent + hexes(data[start:at]), f"{indent}{number} {name}: packed {', '.join(values)}"))
            else:
                out.append((indent + hexes(data[start:at]), f"{indent}{number} {name}: {length} bytes"))
        else:
            raise ValueError(f"wire type {wire}")


def show(direction, frame):
    lines = [(hexes(frame[:4]), f"frame length {struct.unpack('>I', frame[:4])[0]}")]
    dissect(frame[4:], envelope_pb2.Envelope.DESCRIPTOR, 0, lines)
    # Long values wrap at 16 bytes; the meaning stands beside the first piece.
    rows = []
    for data, meaning in lines:
        indent = len(data) - len(data.lstrip())
        values = data.split()
        for index in range(0, len(values), 16):
            rows.append((" " * indent + " ".join(values[index:index + 16]), meaning if index == 0 else ""))
    width = max(len(b) for b, _ in rows)
    out = [f"{direction} {len(frame)} bytes"]
    for data, meaning in rows:
        out.append(f"    {data.ljust(width)}  {meaning}".rstrip())
    return out


def main(path):
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    requests = [
        envelope_pb2.Envelope(request_id=1, hello=service_pb2.HelloRequest(client_name="doc")),
        envelope_pb2.Envelope(request_id=2, layout=layout_pb2.LayoutRequest(
            text="Hi", width=100, default_style=layout_pb2.Style(family="Noto Sans", size=20))),
        envelope_pb2.Envelope(request_id=3, layout=layout_pb2.LayoutRequest(text="Hi", width=0)),
    ]
    out = ["```"]
    for request in requests:
        body = request.SerializeToString()
        frame = struct.pack(">I", len(body)) + body
        sock.sendall(frame)
        header = sock.recv(4, socket.MSG_WAITALL)
        reply = header + sock.recv(struct.unpack(">I", header)[0], socket.MSG_WAITALL)
        out += show("client → daemon:", frame) + [""] + show("daemon → client:", reply) + [""]
    out[-1] = "```"
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
