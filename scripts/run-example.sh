#!/usr/bin/env bash
# Runs the main job on the bundled example schedule: the whole --hcq-pipeline,
# printing the IR after every stage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
[ -x "$build/bin/hcq-opt" ] || "$root/scripts/setup.sh"
exec "$build/bin/hcq-opt" --hcq-pipeline --mlir-print-ir-after-all "${1:-$root/examples/mlp.mlir}"
