#!/usr/bin/env bash
# A release build as layoutd ships and is measured: `swift build -c release` with every module's
# run-time exclusivity checks off, swift-nio's and swift-protobuf's included, as NIO's maintainers
# advise for servers (Package.swift turns them off in the project's own targets, but a package
# cannot set a flag for its dependencies). NIO's event loop went through swift_beginAccess about
# 4,300 instructions a layout request (docs/design.md, "Release builds"). Debug builds, which the
# tests run, keep every check.
#
#   scripts/build-release.sh [swift build options…]     e.g. --product layoutd, --show-bin-path
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release -Xswiftc -enforce-exclusivity=unchecked "$@"
