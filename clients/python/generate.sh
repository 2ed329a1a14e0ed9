#!/usr/bin/env bash
# Regenerates the committed protobuf modules of the Python package from proto/ with Debian's
# protoc (python3-protobuf's version) and mypy-protobuf's stubs (.pyi), so the package needs no
# protoc at run time and an editor completes every field.
#   clients/python/generate.sh            write layoutd/v1/*_pb2.py and *_pb2.pyi
#   clients/python/generate.sh --check    exit 1 when the committed modules are stale
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
proto="$here/../../proto"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
protos=$(cd "$proto" && find layoutd -name '*.proto' | sort)
(cd "$proto" && protoc -I . --python_out="$out" --mypy_out=quiet:"$out" $protos)
dest="$here/layoutd/v1"
if [ "${1:-}" = "--check" ]; then
  stale=0
  for f in "$out"/layoutd/v1/*_pb2.py "$out"/layoutd/v1/*_pb2.pyi; do
    cmp -s "$f" "$dest/$(basename "$f")" || { echo "stale: clients/python/layoutd/v1/$(basename "$f")" >&2; stale=1; }
  done
  for f in "$dest"/*_pb2.py "$dest"/*_pb2.pyi; do
    [ -e "$out/layoutd/v1/$(basename "$f")" ] || { echo "no longer generated: $f" >&2; stale=1; }
  done
  [ $stale -eq 0 ] && echo "Python modules are current" || echo "run clients/python/generate.sh" >&2
  exit $stale
fi
rm -f "$dest"/*_pb2.py "$dest"/*_pb2.pyi
cp "$out"/layoutd/v1/*_pb2.py "$out"/layoutd/v1/*_pb2.pyi "$dest/"
echo "wrote $(ls "$dest"/*_pb2.py* | wc -l) files to $dest"
