#!/usr/bin/env bash
# Regenerates the committed Swift for proto/ with Debian's protoc and swift-protobuf's
# protoc-gen-swift (built once from the pinned package, not as a build plugin: the plugin
# adds ~10 minutes to a clean build).
#   scripts/generate-proto.sh            write Sources/LayoutWire/Generated
#   scripts/generate-proto.sh --check    exit 1 when the committed code is stale
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=1.39.0
plugin=${PROTOC_GEN_SWIFT:-$root/.build-protoc-gen-swift/protoc-gen-swift-$version}

if [ ! -x "$plugin" ]; then
  work="$root/.build-protoc-gen-swift"
  mkdir -p "$work"
  # The package sources come from SwiftPM's own checkout of swift-protobuf at the pinned version.
  if [ ! -d "$work/swift-protobuf" ]; then
    src=$(ls -d "$root"/.build/checkouts/swift-protobuf 2>/dev/null || true)
    if [ -z "$src" ]; then (cd "$root" && swift package resolve >/dev/null); src="$root/.build/checkouts/swift-protobuf"; fi
    cp -R "$src" "$work/swift-protobuf"
  fi
  (cd "$work/swift-protobuf" && swift build -c release --product protoc-gen-swift >&2)
  cp "$work/swift-protobuf/.build/release/protoc-gen-swift" "$plugin"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
protoc --plugin=protoc-gen-swift="$plugin" --swift_out="$out" --swift_opt=Visibility=Public \
  -I "$root/proto" $(cd "$root/proto" && find layoutd -name '*.proto' | sort)
dest="$root/Sources/LayoutWire/Generated"
if [ "${1:-}" = "--check" ]; then
  if diff -r "$out/layoutd/v1" "$dest" >/dev/null; then echo "generated code is current"; exit 0; fi
  diff -r "$out/layoutd/v1" "$dest" | head -20 >&2
  echo "Sources/LayoutWire/Generated is stale: run scripts/generate-proto.sh" >&2
  exit 1
fi
rm -rf "$dest" && mkdir -p "$dest"
cp "$out"/layoutd/v1/*.swift "$dest/"
echo "wrote $(ls "$dest" | wc -l) files to $dest"
