#!/usr/bin/env bash
# Every test: engine (goldens against hb-shape, the caption corpus when ../shared is there),
# wire (golden bytes, generated code current) and the real daemon over a real socket.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
swift build --build-tests
# Line-buffered, so a log cut short still names the tests that were running; and bounded, so a
# test that hangs fails the run with that log instead of holding CI until its own limit (the
# whole suite takes about two minutes here).
timeout --kill-after=30s "${LAYOUTD_TEST_TIMEOUT:-40m}" stdbuf -oL -eL swift test --skip-build "$@"
