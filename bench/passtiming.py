"""Shared by the compile-time benchmarks: one timed hcq-opt run."""
import os
import re
import subprocess
import time


def run_measured(argv):
    """Runs `argv`; returns its stderr, wall seconds and peak RSS in MB (the
    child's own, from wait4)."""
    start = time.perf_counter()
    with subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True) as child:
        stderr = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, argv, None,
                                            stderr)
    return stderr, seconds, usage.ru_maxrss / 1024


def time_passes(opt, path, flags, passes, with_rss=False):
    """Runs `opt path flags --mlir-timing`; returns each of `passes`' wall
    seconds as MLIR's timing report gives them (0 when absent) and the
    whole run's seconds (and, `with_rss`, its peak RSS in MB)."""
    timing, total, rss = run_measured(
        [opt, path] + flags + ["--mlir-timing", "-o", os.devnull])
    seconds = {}
    for line in timing.splitlines():
        m = re.match(r"\s*([0-9.]+) \(.*\)\s+(\S+)$", line)
        if m:
            seconds[m.group(2)] = float(m.group(1))
    times = [seconds.get(p, 0.0) for p in passes]
    return (times, total, rss) if with_rss else (times, total)
