#!/usr/bin/env bash
# The random-edit test at length: SESSIONS seeded sessions of 60 edits each (default 2,000,
# 120,000 edits), each edit checked against a fresh layout of the same text.
# Usage: scripts/random-edits.sh [SESSIONS] [FIRST_SEED]
# The debug build, as the tests run: a release build of the tests needs -enable-testing (for
# @testable imports), which would rebuild the release products the benchmarks use; 2,000
# sessions take about two minutes here as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
export LAYOUTD_EDIT_SESSIONS="${1:-2000}" LAYOUTD_EDIT_FIRST_SEED="${2:-1000}"
swift build --build-tests >/dev/null
swift test --skip-build --filter 'TextDocumentTests/randomEditsEqualFreshLayouts'
