#!/usr/bin/env bash
# Every test: engine (goldens against hb-shape, the caption corpus when ../shared is there),
# wire (golden bytes, generated code current) and the real daemon over a real socket.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
