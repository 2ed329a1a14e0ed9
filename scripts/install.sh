#!/usr/bin/env bash
# Builds release binaries with the Swift runtime linked in (no toolchain needed at run time) and
# installs layoutd, layoutctl, the systemd units, the layoutd user (sysusers.d), the default tag
# styles, shell completions and man pages, the C client library (liblayoutd-client, its
# headers and layoutd-client.pc; LIBDIR defaults to PREFIX/lib), the .proto files
# (PREFIX/share/layoutd/proto) and the Python package (PREFIX/lib/python3/dist-packages).
#
#   scripts/install.sh                         PREFIX=/usr/local, into /
#   PREFIX=/usr DESTDIR=/tmp/stage scripts/install.sh      staged (scripts/package-deb.sh does this)
#
# Then, as root: systemd-sysusers; systemctl daemon-reload; systemctl enable --now layoutd.socket
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
scratch=${LAYOUTD_STATIC_BUILD:-.build-static}

# Everything of the Swift runtime goes into the binaries; the C libraries stay Debian's. The build
# is profile-guided (scripts/build-release.sh --pgo), one training run for both binaries;
# LAYOUTD_PGO=0 builds without it (quicker; the figures: Benchmarks/results/daemon-instructions.md).
pgo=()
if [ "${LAYOUTD_PGO:-1}" != 0 ]; then
  export LAYOUTD_PGO_PROFILE=.build-pgo/layoutd.profdata
  scripts/pgo/profile.sh "$LAYOUTD_PGO_PROFILE" >&2
  pgo=(--pgo)
fi
for product in layoutd layoutctl; do
  scripts/build-release.sh "${pgo[@]}" --static-swift-stdlib --scratch-path "$scratch" --product "$product" >&2
done
bin="$scratch/release"
if ldd "$bin/layoutd" | grep -q "/swift/"; then
  echo "install: layoutd still links the Swift toolchain's libraries" >&2
  ldd "$bin/layoutd" >&2
  exit 1
fi

# The unit's ExecStart and the man pages name where the binaries go.
unitdir=${SYSTEMD_UNIT_DIR:-/lib/systemd/system}
install -d "$DESTDIR$PREFIX/bin" "$DESTDIR$unitdir" "$DESTDIR/usr/lib/sysusers.d" "$DESTDIR/etc/layoutd" \
  "$DESTDIR$PREFIX/share/man/man1" "$DESTDIR$PREFIX/share/man/man8" "$DESTDIR$PREFIX/share/doc/layoutd" \
  "$DESTDIR$PREFIX/share/bash-completion/completions" "$DESTDIR$PREFIX/share/zsh/vendor-completions" \
  "$DESTDIR$PREFIX/share/fish/vendor_completions.d"
# Stripped: the debug info is most of a 100 MB binary.
install -m 0755 -s "$bin/layoutd" "$bin/layoutctl" "$DESTDIR$PREFIX/bin/"
sed -e "s#/usr/local/bin/layoutd #$PREFIX/bin/layoutd #" \
  systemd/layoutd.service > "$DESTDIR$unitdir/layoutd.service"
install -m 0644 systemd/layoutd.socket "$DESTDIR$unitdir/layoutd.socket"
install -m 0644 packaging/sysusers.d/layoutd.conf "$DESTDIR/usr/lib/sysusers.d/layoutd.conf"
# The configuration file and the tag styles it names: edit them, then systemctl reload layoutd.
# An operator's edited copies are kept.
[ -e "$DESTDIR/etc/layoutd/layoutd.conf" ] || install -m 0644 packaging/layoutd.conf "$DESTDIR/etc/layoutd/layoutd.conf"
[ -e "$DESTDIR/etc/layoutd/tag-styles.json" ] || install -m 0644 data/tag-styles.json "$DESTDIR/etc/layoutd/tag-styles.json"
install -m 0644 README.md docs/protocol.md docs/design.md systemd/drop-ins/metrics.conf "$DESTDIR$PREFIX/share/doc/layoutd/"

# Completions and man pages come from the binaries' own argument parsers.
"$bin/layoutctl" --generate-completion-script bash > "$DESTDIR$PREFIX/share/bash-completion/completions/layoutctl"
"$bin/layoutctl" --generate-completion-script zsh > "$DESTDIR$PREFIX/share/zsh/vendor-completions/_layoutctl"
"$bin/layoutctl" --generate-completion-script fish > "$DESTDIR$PREFIX/share/fish/vendor_completions.d/layoutctl.fish"
"$bin/layoutd" --generate-completion-script bash > "$DESTDIR$PREFIX/share/bash-completion/completions/layoutd"
# One page per command, from the parsers themselves (layoutctl.1, layoutctl-layout.1, ..., layoutd.8).
/usr/bin/python3 scripts/manpage.py "$bin/layoutctl" 1 "$DESTDIR$PREFIX/share/man/man1" >/dev/null
/usr/bin/python3 scripts/manpage.py "$bin/layoutd" 8 "$DESTDIR$PREFIX/share/man/man8" >/dev/null
gzip -9nf "$DESTDIR$PREFIX"/share/man/man1/layoutctl*.1 "$DESTDIR$PREFIX/share/man/man8/layoutd.8"
# The C client library, for programs that call layoutd (clients/c).
make -s -C clients/c install PREFIX="$PREFIX" LIBDIR="${LIBDIR:-$PREFIX/lib}" DESTDIR="$(cd "${DESTDIR:-/}" && pwd)" >&2
# The contract, for clients generated in other languages: PREFIX/share/layoutd/proto/layoutd/v1.
install -d "$DESTDIR$PREFIX/share/layoutd/proto/layoutd/v1"
install -m 0644 proto/layoutd/v1/*.proto "$DESTDIR$PREFIX/share/layoutd/proto/layoutd/v1/"
# The Python package, where Debian's python3 finds it (PYTHON_DIR to put it elsewhere).
pythondir=${PYTHON_DIR:-$PREFIX/lib/python3/dist-packages}
install -d "$DESTDIR$pythondir/layoutd/v1"
install -m 0644 clients/python/layoutd/*.py clients/python/layoutd/py.typed "$DESTDIR$pythondir/layoutd/"
install -m 0644 clients/python/layoutd/v1/*.py clients/python/layoutd/v1/*.pyi "$DESTDIR$pythondir/layoutd/v1/"
echo "installed layoutd, layoutctl, liblayoutd-client, the protos and the Python package into $DESTDIR$PREFIX"
