#!/usr/bin/env bash
# Installs the build into a temporary prefix, then configures, builds and
# runs examples/embedding against that prefix alone (find_package(HCQ)), as
# an external project would. A missing install rule fails here.
#
#   scripts/check-install.sh [BUILD_DIR]     (default ./build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${BUILD_DIR:-$root/build}}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -G Ninja -S "$root/examples/embedding" -B "$work/embedding" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
  -DHCQ_DIR="$work/prefix/lib/cmake/hcq" \
  "${launcher[@]}" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/embedding" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/embedding/embed-hcq"
# The installed tools run from the prefix too.
"$work/prefix/bin/hcq-opt" --hcq-pipeline "$root/examples/cpu-chain.mlir" |
  "$work/prefix/bin/hcq-translate" --hcq-to-executable -o "$work/chain.hcqx"
"$work/prefix/bin/hcq-exe-dump" "$work/chain.hcqx" | head -1
# The installed runtime links no LLVM, and its hcq-run runs the example.
"$root/scripts/check-runtime-deps.sh" "$work/prefix/lib/libhcq-runtime.so" \
  "$work/prefix/bin/hcq-run" "$work/prefix/bin/hcq-exe-dump" \
  "$work/prefix/lib/libHCQRuntime.a" \
  "$work/prefix/lib/libHCQBase.a" "$work/prefix/lib/libHCQTargetInfo.a"
LD_LIBRARY_PATH="$build/test/Inputs" "$work/prefix/bin/hcq-run" \
  "$work/chain.hcqx" --arg f32:64:arange --arg f32:64:fill=1 \
  --arg f32:1:fill=0 --arg i32=2 --arg i32=64 | grep -x "arg 2: 4160"
# A program that only runs executables: the C API through the Runtime
# component, with LLVM and MLIR out of reach.
cmake -G Ninja -S "$root/examples/runtime-c" -B "$work/runtime-c" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang-22 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
  -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
  -DHCQ_DIR="$work/prefix/lib/cmake/hcq" > "$work/runtime-c.log" 2>&1 ||
  { cat "$work/runtime-c.log"; exit 1; }
cmake --build "$work/runtime-c" >> "$work/runtime-c.log" 2>&1 ||
  { cat "$work/runtime-c.log"; exit 1; }
"$work/runtime-c/run-chain" "$work/chain.hcqx" "$build/test/Inputs"
# The installed C API library, from Python.
python3 "$root/examples/python/run_cpu_chain.py" \
  "$work/prefix/lib/libhcq-runtime.so" "$work/chain.hcqx" \
  "$build/test/Inputs" | tail -1
