#!/usr/bin/env bash
# CI's package check: builds the Debian package, installs it with dpkg -i, runs the installed
# binaries against a scratch socket, checks the installed unit and man pages, and removes it.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
package=$(scripts/package-deb.sh "$(mktemp -d)")
echo "package-test: built $package ($(du -h "$package" | cut -f1))"
dpkg-deb --info "$package" | sed -n 's/^ Depends:/package-test: depends:/p'
$sudo dpkg -i "$package" >/dev/null
trap '$sudo dpkg -r layoutd >/dev/null 2>&1 || true' EXIT
if ldd /usr/bin/layoutd /usr/bin/layoutctl | grep -q "/swift/"; then
  echo "package-test: the installed binaries need the Swift toolchain" >&2; exit 1
fi
getent group layoutd >/dev/null || { echo "package-test: no layoutd group after install" >&2; exit 1; }
# The shipped configuration file loads as it is (layoutd reads /etc/layoutd/layoutd.conf itself).
/usr/bin/layoutd --check-config
socket=$(mktemp -d)/layoutd.sock
/usr/bin/layoutd --socket "$socket" --log-level warning &
daemon=$!
trap 'kill $daemon 2>/dev/null || true; $sudo dpkg -r layoutd >/dev/null 2>&1 || true' EXIT
for _ in $(seq 100); do /usr/bin/layoutctl ping --socket "$socket" >/dev/null 2>&1 && break; sleep 0.1; done
/usr/bin/layoutctl ping --socket "$socket"
/usr/bin/layoutctl layout --socket "$socket" --width 200 "installed from a Debian package"
/usr/bin/layoutctl tags toggle --socket "$socket" --label-count 2 --style 3
# The C client library as a program would use it: the README's example, built with pkg-config.
example=$(mktemp -d)
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' > "$example/hello.c"
cc "$example/hello.c" -o "$example/hello" $(pkg-config --cflags --libs layoutd-client)
[ "$(LAYOUTD_SOCKET="$socket" "$example/hello")" = "1 lines" ] || { echo "package-test: the C example failed" >&2; exit 1; }
kill -TERM $daemon
wait $daemon
man -w layoutctl >/dev/null && man -w layoutd >/dev/null
verify=$(systemd-analyze verify --man=no /lib/systemd/system/layoutd.socket /lib/systemd/system/layoutd.service 2>&1 \
  | grep -v -e "Failed to resolve user" -e "Failed to resolve group" -e "System has not been booted with systemd" || true)
[ -z "$verify" ] || { echo "package-test: systemd-analyze verify: $verify" >&2; exit 1; }
echo "package-test: ok"
