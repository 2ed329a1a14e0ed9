#!/usr/bin/env bash
# Instructions per caption of two in-process passes of layoutd-bench, counted by callgrind:
# repeatable for the same build whatever the machine is doing, and blind to the order effects
# that timings of twin texts suffer (Benchmarks/README.md).
#   scripts/count-instructions.sh [PASS_A PASS_B]   (passes: floor, floor-bare (HarfBuzz alone: the floor without the
#   benchmark's own UTF-16 copy and face look-up per caption), cold, framed (the daemon's request path in process: each
#   caption's frame body read, laid out and written as its reply frame by the daemon's RequestProcessor; no socket, no NIO), tiny (one letter: a layout's fixed cost), warm, boxed, unboxed, decorated, flowed, flowed-balanced, flowed-optimal, intrinsic, listed, synthesized, unsynthesized, painted, pathed, emphasized, annotated, built, rules,
#   and floor-hani, floor-hani-vertical (shaped top to bottom), cold-hani, vertical-hani, upright-hani, sideways-hani (text_orientation) over the Han captions alone;
#   default unboxed boxed)
# LAYOUTD_CORPUS=FILE counts over another set of captions (JSON lines with "text" and "script", as
# ../shared/corpus/captions.jsonl), for the targets that hold "on any other set of real captions".
# Needs a release build (scripts/build-release.sh --product layoutd-bench) and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
a=${1:-unboxed} b=${2:-boxed}
binary=${LAYOUTD_BENCH:-.build/release/layoutd-bench}
[ -x "$binary" ] || { echo "count-instructions: build $binary first (scripts/build-release.sh --product layoutd-bench)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "count-instructions: valgrind is not installed" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the DWARF 5 that Swift writes: count a copy without it.
objcopy --strip-debug "$binary" "$work/bench"
corpus=${LAYOUTD_CORPUS:-../shared/corpus/captions.jsonl}
all_captions=$(grep -c . "$corpus")
han_captions=$(grep -c '"script": "Hani"' "$corpus" || true)
count() {  # pass, repeats → instructions collected
  LAYOUTD_BENCH_PROFILE=$1 valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/bench" --no-daemon --corpus "$corpus" --repeats "$2" \
    2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# Two runs per pass, one and three repeats: their difference is two passes, start-up excluded.
declare -A per
for pass in "$a" "$b"; do
  captions=$all_captions
  case $pass in *-hani | *-hani-*) captions=$han_captions ;; esac
  [ "$captions" -gt 0 ] || { echo "count-instructions: $corpus has no caption for the pass $pass (a *-hani pass counts its Han captions alone)" >&2; exit 1; }
  one=$(count "$pass" 1) three=$(count "$pass" 3)
  per[$pass]=$(( (three - one) / 2 / captions ))
  echo "$pass: ${per[$pass]} instructions per caption"
done
python3 -c "print('$b / $a: %.3f×' % (${per[$b]} / ${per[$a]}))"
