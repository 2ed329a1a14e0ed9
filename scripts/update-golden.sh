#!/usr/bin/env bash
# Writes Tests/LayoutEngineTests/Golden/<name>.hb: what hb-shape (Debian's libharfbuzz-bin,
# the independent reference) prints for each fixture. The golden test compares the engine's
# glyphs with these lines. Run it after changing fixtures.tsv or upgrading HarfBuzz.
set -euo pipefail
dir=$(cd "$(dirname "$0")/../Tests/LayoutEngineTests/Golden" && pwd)
grep -v '^#' "$dir/fixtures.tsv" | while IFS=$'\t' read -r name font index text; do
  [ -n "$name" ] || continue
  hb-shape --no-glyph-names --face-index="$index" "$font" "$text" > "$dir/$name.hb"
  echo "$name: $(cat "$dir/$name.hb" | cut -c1-60)..."
done
