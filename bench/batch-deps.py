#!/usr/bin/env python3
"""Times hcq-stage-copies and hcq-batch-deps on generated schedules.

Runs hcq-opt with MLIR's pass timing (--mlir-timing) on schedules of 1k, 10k
and 100k calls from gen_schedule.py, keeps the best of 3 runs, and prints the
time per call. Not a test: run it by hand on a quiet machine.

  bench/batch-deps.py [build-dir]
"""
import os
import subprocess
import sys
import tempfile

from passtiming import time_passes

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
opt = os.path.join(build, "bin", "hcq-opt")
passes = ["HCQStageCopies", "HCQBatchDeps"]


def run(path):
    return time_passes(opt, path, ["--hcq-stage-copies", "--hcq-batch-deps"], passes)


print("{:>8} {:>14} {:>14} {:>10} {:>10}".format(
    "calls", "stage-copies", "batch-deps", "us/call", "total s"))
with tempfile.TemporaryDirectory() as tmp:
    for n in (1000, 10000, 100000):
        path = os.path.join(tmp, "s.mlir")
        with open(path, "w") as f:
            subprocess.run([sys.executable,
                            os.path.join(root, "bench", "gen_schedule.py"),
                            str(n)], stdout=f, check=True)
        best = min((run(path) for _ in range(3)), key=lambda r: sum(r[0]))
        (stage, batch), total = best
        print("{:>8} {:>13.4f}s {:>13.4f}s {:>10.2f} {:>10.2f}".format(
            n, stage, batch, (stage + batch) * 1e6 / n, total))
