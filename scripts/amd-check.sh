#!/usr/bin/env bash
# The bring-up check for a machine with an AMD GPU (docs/runtime.md,
# "Running on a real AMD GPU"): builds hcq-amd-check if it is missing (and
# the executables it runs, with hcq-opt), then runs it on the GPU. It prints
# every step's PASS or FAIL and what it saw, and stops at the first failure
# saying which step failed and why; send the whole output back.
#
#   scripts/amd-check.sh                   # every step on AMD:0
#   scripts/amd-check.sh --gpu=1           # another GPU of the topology
#   scripts/amd-check.sh --steps=1-5       # some steps (names or numbers)
#   scripts/amd-check.sh --timeout-ms=500 --submits=20000
#
# BUILD_DIR picks the build folder (default ./build). Exit status: 0 only
# if every step passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
tool="$build/bin/hcq-amd-check"
if [ ! -x "$tool" ] || [ ! -d "$build/tools/hcq-amd-check/executables" ]; then
  echo "amd-check: building hcq-amd-check in $build" >&2
  BUILD_DIR="$build" HCQ_TARGETS="hcq-amd-check" "$root/scripts/setup.sh" >&2
fi
# What the report should carry besides the tool's lines.
echo "amd-check: $(uname -srm); hcq $(git -C "$root" describe --always --dirty 2>/dev/null || echo "(not a git checkout)")"
exec "$tool" "$@"
