#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer, ASan+UBSan; fuzz/README.md) into
# $FUZZ_BUILD_DIR (default build-fuzz) and runs each for SECONDS (default
# 60) from a copy of its seed corpus in fuzz/corpus. Exits non-zero on any
# finding; crash inputs are left in $FUZZ_BUILD_DIR/findings.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]   targets: code-object executable
#                                            pipeline (default all)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(code-object executable pipeline)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DHCQ_ENABLE_FUZZERS=ON "${launcher[@]}" > /dev/null
fi
cmake --build "$build" --target "${targets[@]/#/hcq-fuzz-}"
mkdir -p "$build/findings"
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  cp -n "$root/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
  echo "== hcq-fuzz-$target for ${seconds}s"
  ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0 \
    "$build/bin/hcq-fuzz-$target" "$corpus" -max_total_time="$seconds" \
    -rss_limit_mb=4096 -timeout=10 -max_len=65536 \
    -artifact_prefix="$build/findings/$target-" -print_final_stats=1 \
    2> "$build/findings/$target.log" || status=1
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec)|cov: " \
    "$build/findings/$target.log" | tail -3
done
exit $status
