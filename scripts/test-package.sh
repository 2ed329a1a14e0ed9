#!/usr/bin/env bash
# CI's package check: builds the Debian packages (layoutd, liblayoutd-client0,
# liblayoutd-client-dev, python3-layoutd), installs them with dpkg -i, runs what each holds against
# a scratch socket (the daemon and layoutctl, the C example through pkg-config, the Python package
# from outside the tree, the installed protos), checks the unit and man pages, then purges each and
# checks that none of its files is left.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
# One scratch directory for the packages, the socket and the example, removed however the test ends.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/debs" "$work/example"
mapfile -t packages < <(scripts/package-deb.sh "$work/debs")
names=(layoutd liblayoutd-client0 liblayoutd-client-dev python3-layoutd)
[ ${#packages[@]} -eq 4 ] || { echo "package-test: expected 4 packages, got: ${packages[*]}" >&2; exit 1; }
for package in "${packages[@]}"; do
  echo "package-test: built $package ($(du -h "$package" | cut -f1))"
  dpkg-deb --info "$package" | sed -n 's/^ \(Depends\|Recommends\):/package-test:   \1:/p'
done
# The daemon depends on one font it can start with; the rest of the default set is recommended.
depends=$(dpkg-deb --field "${packages[0]}" Depends)
case "$depends" in *"fonts-noto-core | fonts-dejavu-core"*) ;; *) echo "package-test: layoutd's fonts: $depends" >&2; exit 1 ;; esac
case "$depends" in *fonts-noto-cjk*|*fonts-noto-color-emoji*) echo "package-test: optional fonts in Depends" >&2; exit 1 ;; esac
for name in liblayoutd-client0 liblayoutd-client-dev python3-layoutd; do
  case "$depends" in *"$name"*) echo "package-test: layoutd depends on $name" >&2; exit 1 ;; esac
done
$sudo dpkg -i "${packages[@]}" >/dev/null
trap '$sudo dpkg -P "${names[@]}" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
declare -A files
for name in "${names[@]}"; do files[$name]=$(dpkg -L "$name" | while read -r f; do [ -d "$f" ] || echo "$f"; done); done
if ldd /usr/bin/layoutd /usr/bin/layoutctl | grep -q "/swift/"; then
  echo "package-test: the installed binaries need the Swift toolchain" >&2; exit 1
fi
getent group layoutd >/dev/null || { echo "package-test: no layoutd group after install" >&2; exit 1; }
# The shipped configuration file loads as it is (layoutd reads /etc/layoutd/layoutd.conf itself).
/usr/bin/layoutd --check-config
socket=$work/layoutd.sock
/usr/bin/layoutd --socket "$socket" --log-level warning &
daemon=$!
trap 'kill $daemon 2>/dev/null || true; $sudo dpkg -P "${names[@]}" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do /usr/bin/layoutctl ping --socket "$socket" >/dev/null 2>&1 && break; sleep 0.1; done
/usr/bin/layoutctl ping --socket "$socket"
/usr/bin/layoutctl layout --socket "$socket" --width 200 "installed from a Debian package"
/usr/bin/layoutctl tags toggle --socket "$socket" --label-count 2 --style 3
# The C client library as a program would use it: the README's example, built with pkg-config.
example=$work/example
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' > "$example/hello.c"
cc "$example/hello.c" -o "$example/hello" $(pkg-config --cflags --libs layoutd-client)
[ "$(LAYOUTD_SOCKET="$socket" "$example/hello")" = "1 lines" ] || { echo "package-test: the C example failed" >&2; exit 1; }
# The Python package, from outside the tree, on Debian's protobuf.
(cd / && LAYOUTD_SOCKET="$socket" PYTHONPATH= /usr/bin/python3 -c '
import layoutd
assert layoutd.__file__.startswith("/usr/lib/python3/dist-packages/"), layoutd.__file__
with layoutd.Client() as client:
    assert len(client.layout("installed from python3-layoutd", width=400).lines) == 1
') || { echo "package-test: the Python package failed" >&2; exit 1; }
# The contract, for clients in other languages.
[ -f /usr/share/layoutd/proto/layoutd/v1/envelope.proto ] || { echo "package-test: no installed protos" >&2; exit 1; }
protoc -I /usr/share/layoutd/proto --descriptor_set_out=/dev/null /usr/share/layoutd/proto/layoutd/v1/*.proto
kill -TERM $daemon
wait $daemon
man -w layoutctl >/dev/null && man -w layoutd >/dev/null && man -w layoutctl-layout >/dev/null && man -w layoutctl-tags-reset >/dev/null
# Every page renders without a warning from groff.
for name in layoutctl layoutctl-layout layoutctl-tags-place layoutd; do
  warnings=$(MANWIDTH=80 man --warnings "$name" 2>&1 >/dev/null || true)
  [ -z "$warnings" ] || { echo "package-test: man $name: $warnings" >&2; exit 1; }
done
verify=$(systemd-analyze verify --man=no /lib/systemd/system/layoutd.socket /lib/systemd/system/layoutd.service 2>&1 \
  | grep -v -e "Failed to resolve user" -e "Failed to resolve group" -e "System has not been booted with systemd" || true)
[ -z "$verify" ] || { echo "package-test: systemd-analyze verify: $verify" >&2; exit 1; }
# Each package purged leaves none of its files (dependents first).
for name in python3-layoutd liblayoutd-client-dev liblayoutd-client0 layoutd; do
  $sudo dpkg -P "$name" >/dev/null
  left=$(for f in ${files[$name]}; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done || true)
  [ -z "$left" ] || { echo "package-test: $name left $left" >&2; exit 1; }
done
trap - EXIT
rm -rf "$work"
echo "package-test: ok (${names[*]})"
