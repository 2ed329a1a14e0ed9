#!/usr/bin/env bash
# How replies scale with the daemon's threads (docs/deployment.md): for 1 and 2 threads, and 1 and
# 4 client connections (each a process of the Go client's benchmark, clients/go/bench), the total
# captions/s of 1,000 pipelined per connection (median of 3 runs), and the daemon's resident memory.
#   scripts/scale-by-threads.sh LAYOUTD_BINARY [CAPTIONS_JSONL]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
captions=${2:-../shared/corpus/captions.jsonl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 -c "import json,sys; open(sys.argv[2],'wb').write('\0'.join(json.loads(l)['text'] for l in open(sys.argv[1])).encode())" \
  "$captions" "$work/texts"
clients/go/build.sh clients/go/bench "$work/bench"
for threads in 1 2; do
  socket=$work/layoutd-$threads.sock
  "$binary" --socket "$socket" --config /dev/null --log-level error --threads "$threads" &
  daemon=$!
  for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
  sleep 0.5
  idle=$(awk '/VmRSS/ {print $2}' "/proc/$daemon/status")
  for connections in 1 4; do
    rates=()
    for _ in 1 2 3; do
      clients=()
      for c in $(seq "$connections"); do "$work/bench" "$socket" "$work/texts" > "$work/out-$c" & clients+=($!); done
      wait "${clients[@]}"
      rates+=("$(for c in $(seq "$connections"); do awk '/pipelined_us/ {print 1000 / ($2 / 1e6)}' "$work/out-$c"; done \
        | awk '{ total += $1 } END { printf "%.0f", total }')")
    done
    echo "threads $threads, connections $connections: $(printf '%s\n' "${rates[@]}" | sort -n | sed -n 2p) captions/s (runs: ${rates[*]})"
  done
  echo "threads $threads: resident $((idle / 1024)) MiB idle, $(($(awk '/VmHWM/ {print $2}' "/proc/$daemon/status") / 1024)) MiB at most"
  kill "$daemon"; wait "$daemon" 2>/dev/null || true
done
