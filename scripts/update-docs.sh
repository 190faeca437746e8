#!/usr/bin/env bash
# Regenerates docs/reference/ from the ODS files (mlir-tblgen, through the
# build). The docs-up-to-date CTest fails until this is run after a .td change.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake --build "$build" --target hcq-docs
cp "$build"/docs/reference/*.md "$root/docs/reference/"
