#!/usr/bin/python3
"""Checks proto/ against the last released contract (proto/released/layoutd-v1-VERSION.binpb, a
FileDescriptorSet protoc wrote at that release): nothing a client built from it relies on may
change. Exit 1 with one line per break.

    scripts/proto-compat.py [PROTO_DIR] [RELEASED.binpb]

Breaks, as buf's WIRE_JSON rules count them: a message, enum, field or enum value removed
without its number (and name) reserved; a field's number given another name, type, label or
oneof; an enum value's number given another name; the package renamed. Adding is free.
At a release, scripts/proto-compat.py --snapshot VERSION writes the new baseline.
"""
import glob
import os
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_set(proto_dir):
    files = sorted(os.path.relpath(p, proto_dir) for p in glob.glob(os.path.join(proto_dir, "layoutd", "**", "*.proto"), recursive=True))
    with tempfile.NamedTemporaryFile(suffix=".binpb") as out:
        subprocess.run(["protoc", "-I", proto_dir, f"--descriptor_set_out={out.name}", *files], check=True)
        result = descriptor_pb2.FileDescriptorSet()
        result.ParseFromString(open(out.name, "rb").read())
        return result


def index(files):
    """Every message and enum by full name, with the package of its file."""
    messages, enums, packages = {}, {}, {}

    def walk_message(prefix, message):
        name = f"{prefix}.{message.name}"
        messages[name] = message
        for nested in message.nested_type:
            walk_message(name, nested)
        for nested in message.enum_type:
            enums[f"{name}.{nested.name}"] = nested

    for file in files.file:
        packages[file.name] = file.package
        for message in file.message_type:
            walk_message(file.package, message)
        for enum in file.enum_type:
            enums[f"{file.package}.{enum.name}"] = enum
    return messages, enums, packages


def reserved(container, number, name):
    numbers = any(r.start <= number < r.end for r in container.reserved_range)
    return numbers and (name in container.reserved_name or not container.reserved_name)


def breaks(old_set, new_set):
    old_messages, old_enums, old_packages = index(old_set)
    new_messages, new_enums, new_packages = index(new_set)
    found = []
    for file, package in old_packages.items():
        if file in new_packages and new_packages[file] != package:
            found.append(f"{file}: package {package} became {new_packages[file]}")
    for name, old in old_messages.items():
        new = new_messages.get(name)
        if new is None:
            found.append(f"message {name} was removed")
            continue
        fields = {f.number: f for f in new.field}
        for field in old.field:
            now = fields.get(field.number)
            where = f"{name}.{field.name} = {field.number}"
            if now is None:
                if not reserved(new, field.number, field.name):
                    found.append(f"{where} was removed without reserving its number and name")
                continue
            if now.name != field.name:
                found.append(f"{where} was renamed {now.name} (JSON clients use the name)")
            if now.type != field.type or now.type_name != field.type_name:
                found.append(f"{where} changed type")
            if now.label != field.label:
                found.append(f"{where} changed between repeated and single")
            old_oneof = old.oneof_decl[field.oneof_index].name if field.HasField("oneof_index") else None
            new_oneof = new.oneof_decl[now.oneof_index].name if now.HasField("oneof_index") else None
            if old_oneof != new_oneof:
                found.append(f"{where} moved from oneof {old_oneof} to {new_oneof}")
    for name, old in old_enums.items():
        new = new_enums.get(name)
        if new is None:
            found.append(f"enum {name} was removed")
            continue
        values = {v.number: v.name for v in new.value}
        for value in old.value:
            if value.number not in values:
                if not reserved(new, value.number, value.name):
                    found.append(f"{name}.{value.name} = {value.number} was removed without reserving it")
            elif values[value.number] != value.name:
                found.append(f"{name}.{value.name} = {value.number} was renamed {values[value.number]}")
    return found


def main(argv):
    if len(argv) == 3 and argv[1] == "--snapshot":
        out = os.path.join(root, "proto", "released", f"layoutd-v1-{argv[2]}.binpb")
        subprocess.run(["protoc", "-I", os.path.join(root, "proto"), f"--descriptor_set_out={out}",
                        *sorted(os.path.relpath(p, os.path.join(root, "proto"))
                                for p in glob.glob(os.path.join(root, "proto", "layoutd", "**", "*.proto"), recursive=True))],
                       check=True)
        print(f"wrote {out}")
        return 0
    proto_dir = argv[1] if len(argv) > 1 else os.path.join(root, "proto")
    released = argv[2] if len(argv) > 2 else sorted(glob.glob(os.path.join(root, "proto", "released", "*.binpb")))[-1]
    old = descriptor_pb2.FileDescriptorSet()
    old.ParseFromString(open(released, "rb").read())
    found = breaks(old, compile_set(proto_dir))
    for line in found:
        print(f"breaking: {line}", file=sys.stderr)
    if not found:
        print(f"proto/ keeps every promise of {os.path.basename(released)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
