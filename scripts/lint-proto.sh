#!/usr/bin/env bash
# The contract's checks: protolint over proto/ (rules and departures in proto/.protolint.yaml),
# then the breaking-change check against the last released proto (scripts/proto-compat.py).
#   scripts/lint-proto.sh [PROTO_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/proto}
lint=${PROTOLINT:-$root/.build-tools/venv/bin/protolint}
[ -x "$lint" ] || { echo "lint-proto: no protolint at $lint (scripts/setup.sh installs it)" >&2; exit 2; }
"$lint" lint -config_path "$root/proto/.protolint.yaml" "$dir"
echo "protolint: no findings"
/usr/bin/python3 "$root/scripts/proto-compat.py" "$dir"
