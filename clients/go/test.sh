#!/usr/bin/env bash
# The Go client's checks, offline (gopath.sh): gofmt, go vet, then go test against a real daemon
# ($LAYOUTD_BINARY, else the Swift build's debug binary).
#   clients/go/test.sh [go test flags]
set -euo pipefail
source "$(dirname "$0")/gopath.sh"
export LAYOUTD_BINARY="${LAYOUTD_BINARY:-$here/../../.build/debug/layoutd}"
cd "$gopath/src/layoutd/clients/go"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "gofmt: not formatted: $unformatted" >&2; exit 1; }
go vet ./...
go test -count=1 "$@" ./...
