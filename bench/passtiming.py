"""Shared by the compile-time benchmarks: one timed hcq-opt run."""
import os
import re
import subprocess
import time


def time_passes(opt, path, flags, passes):
    """Runs `opt path flags --mlir-timing`; returns each of `passes`' wall
    seconds as MLIR's timing report gives them (0 when absent) and the
    whole run's seconds."""
    start = time.perf_counter()
    timing = subprocess.run(
        [opt, path] + flags + ["--mlir-timing", "-o", os.devnull],
        check=True, capture_output=True, text=True).stderr
    total = time.perf_counter() - start
    seconds = {}
    for line in timing.splitlines():
        m = re.match(r"\s*([0-9.]+) \(.*\)\s+(\S+)$", line)
        if m:
            seconds[m.group(2)] = float(m.group(1))
    return [seconds.get(p, 0.0) for p in passes], total
