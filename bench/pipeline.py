#!/usr/bin/env python3
"""Times every stage of hcq-opt --hcq-pipeline on generated schedules.

Like batch-deps.py, but through the whole pipeline, so the encoder needs a
real code object: the generator's kernel @k is the test kernels' `vadd`
(built into build/test/Inputs by the build), launched with three buffers.
Best of 3 runs at every size (single runs of a million calls differed by
a third on a noisy machine); prints each pass's seconds, the
microseconds of pass time per call, the whole run's seconds and its peak
RSS. Then 8 calls end to end: the wall time of a plain `hcq-opt
--hcq-pipeline` run (no timing report), best and median of 30, which is
mostly the process starting.

A pass's time includes MLIR's verification of the IR it leaves, as
`hcq-opt` runs it by default. `--no-verify` passes `--verify-each=0` to see
the passes' own work (an embedding compiler may verify only at the end).

  bench/pipeline.py [build-dir] [--no-million] [--no-verify]
"""
import os
import sys
import tempfile

from passtiming import run_measured, time_passes
from schedules import write_kernel, write_schedule

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
million = "--no-million" not in sys.argv[1:]
verify = [] if "--no-verify" not in sys.argv[1:] else ["--verify-each=0"]
build = args[0] if args else os.path.join(root, "build")
opt = os.path.join(build, "bin", "hcq-opt")
passes = ["HCQStageCopies", "HCQAttachTargets", "HCQMaterializeBuiltins",
          "HCQBatchDeps", "HCQEncode", "HCQSeal", "HCQLowerSubmit",
          "HCQBuildExecutable"]


def run(path):
    return time_passes(opt, path, ["--hcq-pipeline"] + verify, passes,
                       with_rss=True)


with tempfile.TemporaryDirectory() as tmp:
    kernel = os.path.join(tmp, "kernel.mlir")
    write_kernel(build, kernel)
    print("{:>8} ".format("calls") +
          " ".join("{:>12}".format(p[3:15]) for p in passes) +
          " {:>9} {:>9} {:>8}".format("us/call", "total s", "peak MB"))
    for n in (1000, 10000, 100000) + ((1000000,) if million else ()):
        path = os.path.join(tmp, "s.mlir")
        write_schedule(path, kernel, n)
        best = min((run(path) for _ in range(3)), key=lambda r: sum(r[0]))
        times, total, rss = best
        print("{:>8} ".format(n) +
              " ".join("{:>11.4f}s".format(t) for t in times) +
              " {:>9.2f} {:>9.2f} {:>8.0f}".format(sum(times) * 1e6 / n,
                                                   total, rss), flush=True)

    path = os.path.join(tmp, "s8.mlir")
    write_schedule(path, kernel, 8)
    walls = sorted(run_measured([opt, path, "--hcq-pipeline", "-o",
                                 os.devnull])[1] for _ in range(30))
    print("8 calls end to end: best {:.1f} ms, median {:.1f} ms (30 runs)"
          .format(walls[0] * 1e3, walls[len(walls) // 2] * 1e3))
