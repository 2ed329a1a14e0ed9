#!/usr/bin/env bash
# Draws the pictures in Examples/pictures/ through a real daemon and layoutctl: what font
# fallback off, attachments' content modes and the intrinsic widths look like. Needs a build
# (swift build, or scripts/build-release.sh).
#   scripts/draw-examples.sh [BIN_DIR]   (default: .build/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug}
out=Examples/pictures
mkdir -p "$out"
socket=$(mktemp -u /tmp/layoutd-examples-XXXXXX.sock)
work=$(mktemp -d)
"$bin/layoutd" --socket "$socket" --log-level warning &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null; wait $daemon 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do "$bin/layoutctl" ping --socket "$socket" >/dev/null 2>&1 && break; sleep 0.1; done
export LAYOUTD_SOCKET=$socket
ctl() { "$bin/layoutctl" "$@"; }

# Font fallback on (the default) and off: Noto Sans lacks Thai and emoji, so off they are .notdef boxes.
text="Thai ภาษาไทย and 😀 in Noto Sans"
ctl layout --width 420 --size 28 --font "Noto Sans" -o "$out/fallback-on.png" "$text"
ctl layout --width 420 --size 28 --font "Noto Sans" --no-fallback -o "$out/fallback-off.png" "$text"

# A collection's faces (face_indices) are not drawn here: Debian's only collections, Noto's CJK
# ones, are larger than the 16 MiB a frame may hold (ClientFontCollectionTests lays them out
# through the engine instead).

# A wide picture (three stars, drawn by the daemon) in a square box, in each content mode.
ctl layout --width 150 --size 40 --align center -o "$work/stars.png" "★★★"
for mode in stretch fit fill center; do
  ctl layout --width 240 --size 24 --attachment 60x60:center --attachment-image "$work/stars.png" \
    --attachment-mode "$mode" -o "$out/attachment-$mode.png" $'A box \uFFFC in the text'
done

# The same text at its min-content and its max-content width.
caption="Intrinsic widths say how narrow a box may be before a word breaks"
widths=$(ctl layout --width 300 --size 22 --metrics "$caption" | sed -n 's/^min-content width \([0-9.]*\), max-content width \([0-9.]*\)$/\1 \2/p')
read -r narrow wide <<<"$widths"
ctl layout --width "$narrow" --size 22 -o "$out/intrinsic-min-content.png" "$caption"
ctl layout --width "$wide" --size 22 -o "$out/intrinsic-max-content.png" "$caption"
echo "drew $(ls "$out" | wc -l) pictures in $out (min-content $narrow, max-content $wide)"
