#!/usr/bin/env bash
# Builds the Go client's benchmark program (bench/) to OUT, offline, as test.sh builds the tests.
#   clients/go/build-bench.sh OUT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(realpath -m "$1")
gopath=$(mktemp -d)
trap 'rm -rf "$gopath"' EXIT
mkdir -p "$gopath/src/layoutd/clients"
ln -s "$here" "$gopath/src/layoutd/clients/go"
export GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOCACHE="${GOCACHE:-$root/.build-gocache}" GOFLAGS=
go build -o "$out" layoutd/clients/go/bench
