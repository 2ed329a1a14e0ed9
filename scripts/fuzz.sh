#!/usr/bin/env bash
# libFuzzer over the daemon's whole request path, in process: frame decoder, envelope readers,
# validation, the engine and the reply encoders (Sources/LayoutServer/FuzzEntry.swift).
#
#   scripts/fuzz.sh [--address] [RUNS] [JOBS]      default: 10,000,000 executions over 2 jobs
#
# --address builds the fuzzer with AddressSanitizer too (in .build-fuzz-asan, its own corpus), so
# a read or write past a buffer in the unsafe code (docs/unsafe.md) stops the run where it
# happens, not only where it crashes (slower: figures in Benchmarks/results/robustness.md).
#
# Seeds: one valid frame (and bare body) of each request type and the shared golden vector
# (scripts/hostile/seeds.py). The corpus grows in .build-fuzz/corpus; crashes land in
# .build-fuzz/crashes. Each becomes a regression test: copy it to Tests/LayoutServerTests/
# FuzzRegressions/ (FuzzRegressionTests replays every file there).
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers=fuzzer
scratch=.build-fuzz
if [ "${1:-}" = "--address" ]; then
    shift
    sanitizers=fuzzer,address
    scratch=.build-fuzz-asan
    # As scripts/asan.sh: leaks are reported, but not the process-lifetime ones it suppresses.
    export LSAN_OPTIONS="suppressions=$PWD/scripts/asan-suppressions.txt:print_suppressions=0"
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
fi
runs=${1:-10000000}
jobs=${2:-2}
swift build -c release --product layoutd-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize="$sanitizers" -Xswiftc -DLAYOUTD_FUZZING >&2
mkdir -p "$scratch/corpus" "$scratch/crashes" "$scratch/seeds"
/usr/bin/python3 scripts/hostile/seeds.py "$scratch/seeds"
per_job=$(( runs / jobs ))
start=$(date +%s)
pids=()
for job in $(seq 1 "$jobs"); do
    "$scratch/release/layoutd-fuzz" "$scratch/corpus" "$scratch/seeds" \
        -runs="$per_job" -max_len=8192 -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix="$scratch/crashes/" -seed="$job" > "$scratch/job-$job.log" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
seconds=$(( $(date +%s) - start ))
executed=0
for job in $(seq 1 "$jobs"); do
    n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$scratch/job-$job.log" | grep -o '[0-9]*$' || echo 0)
    executed=$(( executed + n ))
done
crashes=$(ls "$scratch/crashes" | wc -l)
echo "fuzz ($sanitizers): $executed executions in $seconds s over $jobs jobs, $crashes crash files, exit status $status"
for job in $(seq 1 "$jobs"); do grep -E '^stat::|^#[0-9]+ +DONE' "$scratch/job-$job.log" | sed "s/^/job $job: /"; done
exit "$status"
