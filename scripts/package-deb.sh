#!/usr/bin/env bash
# Builds a Debian package of layoutd from a staged install (scripts/install.sh with PREFIX=/usr):
# the binaries carry the Swift runtime; the package depends on the Debian libraries they link
# and on the fonts of the default set.
#
#   scripts/package-deb.sh [OUTDIR]        writes OUTDIR/layoutd_VERSION_ARCH.deb (default out/)
set -euo pipefail
cd "$(dirname "$0")/.."
outdir=${1:-out}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
multiarch=$(gcc -print-multiarch)
PREFIX=/usr LIBDIR=/usr/lib/$multiarch DESTDIR="$stage" scripts/install.sh >&2

version=$(sed -n 's/.*current = "\(.*\)".*/\1/p' clients/swift/Sources/LayoutProtocol/Version.swift)
arch=$(dpkg --print-architecture)
# The packages of the shared libraries the binaries link directly (their NEEDED entries, found
# where ldd resolves them), from dpkg, not written by hand.
libraries=$(for binary in "$stage/usr/bin/layoutd" "$stage/usr/bin/layoutctl" "$stage/usr/lib/$multiarch/liblayoutd-client.so.0"; do
  for soname in $(objdump -p "$binary" | awk '/NEEDED/ { print $2 }'); do
    ldd "$binary" | awk -v name="$soname" '$1 == name && $3 ~ /^\// { print $3 }'
  done
done | sort -u)
depends=$(for library in $libraries; do
  real=$(readlink -f "$library")
  dpkg -S "$library" 2>/dev/null || dpkg -S "$real" 2>/dev/null || dpkg -S "${library#/usr}" 2>/dev/null \
    || dpkg -S "/usr$library" 2>/dev/null || { echo "package-deb: no package owns $library" >&2; exit 1; }
done | cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')
depends="$depends, fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji, fonts-dejavu-core, fonts-urw-base35"

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: layoutd
Version: $version
Architecture: $arch
Maintainer: layoutd developers <layoutd@localhost>
Section: text
Priority: optional
Depends: $depends
Recommends: systemd, hyphen-en-us
Suggests: hyphen-de, hyphen-fr, hyphen-es, hyphen-it, hyphen-nl, hyphen-ru, fonts-inter-variable
Description: text layout daemon with a protobuf API over a Unix socket
 layoutd loads fonts once and lays text out for its clients: shaping, line breaking, bidi,
 fallback, Type Mode stories, inline attachments and image tags, answered as glyph positions
 and rectangles over a Unix socket. layoutctl is its command-line client; liblayoutd-client,
 its header and layoutd-client.pc are the C client library.
CONTROL
# The shared library's cache is refreshed by libc-bin's trigger.
echo "activate-noawait ldconfig" > "$stage/DEBIAN/triggers"
printf '%s\n' /etc/layoutd/layoutd.conf /etc/layoutd/tag-styles.json > "$stage/DEBIAN/conffiles"
cat > "$stage/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
  command -v systemd-sysusers >/dev/null && systemd-sysusers layoutd.conf || true
  [ -d /run/systemd/system ] && systemctl daemon-reload || true
fi
exit 0
SCRIPT
cat > "$stage/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
[ -d /run/systemd/system ] && systemctl daemon-reload || true
exit 0
SCRIPT
chmod 0755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/postrm"
mkdir -p "$outdir"
package="$outdir/layoutd_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >&2
echo "$package"
