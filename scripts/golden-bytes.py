#!/usr/bin/python3
"""Writes Tests/LayoutWireTests/Vectors/layout-request.hex with Python's protobuf runtime, an
implementation independent of swift-protobuf: the Swift test must produce the same frame."""
import os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with tempfile.TemporaryDirectory() as out:
    protos = sorted(os.path.join(d, f)[len(root) + 7:] for d, _, fs in os.walk(os.path.join(root, "proto")) for f in fs if f.endswith(".proto"))
    subprocess.run(["protoc", "-I", os.path.join(root, "proto"), "--python_out", out, *protos], check=True)
    sys.path.insert(0, out)
    from layoutd.v1 import envelope_pb2, layout_pb2

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
    body = env.SerializeToString(deterministic=True)
    frame = len(body).to_bytes(4, "big") + body
    path = os.path.join(root, "Tests/LayoutWireTests/Vectors/layout-request.hex")
    with open(path, "w") as f:
        f.write(frame.hex() + "\n")
    print(path, frame.hex())
