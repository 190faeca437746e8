#!/usr/bin/env bash
# Runs every test: builds (installing what is missing), then CTest, which
# runs the GoogleTest unit tests and the lit suite; then the same suite under
# ASan+UBSan, each fuzz target for 60 s and the runtime's tests under TSan
# (scripts/test-sanitizers.sh, in build-asan/ and build-tsan/).
#
#   scripts/test.sh            # everything, as CI runs it
#   scripts/test.sh --quick    # the normal build's CTest only
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
quick=0
case ${1:-} in
--quick) quick=1 ;;
"") ;;
*) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
start=$(date +%s)
# Each phase says what it does and when it ends, in seconds from the start.
phase() { echo "== [$(($(date +%s) - start)) s] $*"; }
phase "building everything in $build (scripts/setup.sh)"
"$root/scripts/setup.sh"
phase "unit and lit tests (ctest in $build)"
(cd "$build" && ctest --output-on-failure -j "$(nproc)")
if ((!quick)); then
  phase "sanitizers and fuzzing (scripts/test-sanitizers.sh)"
  "$root/scripts/test-sanitizers.sh"
fi
phase "all passed"
