#!/usr/bin/env bash
# The tests under sanitizers, as CI runs them after the normal suite
# (scripts/test.sh), both builds with assertions on (HCQ_ENABLE_ASSERTIONS:
# a broken invariant stops the run even where no sanitizer would see it).
# The ASan build, which the fuzzers share (scripts/fuzz.sh configures it
# the same way), has had them since a campaign of 8 minutes a fuzz target
# with them came out clean (fuzz/README.md).
# Each stage fails the script on any finding:
#  1. ASan+UBSan (with libFuzzer's coverage) in $ASAN_BUILD_DIR (default
#     build-asan): the whole CTest suite, unit and lit tests;
#  2. every fuzz target for $FUZZ_SECONDS (default 60) from its seed corpus,
#     in the same build (scripts/fuzz.sh);
#  3. TSan in $TSAN_BUILD_DIR (default build-tsan): the runtime's unit tests
#     (devices, queues, executables shared between threads).
#
#   scripts/test-sanitizers.sh [asan|fuzz|tsan ...]   (default: all three)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
asan=${ASAN_BUILD_DIR:-$root/build-asan}
tsan=${TSAN_BUILD_DIR:-$root/build-tsan}
stages=("$@")
((${#stages[@]})) || stages=(asan fuzz tsan)

# allow_user_poisoning=0: LLVM's headers poison allocator memory that the
# uninstrumented libLLVM then touches. The suppressed leaks are the two tests
# that leave a queue stuck in a kernel running on purpose (docs/runtime.md).
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

declare -A what=([asan]="ASan+UBSan build and the whole suite in $asan"
  [fuzz]="each fuzz target for ${FUZZ_SECONDS:-60} s" [tsan]="TSan build and the runtime's tests in $tsan")
for stage in "${stages[@]}"; do
  start=$(date +%s)
  echo "== [$stage] ${what[$stage]:-}"
  case $stage in
  asan)
    mkdir -p "$asan"
    BUILD_DIR=$asan "$root/scripts/setup.sh" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DHCQ_ENABLE_FUZZERS=ON -DHCQ_ENABLE_ASSERTIONS=ON > "$asan/setup.log" 2>&1 ||
      { tail -50 "$asan/setup.log"; exit 1; }
    # The embedding check builds an uninstrumented program against the
    # installed (instrumented) libraries, and the Python example loads the
    # instrumented C API library into an uninstrumented python3 (ASan must
    # come first in a process): they run in the normal suite only. The C
    # test drives the same library from an instrumented program here.
    (cd "$asan" && ctest --output-on-failure -j "$(nproc)" \
      -E '^(install-and-embed|capi-python-example)$')
    ;;
  fuzz)
    FUZZ_BUILD_DIR=$asan "$root/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"
    ;;
  tsan)
    mkdir -p "$tsan"
    BUILD_DIR=$tsan HCQ_TARGETS="hcq-unittests hcq-compiler-unittests" \
      "$root/scripts/setup.sh" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DHCQ_ENABLE_ASSERTIONS=ON -DHCQ_SANITIZER=thread > "$tsan/setup.log" 2>&1 ||
      { tail -50 "$tsan/setup.log"; exit 1; }
    "$tsan/bin/hcq-unittests" --gtest_brief=1
    # The runtime's tests; the compile cache's use MLIR's thread pool, whose
    # synchronisation lives in the uninstrumented libMLIR.
    "$tsan/bin/hcq-compiler-unittests" --gtest_brief=1 \
      --gtest_filter='-CompileCache*'
    ;;
  *)
    echo "test-sanitizers: unknown stage '$stage' (asan, fuzz, tsan)" >&2
    exit 2
    ;;
  esac
  echo "== [$stage] done in $(($(date +%s) - start)) s"
done
