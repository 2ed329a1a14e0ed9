#!/usr/bin/env bash
# The random-edit test at length: SESSIONS seeded sessions of 60 edits each (default 2,000,
# 120,000 edits), each edit checked against a fresh layout of the same text.
# Usage: scripts/random-edits.sh [SESSIONS] [FIRST_SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
export LAYOUTD_EDIT_SESSIONS="${1:-2000}" LAYOUTD_EDIT_FIRST_SEED="${2:-1000}"
swift build --build-tests -c release >/dev/null
swift test --skip-build -c release --filter 'TextDocumentTests/randomEditsEqualFreshLayouts'
