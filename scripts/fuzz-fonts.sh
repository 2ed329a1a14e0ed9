#!/usr/bin/env bash
# A longer pass of the font fuzzer (FontFuzzTests): mutants of real fonts checked as clients'
# fonts are, laid out and drawn; any crash fails it. Each seed is a different pass.
#   scripts/fuzz-fonts.sh [ITERATIONS [SEED]]      (defaults: 100000, the time)
set -euo pipefail
cd "$(dirname "$0")/.."
iterations="${1:-100000}"
seed="${2:-$(date +%s)}"
swift build --build-tests >&2
echo "fuzz-fonts: $iterations mutants, seed $seed" >&2
LAYOUTD_FONT_FUZZ_ITERATIONS="$iterations" LAYOUTD_FONT_FUZZ_SEED="$seed" \
  swift test --skip-build --filter FontFuzzTests 2>&1 | grep -E "font fuzz|passed|failed|error|Fatal|Signal" >&2
