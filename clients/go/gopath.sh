# Sourced by test.sh and build.sh: Go offline, on Debian's Go and google.golang.org/protobuf
# (golang-google-protobuf-dev). Debian ships the protobuf module as source in /usr/share/gocode
# without the modules it requires, so builds run in GOPATH mode: a GOPATH of its own (removed on
# exit) reaches this folder as layoutd/clients/go, go.mod's path. Sets `here` and `gopath`.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gopath=$(mktemp -d)
trap 'rm -rf "$gopath"' EXIT
mkdir -p "$gopath/src/layoutd/clients"
ln -s "$here" "$gopath/src/layoutd/clients/go"
export GO111MODULE=off GOPATH="$gopath:/usr/share/gocode" GOCACHE="${GOCACHE:-$here/../../.build-gocache}" GOFLAGS=
