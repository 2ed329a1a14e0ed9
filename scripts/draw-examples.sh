#!/usr/bin/env bash
# Draws the pictures in Examples/pictures/ through a real daemon and layoutctl: what font
# fallback off, attachments' content modes, the intrinsic widths, letterpress, a ring-shaped
# container, a photo under tags, a style's own fallback families, a script override, synthesised
# faces, bordered backgrounds, gradient and picture fills, glows, Bold Text, line-break styles, text around a picture's silhouette, breaking strategies beside a picture, a tag's style switch, emphasis marks, ruby and text orientation look like. Needs a build
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
# Letterpress: pressed into its surface, which is the picture's canvas.
ctl layout --width 360 --size 44 --weight 700 --color '#8a8f99' --effect 'letterpress,2,#e6e8ec' \
  -o "$out/letterpress.png" "Pressed into paper"

# A ring-shaped container, even-odd: the text skips the hole, and so does the faint shape under it.
ring='M0,100 C0,45 45,0 100,0 C155,0 200,45 200,100 C200,155 155,200 100,200 C45,200 0,155 0,100 Z '
ring+='M50,100 C50,72 72,50 100,50 C128,50 150,72 150,100 C150,128 128,150 100,150 C72,150 50,128 50,100 Z'
ctl layout --width 200 --height 200 --size 11 --align center --container "path:$ring;evenodd" -o "$out/ring-container.png" \
  "Text in a ring runs around the hole in its middle and never through it: the shape is filled even-odd, so the inner circle is outside it, for the lines and for the picture alike."

# Text around a picture's silhouette (its alpha above a threshold), not its box: a five-pointed
# star of 120 x 120 pixels, clear around it, over 150 x 150 points.
python3 - "$work/star.png" <<'PY'
import math, struct, sys, zlib
size = 120
def inside(x, y):
    # A star of five points: the polygon's even-odd test against its ten corners.
    corners = [(60 + (56 if k % 2 == 0 else 23) * math.sin(k * math.pi / 5), 62 - (56 if k % 2 == 0 else 23) * math.cos(k * math.pi / 5)) for k in range(10)]
    hit = False
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1]):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit
rows = b"".join(b"\0" + bytes(v for x in range(size) for v in ((255, 160, 0, 255) if inside(x + 0.5, y + 0.5) else (0, 0, 0, 0))) for y in range(size))
chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
                               + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
ctl layout --width 320 --size 12 --exclude "image:$work/star.png@0,0,150,150;margin=4" -o "$out/exclusion-silhouette.png" \
  "Text that flows around a picture follows what the picture shows, not the box it comes in: here a star's points, with its alpha channel read as CSS shape-outside reads an image. Lines reach into the hollows between the points on both sides, and the margin keeps them off its edge. The same text beside the picture's box would stop short of all of them."

# A justified column around a picture, broken greedily, balanced and by total fit over the slots
# each line gets beside it: greedy leaves gaps (rivers) where total fit evens the lines out.
column="A narrow justified column beside a picture shows every fault of its breaks: a line that took one long word too few is stretched until its spaces run together down the page, and a word left alone at the end looks lost. Total fit weighs every line's slack at once, each in the width the picture leaves it."
for strategy in greedy balanced optimal; do
  ctl layout --width 230 --size 13 --align justified --exclude 'rect:0,0,90,110:end;margin=6' --break "$strategy" \
    -o "$out/flow-break-$strategy.png" "$column"
done

# A small photo (an 80 x 60 gradient) scaled up five times under a tag: opaque to its edge.
python3 - "$work/photo.png" <<'PY'
import struct, sys, zlib
width, height = 80, 60
rows = b"".join(b"\0" + bytes(v for x in range(width) for v in (200 - x, 100 + y, 60 + x)) for y in range(height))
chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                             + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
ctl tags place --photo 400x300 --image "$work/photo.png" --at 0.5,0.5 --label "Opaque|to the edge" -o "$out/tag-photo-edge.png"
# Tag legibility on a white photo: the default soft shadow, and a style table's backing.
python3 - "$work/white.png" "$work/backing.json" <<'PY'
import json, struct, sys, zlib
rows = b"".join(b"\0" + b"\xff" * 3 * 40 for y in range(20))
chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 40, 20, 8, 2, 0, 0, 0))
                             + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
table = json.load(open("data/tag-styles.json"))
table["styles"]["1"][0]["legibility"] = {"backing": "#00000099", "backingPadding": 5, "backingRadius": 5}
json.dump(table, open(sys.argv[2], "w"))
PY
ctl tags place --photo 400x200 --image "$work/white.png" --at 0.3,0.5 --label "White|on white" -o "$out/tag-legibility-shadow.png"
ctl tags place --photo 400x200 --image "$work/white.png" --at 0.3,0.5 --label "White|on white" --style-table "$work/backing.json" \
    -o "$out/tag-legibility-backing.png"
# A tag switching style (open it in a browser): its labels leave, text then lines, and the next
# style's arrive, lines then text, around a dot that stays.
ctl tags place --photo 400x300 --at 0.45,0.55 --label "Nike|Air Max 90" --label "¥899" --style 3 --switch-to 0 \
    --animate switch -o "$out/tag-style-switch.svg"
# A style's own fallback families before the daemon's: the cup from DejaVu Sans when it is
# listed, from the colour emoji face when it is not.
ctl layout --width 300 --size 28 --font "Noto Sans" -o "$out/fallback-daemon.png" "Tea ☕ at four"
ctl layout --width 300 --size 28 --font "Noto Sans" --fallback-family "DejaVu Sans" -o "$out/fallback-listed.png" "Tea ☕ at four"

# A script override: Devanagari shaped as Devanagari (the i-matra before its consonant) and as Latin.
ctl layout --width 300 --size 40 --font "Noto Sans Devanagari" -o "$out/script-deva.png" "किताब"
ctl layout --width 300 --size 40 --font "Noto Sans Devanagari" --script Latn -o "$out/script-latn.png" "किताब"

# Synthesised faces: Z003 (one Medium Italic face) asked for 800, drawn as it is and made bold;
# Han asked for italic (Noto Sans CJK has none), upright and made oblique.
ctl layout --width 420 --size 40 --font Z003 --weight 800 --font-synthesis none -o "$out/synthetic-bold-off.png" "Bold made"
ctl layout --width 420 --size 40 --font Z003 --weight 800 -o "$out/synthetic-bold.png" "Bold made"
ctl layout --width 420 --size 40 --font "Noto Sans" --italic --font-synthesis none -o "$out/synthetic-oblique-off.png" "Italic 斜体字"
ctl layout --width 420 --size 40 --font "Noto Sans" --italic -o "$out/synthetic-oblique.png" "Italic 斜体字"
# Backgrounds with a border and a shadow (YYText's YYTextBorder): dashed per-line boxes with a
# soft shadow and a highlight; one connected shape with a solid border.
ctl layout --width 300 --size 28 -o "$out/backdrop-dashed.png" \
    --backdrop "per-line,fill=#ffd60a,border=2/#000000,dashes=6/3,shadow=0/4/6/#00000080" \
    --backdrop "highlight:0-6,fill=#ff000040,border=1.5/#aa0000" "Dashed borders with a soft shadow behind each line"
ctl typemode --width 300 --style strong -o "$out/backdrop-connected.png" \
    --backdrop "connected,fill=#ff2d55,border=3/#ffffff,dashes=10/5,shadow=0/6/10/#00000099" "One shape\nwith a border"
# Paint layers: a gradient across a caption's lines, each line its own gradient, a photo in
# the glyphs, and neon (a glow) over two shadows.
ctl layout --width 320 --size 40 --weight 800 --text-fill linear,#ff2d55,#ffcc00,#0a84ff -o "$out/fill-gradient.png" \
    "One gradient across every line"
ctl layout --width 320 --size 40 --weight 800 --text-fill linear,#ff2d55,#ffcc00,#0a84ff,line -o "$out/fill-gradient-lines.png" \
    "One gradient across every line"
ctl layout --width 320 --size 64 --weight 900 --text-fill image,0,fill --text-fill-image docs/examples/photo.png \
    -o "$out/fill-photo.png" "PHOTO"
ctl layout --width 320 --size 48 --weight 700 --color "#ffffff" --glow 8,#ff2d95,3 --shadow 3,3,0,#00000080 \
    --shadow 8,8,6,#00000060 --backdrop "block,fill=#1c1c1e,padding=20/14,radius=14" -o "$out/glow-shadows.png" "Neon sign"
# Text on a path: a caption over an arch, its middle at the top, in a gradient; and under a
# path drawn left to right, on its right side (upside down along it).
ctl layout --width 400 --size 28 --text-path "M 20 220 C 100 20 300 20 380 220" --path-anchor middle --path-offset 230 \
    --text-fill linear,#ff2d55,#0a84ff -o "$out/text-path-arch.png" "Text that follows a curve, turned"
ctl layout --width 400 --size 24 --text-path "M 20 60 Q 200 200 380 60" --path-side right --path-anchor middle --path-offset 215 \
    -o "$out/text-path-right-side.png" "On the path's right side"
# The reader's Bold Text setting: body text at AX1, as set and with Bold Text on.
ctl layout --width 320 --text-style body --category AX1 -o "$out/bold-text-off.png" "Body text for the reader"
ctl layout --width 320 --text-style body --category AX1 --bold-text -o "$out/bold-text.png" "Body text for the reader"
# Line-break styles: Korean broken between syllables (the default) and kept whole (keep-all);
# Japanese broken anywhere between letters and between phrases (auto-phrase).
korean="오늘은 친구들과 한강에서 자전거를 탔어요. 날씨가 정말 좋았어요!"
ctl layout --width 170 --size 22 -o "$out/break-korean-normal.png" "$korean"
ctl layout --width 170 --size 22 --word-break keep-all -o "$out/break-korean-keep-all.png" "$korean"
japanese="今日は自由が丘で焼き鳥を食べます。"
ctl layout --width 130 --size 24 --language ja -o "$out/break-japanese-normal.png" "$japanese"
ctl layout --width 130 --size 24 --language ja --word-break auto-phrase -o "$out/break-japanese-phrases.png" "$japanese"
# Emphasis marks: sesame dots over a Japanese phrase (none on the comma), open circles under
# the Latin word of a mixed line.
ctl layout --width 260 --size 28 --font "Noto Sans CJK JP" --emphasis sesame -o "$out/emphasis-sesame.png" "強調する、文章です"
ctl layout --width 300 --size 26 --span 6:11:emphasis=circle/open/under -o "$out/emphasis-under.png" "These marks sit under"
# ... and in vertical text, upright on the column's right, and a background spanning its characters.
ctl layout --width 200 --height 220 --size 28 --font "Noto Sans CJK JP" --vertical --emphasis sesame --span 4:6:background=#ffe060 \
    -o "$out/emphasis-vertical.png" "縦書き、強調。ABC文"
# Ruby: group ruby over a three-character base (its reading spaced 1:2:1), jukugo over 東京 whose
# wider reading spaces its base, and the same in a vertical column, on its right.
ctl layout --width 420 --size 32 --font "Noto Sans CJK JP" --ruby 0:3=あじさい --ruby 4:2='とう|きょう' --ruby 7:1=よ \
    -o "$out/ruby.png" "紫陽花と東京を読む"
ctl layout --width 200 --height 360 --size 32 --font "Noto Sans CJK JP" --vertical --ruby 0:3=あじさい --ruby 4:2='とう|きょう' \
    -o "$out/ruby-vertical.png" "紫陽花と東京"
# CSS text-orientation in a vertical column: mixed (UAX #50: the Latin word on its side), upright
# (every letter standing), sideways (every character on its side).
for orientation in mixed upright sideways; do
  ctl layout --width 80 --height 300 --size 28 --font "Noto Sans CJK JP" --vertical --text-orientation $orientation \
      -o "$out/text-orientation-$orientation.png" "縦書きTEXT"
done
echo "drew $(ls "$out" | wc -l) pictures in $out (min-content $narrow, max-content $wide)"
