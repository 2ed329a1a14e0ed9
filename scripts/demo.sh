#!/usr/bin/env bash
# The main job, for a newcomer: install what is missing, build, start layoutd on its default
# fonts, lay real captions out through layoutctl, and stop the daemon.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-release.sh --product layoutd
scripts/build-release.sh --product layoutctl
bin=$(scripts/build-release.sh --show-bin-path)
socket=$(mktemp -u /tmp/layoutd-demo-XXXXXX.sock)
"$bin/layoutd" --socket "$socket" --log-level warning &
daemon=$!
trap 'kill -TERM $daemon 2>/dev/null; wait $daemon 2>/dev/null || true' EXIT
for _ in $(seq 100); do "$bin/layoutctl" ping --socket "$socket" >/dev/null 2>&1 && break; sleep 0.1; done
export LAYOUTD_SOCKET=$socket
"$bin/layoutctl" ping
echo
echo "== A caption in English, 300 pt wide, Noto Sans 24 pt"
"$bin/layoutctl" layout --width 300 --font "Noto Sans" --size 24 \
  "You will remember, Watson, how the dreadful business of the Abernetty family was first brought to my notice by the depth which the parsley had sunk into the butter upon a hot day."
echo
echo "== Mixed scripts with fallback and bidi, justified"
"$bin/layoutctl" layout --width 260 --size 20 --align justified \
  "Layout 🌍 مرحبا بالعالم 你好，世界 नमस्ते दुनिया — 👩‍👩‍👧‍👦 🇯🇵 one cluster each."
echo
echo "== Two lines at most, tail-truncated"
"$bin/layoutctl" layout --width 200 --size 18 --max-lines 2 \
  "不识庐山真面目，只缘身在此山中。横看成岭侧成峰，远近高低各不同。 -- 苏轼《题西林壁》"
echo
echo "== Inline attachments: a box at each U+FFFC, aligned to the text around it"
"$bin/layoutctl" layout --width 300 --size 22 --attachment 40x40:center --attachment 1x1em:bottom \
  $'Meet me in \uFFFC New York \uFFFC tonight'
echo
echo "== Rich text: the note editor's rules (markers hidden), a span's colour and fill, a skip-ink underline"
"$bin/layoutctl" layout --width 320 --size 22 --rules builtin --hide-markers --underline single,skip-ink \
  --span 0:2:color=#d01010,background=#ffe066 "1. Buy *milk* and _eggs_ -now- ~please~, it is URGENT"
echo
echo "== Hit-testing as an editor does: a tap, the carets at a bidi boundary, a selection, the word, an arrow key"
"$bin/layoutctl" hit --width 260 --size 20 --at-point 120,12 --caret 4 --range 0,9 --word 6 --move 4:up:right \
  "Say مرحبا to the world, friends"
echo
echo "== Type Mode: the same caption fitted line by line"
"$bin/layoutctl" typemode --style strong --width 300 "so\\nHAPPY\\nto see you all here tonight"
echo
echo "== Story pictures from real captions, in out/"
mkdir -p out
pick() {  # the first caption of a script, 20-90 characters, from ../shared when it is there
  python3 - "$1" "$2" <<'PY'
import json, sys
script, fallback = sys.argv[1], sys.argv[2]
try:
    for line in open("../shared/corpus/captions.jsonl", encoding="utf-8"):
        c = json.loads(line)
        if c["script"] == script and 20 <= len(c["text"]) <= 90:
            print(c["text"]); break
    else:
        print(fallback)
except OSError:
    print(fallback)
PY
}
"$bin/layoutctl" typemode --style strong --width 300 -o out/story-strong.png "$(pick Latn "Practice makes perfect, and perfect makes practice.")"
"$bin/layoutctl" typemode --style neon --width 300 -o out/story-neon.png "$(pick Cyrl "Век живи — век учись.")"
"$bin/layoutctl" typemode --style classic --width 300 -o out/story-classic.png "$(pick Arab "الصبر مفتاح الفرج.")"
"$bin/layoutctl" typemode --style typewriter --width 300 -o out/story-typewriter.png "$(pick Hani "千里之行，始于足下。")"
"$bin/layoutctl" typemode --style modern --width 300 -o out/story-modern.pdf "$(pick Deva "जहाँ चाह, वहाँ राह।")"
"$bin/layoutctl" layout --width 300 --size 22 --attachment 40x40:center --attachment 1x1em:bottom \
  --attachment-image out/story-neon.png -o out/attachments.png $'Meet me in \uFFFC New York \uFFFC tonight'
# Rich text drawn: decorations, letterpress and a whole story frame with a gradient.
"$bin/layoutctl" layout --width 320 --size 26 --rules builtin --hide-markers --underline double,skip-ink,#d01010 \
  --shadow 2,3,4,#00000066 -o out/rich-text.png "1. Buy *milk* and _eggs_ -now- ~please~, it is URGENT"
"$bin/layoutctl" layout --width 320 --size 44 --weight 700 --color '#8a8f99' --effect letterpress,1.5,#e6e8ec \
  -o out/letterpress.png "Pressed into paper"
"$bin/layoutctl" typemode --style strong --width 300 --frame 360x640 --fill 'linear:#ff7a18:#af002d:120' \
  --position 0.5,0.4 --rotate=-6 -o out/story-frame.png "$(pick Latn "Practice makes perfect, and perfect makes practice.")"
# Image tags on a photo (a story drawn above stands in for one): geometry rows, a picture, the hide and style-switch animations.
"$bin/layoutctl" tags --photo 360x450 --at 0.42,0.61 --label "Nike|Air Max 90" --label "¥899" --style 3 \
  --tag '0.7,0.25@2:上海|外滩' --tag '0.25,0.3@0:مقهى|الرياض'
"$bin/layoutctl" tags --photo 360x450 --at 0.42,0.61 --label "Nike|Air Max 90" --label "¥899" --style 3 \
  --tag '0.7,0.25@2:上海|外滩' --tag '0.25,0.3@0:مقهى|الرياض' --image out/story-neon.png -o out/tags.png
"$bin/layoutctl" tags --photo 360x450 --at 0.42,0.61 --label "Nike|Air Max 90" --label "¥899" --style 3 --animate hide -o out/tags-hide.svg
"$bin/layoutctl" tags --photo 360x450 --at 0.42,0.61 --label "Nike|Air Max 90" --label "¥899" --style 3 --switch-to 0 \
  --animate switch -o out/tags-switch.svg
# Text that flows: around a picture, inside a circle, through three columns.
flowing="Text flows around a picture as a river flows around a stone: it parts, runs past on both sides and joins again below. Each band of lines is cut into the intervals the shapes leave free, and each interval takes as much text as fits, in reading order. Inside a circle the lines grow and shrink with the shape; in columns the text runs from one to the next."
"$bin/layoutctl" layout --width 300 --size 16 --exclude 'circle:150,80,50;margin=6' -o out/flow-around.png "$flowing"
"$bin/layoutctl" layout --width 280 --height 280 --size 14 --container circle:140,140,140 --container-inset 8 --valign center \
  --align center -o out/flow-circle.png "$flowing"
"$bin/layoutctl" layout --width 460 --height 120 --size 13 --columns 3 --gap 16 --align justified -o out/flow-columns.png "$flowing"
# Vertical text: columns right to left, Latin on its side, dates upright in one em.
"$bin/layoutctl" layout --width 300 --height 240 --size 22 --font "Noto Sans CJK JP" --vertical --upright-digits 2 \
  -o out/vertical.png "縦書きの文章は上から下へ、右から左へ進みます。「括弧」と長音ー、ABCは横倒し、12月24日は縦中横。"
echo "open out/*.png to look at them (out/tags-hide.svg and out/tags-switch.svg in a browser play the hide and style-switch animations)"
echo
"$bin/layoutctl" stats
