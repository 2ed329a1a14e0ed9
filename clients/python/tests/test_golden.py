"""The cross-language vectors (Tests/LayoutWireTests/Vectors): this package's modules encode
every request in golden.json to the bytes in golden.hex and decode every vector to the values
golden.json and golden.dump hold. The Swift and C clients check the same files."""
import importlib.util
import json
import os

from google.protobuf import json_format

from layoutd.v1 import envelope_pb2

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "Tests", "LayoutWireTests", "Vectors")
SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts", "golden-bytes.py")


def load():
    spec = json.load(open(os.path.join(VECTORS, "golden.json")))
    frames = dict(line.split(" ", 1) for line in open(os.path.join(VECTORS, "golden.hex")).read().split("\n") if line)
    for group, prefix in (("requests", "request"), ("replies", "reply")):
        for name, body in spec[group].items():
            yield f"{prefix}.{name}", body, bytes.fromhex(frames[f"{prefix}.{name}"])


def test_encodes_and_decodes_every_vector():
    spec = importlib.util.spec_from_file_location("golden_bytes", SCRIPT)
    golden = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(golden)
    dump = open(os.path.join(VECTORS, "golden.dump")).read().split("\n")
    printed = []
    count = 0
    for label, body, frame in load():
        message = json_format.ParseDict(body, envelope_pb2.Envelope())
        data = message.SerializeToString()
        assert frame == len(data).to_bytes(4, "big") + data, label
        decoded = envelope_pb2.Envelope.FromString(frame[4:])
        assert decoded == message, label
        printed += [f"{label} {line}" for line in golden.dump(decoded)]
        count += 1
    assert count == 35
    assert printed == [line for line in dump if line], "golden.dump is stale: run scripts/golden-bytes.py"
