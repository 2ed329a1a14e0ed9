#!/usr/bin/python3
"""Writes Tests/LayoutWireTests/Vectors/layout-request.hex with Python's protobuf runtime, an
implementation independent of swift-protobuf and protobuf-c: the Swift and C tests must produce
the same frame. The request itself is the Python client's `golden_envelope()`."""
import os
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "clients", "python"))
from layoutd_client import frame, golden_envelope

path = os.path.join(root, "Tests/LayoutWireTests/Vectors/layout-request.hex")
with open(path, "w") as f:
    f.write(frame(golden_envelope()).hex() + "\n")
print(path, frame(golden_envelope()).hex())
