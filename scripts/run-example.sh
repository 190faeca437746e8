#!/usr/bin/env bash
# Runs the main job on a bundled example. It builds what is missing first.
#
#   scripts/run-example.sh              both examples end to end:
#                                       examples/cpu-chain.mlir through
#                                       --hcq-pipeline into an executable
#                                       file (hcq-translate), run by hcq-run
#                                       on CPU:0; then
#                                       examples/mlp.mlir on two emulated
#                                       AMD GPUs (--amd=emulated), its kernels'
#                                       host object their CPU twin (no twin
#                                       library: nothing hand-written)
#   scripts/run-example.sh --print-ir [FILE]
#                                       the IR after every --hcq-pipeline
#                                       stage (default examples/mlp.mlir, two
#                                       AMD GPUs: PM4, SDMA and CPU words)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
start=$(date +%s)
# Each phase says what it does and when it ends, in seconds from the start.
phase() { echo "== [$(($(date +%s) - start)) s] $*"; }

if [ "${1:-}" = "--print-ir" ]; then
  phase "building hcq-opt (scripts/setup.sh)"
  HCQ_TARGETS="hcq-opt" "$root/scripts/setup.sh"
  exec "$build/bin/hcq-opt" --hcq-pipeline --mlir-print-ir-after-all \
    --mlir-elide-resource-strings-if-larger=64 \
    "${2:-$root/examples/mlp.mlir}"
fi

# Only what the examples need: the compiler's translation to an executable
# file (hcq-translate: the passes without upstream's code generators, which
# only hcq-opt links), the runner, the dump tool and cpu-chain's CPU kernels
# (the MLP's kernels bring their host code in examples/mlp.mlir; the full build, tests and benchmarks included, is scripts/setup.sh
# alone). Ninja rebuilds only what changed.
phase "building hcq-translate, hcq-run, hcq-exe-dump and the example kernels" \
  "(scripts/setup.sh; one to two minutes the first time on 2 cores)"
HCQ_TARGETS="hcq-translate hcq-run hcq-exe-dump hcqtestkernels" "$root/scripts/setup.sh"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
phase "compiling examples/cpu-chain.mlir (hcq-translate --hcq-to-executable)"
"$build/bin/hcq-translate" --hcq-to-executable "$root/examples/cpu-chain.mlir" \
  -o "$out/chain.hcqx"
"$build/bin/hcq-exe-dump" "$out/chain.hcqx" | grep -E "^(executable|values) "
phase "running it on CPU:0 (hcq-run)"
echo "sum((a + b) * s) with a = 0..63, b = 1, s = 2 (expected 4160), 1000 runs:"
LD_LIBRARY_PATH="$build/test/Inputs" "$build/bin/hcq-run" "$out/chain.hcqx" \
  --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 \
  --arg i32=2 --arg i32=64 --runs 1000 2>&1 | tee "$out/chain.txt"
grep -q "^arg 2: 4160$" "$out/chain.txt" || { echo "unexpected result" >&2; exit 1; }

echo
phase "compiling examples/mlp.mlir (hcq-translate --hcq-to-executable)"
"$build/bin/hcq-translate" --hcq-to-executable "$root/examples/mlp.mlir" \
  -o "$out/mlp.hcqx"
"$build/bin/hcq-exe-dump" "$out/mlp.hcqx" | grep -E "^(executable|values) "
phase "running it on two emulated AMD GPUs (hcq-run --amd=emulated)"
echo "relu(x @ w1) @ w2 on two emulated AMD GPUs, x = 0..255 (row 0: 0..63),"
echo "w1 = 0.5, w2 = -0.25 (expected -16128 across row 0), 1000 runs:"
"$build/bin/hcq-run" "$out/mlp.hcqx" --amd=emulated \
  --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 \
  --arg f32:256:fill=0 --runs 1000 2>&1 | tee "$out/mlp.txt"
grep -q "^arg 3: -16128 -16128" "$out/mlp.txt" || { echo "unexpected result" >&2; exit 1; }
phase "done"
