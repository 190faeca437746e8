"""Shared by the compile benchmarks: the generated schedules they compile."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_kernel(build, path):
    """Writes the generator's kernel @k to `path`: the test kernels' gfx1100
    `vadd` (built into BUILD/test/Inputs). The generator launches @k(out,
    a, b); vadd's fourth argument, n, is then left zero, which the encoder
    allows (it pads kernel arguments to the descriptor's size)."""
    code_object = os.path.join(build, "test", "Inputs", "kernels-gfx1100.o")
    with open(path, "w") as f:
        subprocess.run([sys.executable,
                        os.path.join(ROOT, "scripts", "embed-code-object.py"),
                        code_object, "k", "(write f32, read f32, read f32)",
                        "--symbol", "vadd"], stdout=f, check=True)


def write_schedule(path, kernel, calls, shape=None):
    """Writes a generated schedule of `calls` calls (bench/gen_schedule.py,
    of `shape` if given, launching `kernel`'s @k) to `path`, as text."""
    argv = [sys.executable, os.path.join(ROOT, "bench", "gen_schedule.py")]
    if shape:
        argv += ["--shape", shape]
    with open(path, "w") as f:
        subprocess.run(argv + [str(calls), "1", kernel], stdout=f, check=True)
