#!/usr/bin/env bash
# A release build as layoutd ships and is measured: `swift build -c release` with every module's
# run-time exclusivity checks off, swift-nio's and swift-protobuf's included, as NIO's maintainers
# advise for servers (Package.swift turns them off in the project's own targets, but a package
# cannot set a flag for its dependencies). NIO's event loop went through swift_beginAccess about
# 4,300 instructions a layout request (docs/design.md, "Release builds"). Debug builds, which the
# tests run, keep every check.
#
# With --pgo (first), the build is profile-guided: compiled with the counts of a training run
# (scripts/pgo/profile.sh makes them, or LAYOUTD_PGO_PROFILE names a profile made already), so
# its hot code is laid out together and its cold branches moved aside (docs/design.md,
# "Profile-guided release builds"). It builds in its own scratch path (.build-pgo/use unless
# --scratch-path is given), emptied when the profile changes, as SwiftPM does not rebuild then.
#
#   scripts/build-release.sh [--pgo] [swift build options…]     e.g. --product layoutd, --show-bin-path
set -euo pipefail
cd "$(dirname "$0")/.."
release=(swift build -c release -Xswiftc -enforce-exclusivity=unchecked)
if [ "${1:-}" != --pgo ]; then
  exec "${release[@]}" "$@"
fi
shift
scratch=
arguments=("$@")
for ((i = 0; i + 1 < ${#arguments[@]}; i++)); do
  [ "${arguments[i]}" = --scratch-path ] && scratch=${arguments[i + 1]}
done
if [ -z "$scratch" ]; then
  scratch=.build-pgo/use
  set -- --scratch-path "$scratch" "$@"
fi
[[ " $* " == *" --show-bin-path "* ]] && exec swift build -c release "$@"
profile=${LAYOUTD_PGO_PROFILE:-}
if [ -z "$profile" ]; then
  profile=.build-pgo/layoutd.profdata
  scripts/pgo/profile.sh "$profile" >&2
fi
used="$scratch/pgo.profdata"
if ! cmp -s "$profile" "$used"; then
  rm -rf "$scratch/release" "$scratch/$(uname -m)-unknown-linux-gnu"
  mkdir -p "$scratch"
  cp "$profile" "$used"
fi
# -ir-profile-use is a frontend flag: the driver drops it.
exec "${release[@]}" -Xswiftc -Xfrontend -Xswiftc -ir-profile-use="$(readlink -f "$used")" "$@"
