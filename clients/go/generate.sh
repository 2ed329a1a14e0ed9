#!/usr/bin/env bash
# Regenerates the Go messages (layoutdv1/*.pb.go) from proto/ with Debian's protoc and
# protoc-gen-go (the proto files' go_package names the package), so the module needs no protoc.
#   clients/go/generate.sh            write layoutdv1/*.pb.go
#   clients/go/generate.sh --check    exit 1 when the committed files are stale
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
proto="$here/../../proto"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
protos=$(cd "$proto" && find layoutd -name '*.proto' | sort)
(cd "$proto" && protoc -I . --go_out="$out" --go_opt=module=layoutd/clients/go $protos)
dest="$here/layoutdv1"
if [ "${1:-}" = "--check" ]; then
  stale=0
  for f in "$out"/layoutdv1/*.pb.go; do
    cmp -s "$f" "$dest/$(basename "$f")" || { echo "stale: clients/go/layoutdv1/$(basename "$f")" >&2; stale=1; }
  done
  for f in "$dest"/*.pb.go; do
    [ -e "$out/layoutdv1/$(basename "$f")" ] || { echo "no longer generated: $f" >&2; stale=1; }
  done
  [ $stale -eq 0 ] && echo "Go messages are current" || echo "run clients/go/generate.sh" >&2
  exit $stale
fi
rm -f "$dest"/*.pb.go
cp "$out"/layoutdv1/*.pb.go "$dest/"
echo "wrote $(ls "$dest"/*.pb.go | wc -l) files to $dest"
