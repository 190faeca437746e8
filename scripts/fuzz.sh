#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer, ASan+UBSan; fuzz/README.md) into
# $FUZZ_BUILD_DIR (default build-asan) and runs each for SECONDS (default
# 60) from a copy of its seed corpus in fuzz/corpus. Exits non-zero on any
# finding; crash inputs are left in $FUZZ_BUILD_DIR/findings.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]   targets: code-object executable
#                                            pipeline gpu-conversion capi
#                                            (default all)
#
# A target with a dictionary (fuzz/corpus/TARGET.dict) is given it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-asan}
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(code-object executable pipeline gpu-conversion capi)

# The ASan+UBSan build with assertions, with libFuzzer's coverage
# (test-sanitizers.sh shares it: the same options, or each would
# reconfigure it for the other).
mkdir -p "$build"
BUILD_DIR=$build HCQ_TARGETS="${targets[*]/#/hcq-fuzz-}" "$root/scripts/setup.sh" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHCQ_ENABLE_FUZZERS=ON \
  -DHCQ_ENABLE_ASSERTIONS=ON > "$build/setup.log" 2>&1 ||
  { tail -50 "$build/setup.log"; exit 1; }
mkdir -p "$build/findings"
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  cp -n "$root/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
  dict=()
  [ -f "$root/fuzz/corpus/$target.dict" ] && dict=(-dict="$root/fuzz/corpus/$target.dict")
  echo "== hcq-fuzz-$target for ${seconds}s"
  ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0 \
    "$build/bin/hcq-fuzz-$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" \
    -rss_limit_mb=4096 -timeout=10 -max_len=65536 \
    -artifact_prefix="$build/findings/$target-" -print_final_stats=1 \
    2> "$build/findings/$target.log" ||
    { status=1; tail -60 "$build/findings/$target.log"; }
  grep -E "^stat::(number_of_executed_units|average_exec_per_sec)|cov: " \
    "$build/findings/$target.log" | tail -3
done
exit $status
