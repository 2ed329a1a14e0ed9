#!/usr/bin/env bash
# Installs what layoutd needs on Debian 12 (the Swift toolchain is assumed): C libraries,
# protoc, the reference tools the tests compare against, and the default fonts.
set -euo pipefail
packages=(
  pkg-config make gcc libfreetype-dev libharfbuzz-dev libharfbuzz-bin libfribidi-dev libpcre2-dev libcairo2-dev libfontconfig-dev libthai-dev libhyphen-dev libicu-dev libmimalloc-dev
  protobuf-compiler libprotobuf-c-dev protobuf-c-compiler python3-protobuf mypy-protobuf python3-pytest python3-venv python3-setuptools
  fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-dejavu-core fonts-urw-base35 fonts-inter-variable
  hyphen-en-us hyphen-en-gb hyphen-de hyphen-fr hyphen-es hyphen-it hyphen-nl hyphen-ru
  systemd unicode-data valgrind golang-go golang-google-protobuf-dev protoc-gen-go fonttools
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: the Swift toolchain is not on PATH" >&2; exit 1; }
# For the tests only (scripts/setup.sh --tests): protolint, the .proto files' lint
# (scripts/lint-proto.sh). Neither it nor buf is packaged for Debian 12; PyPI ships protolint's
# release binary as a wheel. Kept in .build-tools, beside the builds.
tools="$(cd "$(dirname "$0")/.." && pwd)/.build-tools"
if [ "${1:-}" = "--tests" ] && [ ! -x "$tools/venv/bin/protolint" ]; then
  echo "setup: installing protolint into $tools"
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install -q protolint-bin==0.58.0
fi
