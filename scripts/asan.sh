#!/usr/bin/env bash
# AddressSanitizer over the engine and wire tests and the fonts adapter's twin faces (ShapingSettingsTests): the stages that hold raw memory (the layout
# scratch pool, pieces pointing into shaped storage, the protobuf readers and writers) run under
# ASan and LeakSanitizer; and the daemon built with ASan, reloading while it draws pictures and
# decoding merged fields (ReloadRenderTests, MergedFieldTests). CI runs it. Foundation's own process-lifetime allocations are suppressed
# (scripts/asan-suppressions.txt); anything else fails the run.
#   scripts/asan.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-asan
swift build --build-tests --scratch-path "$scratch" -Xswiftc -sanitize=address >&2
export LSAN_OPTIONS="suppressions=$PWD/scripts/asan-suppressions.txt:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
swift test --skip-build --scratch-path "$scratch" --filter 'LayoutEngineTests|LayoutRenderTests|LayoutWireTests|ShapingSettingsTests' "$@"
# The daemon under ASan: memory errors stop it (and fail the test); leaks at its exit are not
# checked, since Cairo 1.16 itself leaks small arrays when it finishes some SVG and PDF surfaces
# (13 of 768 bytes in ReloadRenderTests' 320 pictures, allocated inside libcairo, which has no
# frame pointers for a suppression to match a function by).
ASAN_OPTIONS="detect_leaks=0:halt_on_error=1" swift test --skip-build --scratch-path "$scratch" \
  --filter 'ReloadRenderTests|MergedFieldTests' "$@"
