#!/usr/bin/env bash
# Runs hcq's benchmarks and prints one table (minimum and median of each
# case, with the machine's load before and after, nproc and the commit), and
# writes the same as JSON. What each case measures: bench/README.md.
#
#   scripts/bench.sh                  # everything (about 3 minutes on 2 cores, built)
#   scripts/bench.sh --quick          # no million-call schedules, fewer reps
#   scripts/bench.sh --out FILE       # the JSON file (default bench/results.json)
#   scripts/bench.sh --only replay    # or --only compile
#   scripts/bench.sh --instructions   # also instructions per call (valgrind;
#                                     # minutes more at a million calls)
#   scripts/bench.sh --no-build       # use the build folder as it is
#   BUILD_DIR=out scripts/bench.sh    # build folder (default ./build)
#
# It first builds only what it runs (hcq-opt, hcq-bench-replay and the test
# kernels) with scripts/setup.sh, then runs bench/bench.py:
#   compile: whole `hcq-opt --hcq-pipeline` processes on generated schedules
#     of 10k, 100k and 1M calls (bench/gen_schedule.py), one device and two
#     devices ping-ponging: wall time, pass time (--mlir-timing), peak RSS;
#     with --instructions, each once more under callgrind: instructions a
#     call, which the host's load does not move;
#   replay: hcq-bench-replay at 1 and 1,000 kernels on the CPU device, the
#     emulated AMD device (a CPU emulation, not a GPU) and the C API, timed
#     as submit only (also with the queue's thread pinned to another CPU)
#     and as submit + wait, with Google Benchmark repetitions, and what a
#     futex wake costs on this machine.
# The machine is shared: the load it prints says how far to trust a figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

command="scripts/bench.sh${*:+ $*}"
args=()
build_first=1
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) args+=(--quick) ;;
    --instructions) args+=(--instructions) ;;
    --no-build) build_first=0 ;;
    --out)
      (($# >= 2)) || { echo "bench.sh: --out needs a file" >&2; exit 2; }
      args+=(--out "$(realpath -m "$2")"); shift ;;
    --out=*) args+=(--out "$(realpath -m "${1#--out=}")") ;;
    --only)
      (($# >= 2)) || { echo "bench.sh: --only needs compile or replay" >&2; exit 2; }
      args+=(--only "$2"); shift ;;
    --only=*) args+=(--only "${1#--only=}") ;;
    *) echo "bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if ((build_first)); then
  BUILD_DIR=$build HCQ_TARGETS="hcq-opt hcq-bench-replay hcq-test-inputs" \
    "$root/scripts/setup.sh"
fi
for tool in hcq-opt hcq-bench-replay; do
  [ -x "$build/bin/$tool" ] || {
    echo "bench.sh: no $build/bin/$tool (Google Benchmark missing? see scripts/setup.sh)" >&2
    exit 1
  }
done

exec python3 "$root/bench/bench.py" --build "$build" --command "$command" \
  "${args[@]}"
