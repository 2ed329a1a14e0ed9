#!/usr/bin/env bash
# Builds the Go program in DIR (this module's bench/, or a program of its own elsewhere that
# imports layoutd/clients/go) to OUT, offline, as test.sh builds the tests (gopath.sh).
#   clients/go/build.sh DIR OUT
set -euo pipefail
dir=$(realpath "$1")
out=$(realpath -m "$2")
source "$(dirname "$0")/gopath.sh"
cd "$dir"
go build -o "$out" .
