#!/usr/bin/env bash
# The Go client's checks, offline, on Debian's Go and google.golang.org/protobuf
# (golang-google-protobuf-dev): gofmt, go vet, then go test against a real daemon
# ($LAYOUTD_BINARY, else the Swift build's debug binary). Debian ships the protobuf module as
# source in /usr/share/gocode without the modules it requires, so the build runs in GOPATH mode:
# a GOPATH of its own reaches this folder as layoutd/clients/go (go.mod's path).
#   clients/go/test.sh [go test flags]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gopath=$(mktemp -d)
trap 'rm -rf "$gopath"' EXIT
mkdir -p "$gopath/src/layoutd/clients"
ln -s "$here" "$gopath/src/layoutd/clients/go"
export GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOCACHE="${GOCACHE:-$root/.build-gocache}" GOFLAGS=
export LAYOUTD_BINARY="${LAYOUTD_BINARY:-$root/.build/debug/layoutd}"
cd "$gopath/src/layoutd/clients/go"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "gofmt: not formatted: $unformatted" >&2; exit 1; }
go vet ./...
go test -count=1 "$@" ./...
