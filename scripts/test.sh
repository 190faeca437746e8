#!/usr/bin/env bash
# Runs every test: builds (installing what is missing), then CTest, which runs
# the GoogleTest unit tests and the lit suite.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
