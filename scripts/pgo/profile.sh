#!/usr/bin/env bash
# A profile for a profile-guided release build of layoutd (scripts/build-release.sh --pgo): builds
# an instrumented layoutd and layoutctl (LLVM's IR-level counters, in .build-pgo/generate), has
# scripts/pgo/train.py drive the daemon over texts.txt, and merges the counts it writes into OUT
# with the toolchain's llvm-profdata (Debian's is older and cannot read them).
#
#   scripts/pgo/profile.sh OUT.profdata
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: scripts/pgo/profile.sh OUT.profdata}
toolchain=$(dirname "$(readlink -f "$(command -v swiftc)")")
profdata="$toolchain/llvm-profdata"
runtime=$(ls "$toolchain"/../lib/clang/*/lib/linux/libclang_rt.profile-"$(uname -m)".a 2>/dev/null | head -1)
[ -x "$profdata" ] && [ -n "$runtime" ] || { echo "pgo: the Swift toolchain has no llvm-profdata or profile runtime" >&2; exit 1; }
scratch=.build-pgo/generate
# The plain release build's flags (build-release.sh), as the guided build compiles with them and a
# function compiled otherwise would not match its counts. -ir-profile-generate is a frontend flag
# (the driver drops it); the runtime is linked by hand, and LLVM_PROFILE_FILE (train.py sets it)
# says where the counts go. Debian's python3 trains, as the Python client's modules need its
# protobuf (another python3 may come first on PATH).
for product in layoutd layoutctl; do
  scripts/build-release.sh --scratch-path "$scratch" -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate=default.profraw \
    -Xlinker "$runtime" -Xlinker -u__llvm_profile_runtime --product "$product" >&2
done
counts=$(mktemp -d)
trap 'rm -rf "$counts"' EXIT
/usr/bin/python3 scripts/pgo/train.py --daemon "$scratch/release/layoutd" --layoutctl "$scratch/release/layoutctl" --profiles "$counts"
ls "$counts"/*.profraw >/dev/null 2>&1 || { echo "pgo: the training run wrote no counts" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
"$profdata" merge -o "$out" "$counts"/*.profraw
# A build whose flags lost the instrumentation still links the runtime, which writes a profile of
# no function: a guided build from it would be a plain one that says otherwise.
functions=$("$profdata" show "$out" | sed -n 's/^Total functions: //p')
[ "${functions:-0}" -gt 1000 ] || { echo "pgo: the profile counts ${functions:-no} functions: the build was not instrumented" >&2; exit 1; }
