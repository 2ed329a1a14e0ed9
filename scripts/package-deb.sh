#!/usr/bin/env bash
# Builds layoutd's Debian packages from one staged install (scripts/install.sh, PREFIX=/usr), split
# as distributions split them:
#   layoutd                 the daemon, layoutctl, the units, the configuration, man pages
#   liblayoutd-client0      the C client's shared library
#   liblayoutd-client-dev   its headers, static library, .so link and .pc, and the .proto files
#   python3-layoutd         the Python package
# Each package depends on the Debian packages of the libraries its binaries link (read from their
# NEEDED entries and dpkg, not written by hand); the daemon on one font it can start with, the
# rest of its default set recommended.
#
#   scripts/package-deb.sh [OUTDIR]        writes OUTDIR/NAME_VERSION_ARCH.deb, one line each
set -euo pipefail
cd "$(dirname "$0")/.."
outdir=${1:-out}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
multiarch=$(gcc -print-multiarch)
PREFIX=/usr LIBDIR=/usr/lib/$multiarch DESTDIR="$stage/all" scripts/install.sh >&2

version=$(sed -n 's/.*current = "\(.*\)".*/\1/p' clients/swift/Sources/LayoutProtocol/Version.swift)
arch=$(dpkg --print-architecture)
mkdir -p "$outdir"

# The packages owning the shared libraries `binaries` link directly.
library_packages() {
  local libraries
  libraries=$(for binary in "$@"; do
    for soname in $(objdump -p "$binary" | awk '/NEEDED/ { print $2 }'); do
      ldd "$binary" | awk -v name="$soname" '$1 == name && $3 ~ /^\// { print $3 }'
    done
  done | sort -u)
  for library in $libraries; do
    real=$(readlink -f "$library")
    dpkg -S "$library" 2>/dev/null || dpkg -S "$real" 2>/dev/null || dpkg -S "${library#/usr}" 2>/dev/null \
      || dpkg -S "/usr$library" 2>/dev/null || { echo "package-deb: no package owns $library" >&2; exit 1; }
  done | cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g'
}

# Moves `paths` (relative to the staged root) into package `name`'s root.
take() {
  local name=$1; shift
  for path in "$@"; do
    mkdir -p "$stage/$name/$(dirname "$path")"
    mv "$stage/all/$path" "$stage/$name/$path"
  done
}

# Writes package `name`'s control file: its name, version, architecture `$2`, then stdin.
control() {
  install -d "$stage/$1/DEBIAN"
  { echo "Package: $1"; echo "Version: $version"; echo "Architecture: $2"
    echo "Maintainer: layoutd developers <layoutd@localhost>"; cat; } > "$stage/$1/DEBIAN/control"
}

# Builds package `name` for architecture `$2` from its root and prints its path.
pack() {
  local package="$outdir/${1}_${version}_$2.deb"
  dpkg-deb --root-owner-group -Zxz --build "$stage/$1" "$package" >&2
  echo "$package"
}

lib=usr/lib/$multiarch
take liblayoutd-client0 "$lib/liblayoutd-client.so.0" "$lib/liblayoutd-client.so.$version"
take liblayoutd-client-dev "$lib/liblayoutd-client.so" "$lib/liblayoutd-client.a" "$lib/pkgconfig/layoutd-client.pc" \
  usr/include/layoutd usr/share/layoutd/proto
take python3-layoutd usr/lib/python3/dist-packages/layoutd
take layoutd usr/bin lib/systemd usr/lib/sysusers.d etc/layoutd usr/share/man usr/share/doc/layoutd usr/share/bash-completion \
  usr/share/zsh usr/share/fish
left=$(cd "$stage/all" && find . -type f -o -type l)
[ -z "$left" ] || { echo "package-deb: staged files no package takes: $left" >&2; exit 1; }

# The daemon starts on any one face of its default set (DefaultFonts): Noto Sans or DejaVu.
control layoutd "$arch" <<CONTROL
Section: text
Priority: optional
Depends: $(library_packages "$stage/layoutd/usr/bin/layoutd" "$stage/layoutd/usr/bin/layoutctl"), fonts-noto-core | fonts-dejavu-core
Recommends: systemd, fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji, fonts-dejavu-core, fonts-urw-base35, hyphen-en-us
Suggests: hyphen-de, hyphen-fr, hyphen-es, hyphen-it, hyphen-nl, hyphen-ru, fonts-inter-variable, liblayoutd-client-dev, python3-layoutd
Description: text layout daemon with a protobuf API over a Unix socket
 layoutd loads fonts once and lays text out for its clients: shaping, line breaking, bidi,
 fallback, Type Mode stories, inline attachments and image tags, answered as glyph positions
 and rectangles over a Unix socket. layoutctl is its command-line client.
CONTROL
printf '%s\n' /etc/layoutd/layoutd.conf /etc/layoutd/tag-styles.json > "$stage/layoutd/DEBIAN/conffiles"
cat > "$stage/layoutd/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
  command -v systemd-sysusers >/dev/null && systemd-sysusers layoutd.conf || true
  [ -d /run/systemd/system ] && systemctl daemon-reload || true
fi
exit 0
SCRIPT
cat > "$stage/layoutd/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
[ -d /run/systemd/system ] && systemctl daemon-reload || true
exit 0
SCRIPT
chmod 0755 "$stage/layoutd/DEBIAN/postinst" "$stage/layoutd/DEBIAN/postrm"
pack layoutd "$arch"

control liblayoutd-client0 "$arch" <<CONTROL
Section: libs
Priority: optional
Depends: $(library_packages "$stage/liblayoutd-client0/$lib/liblayoutd-client.so.0")
Description: client library for layoutd, the text layout daemon
 liblayoutd-client talks to layoutd over its Unix socket: connect, greet, lay text out,
 pipeline requests, reconnect after the daemon restarts.
CONTROL
# The shared library's cache is refreshed by libc-bin's trigger.
echo "activate-noawait ldconfig" > "$stage/liblayoutd-client0/DEBIAN/triggers"
pack liblayoutd-client0 "$arch"

control liblayoutd-client-dev "$arch" <<CONTROL
Section: libdevel
Priority: optional
Depends: liblayoutd-client0 (= $version), libprotobuf-c-dev
Description: client library for layoutd, the text layout daemon (development files)
 The header, the static library, the pkg-config file (layoutd-client) of liblayoutd-client, and
 the protocol's .proto files (/usr/share/layoutd/proto) for clients in other languages.
CONTROL

pack liblayoutd-client-dev "$arch"

control python3-layoutd all <<CONTROL
Section: python
Priority: optional
Depends: python3 (>= 3.8), python3-protobuf (>= 3.20)
Description: Python client for layoutd, the text layout daemon
 The layoutd package: a blocking and an asyncio client, pipelined, reconnecting after the
 daemon restarts, with the protocol's messages and their type stubs.
CONTROL
pack python3-layoutd all
