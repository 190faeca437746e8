#!/usr/bin/env python3
"""Runs hcq's benchmarks and prints one table: minimum and median of each
case, with the machine's load and the commit. scripts/bench.sh builds what
it needs and runs this; bench/README.md says what each case measures.

  bench/bench.py [--build DIR] [--quick] [--out FILE] [--only PART]
                 [--instructions]
  bench/bench.py --self-test

Compile: generated schedules (bench/gen_schedule.py, the test kernels'
gfx1100 `vadd` as kernel @k) of 10,000, 100,000 and 1,000,000 calls, on one
device and on two devices ping-ponging, each compiled by a whole
`hcq-opt --hcq-pipeline --mlir-timing` process: its wall time, its peak RSS
(the child's own, from wait4) and its pass time (MLIR's timing report: the
passes, without parsing and printing). Repetitions: 5, 5 and 2.

Replay: hcq-bench-replay (bench/replay.cpp) at 1 and 1,000 kernels on the
CPU device, the emulated AMD device (a CPU emulation) and the CPU device
through the C API, timed as submit only, as submit only with the queue's
thread on another CPU (not the C API) and as submit and wait, plus the
machine's futex wake (threads apart, and on any CPU); 10 Google Benchmark
repetitions of at least 0.1 s of timed region each (0.02 s on the emulated
AMD device). A repetition's figure is Google Benchmark's mean over its
iterations; the table gives the minimum and median over repetitions, and
the median of the `wakes_per_run` counter (how many times a run woke a
sleeping queue thread).

Instructions (--instructions, compile only; valgrind): each compile case
once more, bytecode in, under callgrind: the whole process's instructions
over its calls. Unlike time, the count does not move with the host's
load, so it shows whether the cost per call stays flat from 10,000 to
1,000,000 calls; a million calls take minutes.

--quick: no million-call schedules, 3 and 2 compile repetitions, 3 replay
repetitions of at least 0.02 s. --out: the JSON file (default
bench/results.json). --only compile|replay: one part. --self-test: checks
the table and JSON writers and the parsers on canned input (times nothing).

Python 3 standard library only.
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schedules  # noqa: E402
from passtiming import run_measured  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA = "hcq-bench/1"

COMPILE_SHAPES = (
    ("one-device", "AMD:0 alone: kernels on random buffers, every 8th call "
     "a copy (on the device, from or to the host)"),
    ("ping-pong", "AMD:0 and AMD:1 taking turns, every call depending on "
     "the other device's last (a copy, then a kernel reading it)"),
)
REPLAY_CASES = (
    # (Google Benchmark name without the kernel count, what it times)
    ("replay_submit/cpu", "run() only, CPU device; device drained before, "
     "so the push usually wakes the queue's sleeping thread"),
    ("replay_submit_apart/cpu", "replay_submit/cpu with the queue's thread "
     "pinned to another CPU than the timed thread"),
    ("replay_submit_wait/cpu", "run() + synchronize(), CPU device: until "
     "the device executed the run"),
    ("replay_submit/amd_emulated", "run() only, emulated AMD device (CPU "
     "emulation); the push wakes the command processor thread"),
    ("replay_submit_apart/amd_emulated", "replay_submit/amd_emulated with "
     "the command processor thread pinned to another CPU than the timed "
     "thread"),
    ("replay_submit_wait/amd_emulated", "run() + synchronize(), emulated "
     "AMD device: until its command processor thread executed the run"),
    ("replay_submit/capi_cpu", "replay_submit/cpu through the C API "
     "(hcq_executable_run)"),
    ("replay_submit_wait/capi_cpu", "replay_submit_wait/cpu through the C "
     "API (hcq_executable_run + hcq_executable_synchronize)"),
)
MACHINE_CASES = (
    ("machine/futex_wake", "no hcq code: the waker's time to wake a thread "
     "asleep on a futex on another CPU (what a push to a sleeping queue "
     "thread pays)"),
    ("machine/futex_wake_any_cpu", "machine/futex_wake with the threads on "
     "any CPU; the note is the share of wakes where the woken thread ran on "
     "the waker's CPU before FUTEX_WAKE returned"),
)
KERNELS = (1, 1000)


def read_loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def machine():
    """What the figures ran on."""
    info = {"nproc": os.cpu_count(), "kernel": platform.release()}
    try:
        with open("/proc/cpuinfo") as f:
            cpuinfo = f.read()
        m = re.search(r"^model name\s*:\s*(.*)$", cpuinfo, re.M)
        info["cpu"] = m.group(1).strip() if m else platform.machine()
        flags = re.search(r"^flags\s*:\s*(.*)$", cpuinfo, re.M)
        info["virtual_machine"] = bool(flags and
                                       "hypervisor" in flags.group(1).split())
    except OSError:
        info["cpu"] = platform.machine()
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"^MemTotal:\s*(\d+) kB", f.read(), re.M)
        if m:
            info["memory_gib"] = round(int(m.group(1)) / 2**20, 1)
    except OSError:
        pass
    return info


def commit():
    """The short commit and whether tracked files differ from it."""
    def git(*args):
        return subprocess.run(["git", "--no-optional-locks", "-C", ROOT] +
                              list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    head = git("rev-parse", "--short", "HEAD")
    if head.returncode:
        return {"commit": "unknown", "dirty": None}
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": head.stdout.strip(),
            "dirty": bool(status.stdout.strip())}


def progress(*what):
    print(*what, file=sys.stderr, flush=True)


# --- Compile ---------------------------------------------------------------

# What MLIR's timing report lists beside the passes.
NOT_PASSES = ("Parser", "Output", "Rest", "Total")
# A pipeline a pass runs itself (hcq-compile-schedules' nested schedule
# stages) is reported beside that pass, at the top level, though its time is
# the pass's own: counted once, as the pass.
DYNAMIC_PIPELINE = re.compile(r"^'[^']*' Pipeline$")


def pass_seconds(report):
    """The passes' wall seconds in an `--mlir-timing` report: its top-level
    timers (a nested pipeline counts once, as its collection) but parsing,
    printing, the rest and the total."""
    total = 0.0
    found = False
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+) \(\s*[0-9.]+%\)  (\S.*?)\s*$", line)
        if not m:
            continue
        name = m.group(2)
        if name in NOT_PASSES or DYNAMIC_PIPELINE.match(name):
            continue
        total += float(m.group(1))
        found = True
    if not found:
        raise ValueError("no pass in the timing report:\n" + report)
    return total


def write_kernel(build, tmp):
    """The generator's kernel @k, in a file in `tmp`; returns its path."""
    kernel = os.path.join(tmp, "kernel.mlir")
    schedules.write_kernel(build, kernel)
    return kernel


def compile_part(build, quick, instructions=False):
    """The compile rows, then, with `instructions`, a row of instructions
    per call for each case (counted on the bytecode the case's timing ran
    on)."""
    opt = os.path.join(build, "bin", "hcq-opt")
    sizes = ((10000, 3), (100000, 2)) if quick else \
        ((10000, 5), (100000, 5), (1000000, 2))
    rows, instruction_rows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        kernel = write_kernel(build, tmp)
        stripped = stripped_copy(opt, tmp) if instructions else None
        for shape, what in COMPILE_SHAPES:
            for calls, reps in sizes:
                path = os.path.join(tmp, "s.mlir")
                schedules.write_schedule(path, kernel, calls, shape)
                walls, passes, rss = [], [], []
                for rep in range(reps):
                    report, wall, peak = run_measured(
                        [opt, path, "--hcq-pipeline", "--mlir-timing", "-o",
                         os.devnull])
                    walls.append(wall)
                    passes.append(pass_seconds(report))
                    rss.append(peak)
                    progress("compile/{}/{}: {:.2f} s, passes {:.2f} s, "
                             "{:.0f} MB ({}/{})".format(
                                 shape, calls, wall, passes[-1], peak,
                                 rep + 1, reps))
                # The same schedule as MLIR bytecode (converted untimed),
                # as a compiler embedding hcq would hand it over.
                bytecode = os.path.join(tmp, "s.mlirbc")
                subprocess.run([opt, path, "--emit-bytecode", "-o", bytecode],
                               check=True)
                os.remove(path)
                bc_walls, bc_rss = [], []
                for rep in range(reps):
                    _, wall, peak = run_measured(
                        [opt, bytecode, "--hcq-pipeline", "-o", os.devnull])
                    bc_walls.append(wall)
                    bc_rss.append(peak)
                    progress("compile/{}/{} bytecode in: {:.2f} s, {:.0f} MB "
                             "({}/{})".format(shape, calls, wall, peak,
                                              rep + 1, reps))
                if stripped:
                    instruction_rows.append(instructions_row(
                        stripped, bytecode, shape, calls, what))
                os.remove(bytecode)
                name = "compile/{}/{}".format(shape, calls)
                common = "whole `hcq-opt --hcq-pipeline` process, " + what
                rows.append(row(name + " wall", walls, "s",
                                common + ": wall time"))
                rows.append(row(name + " passes", passes, "s",
                                common + ": pass time (--mlir-timing)"))
                rows.append(row(name + " peak RSS", rss, "MB",
                                common + ": peak RSS"))
                rows.append(row(name + " wall, bytecode in", bc_walls, "s",
                                common + ", its input MLIR bytecode: wall "
                                "time"))
                rows.append(row(name + " peak RSS, bytecode in", bc_rss, "MB",
                                common + ", its input MLIR bytecode: peak "
                                "RSS"))
    return rows + instruction_rows


def stripped_copy(opt, directory):
    """A copy of hcq-opt in `directory` without debug information, for
    callgrind: valgrind 3.19 cannot read the DWARF 5 of LLVM 22's
    libraries."""
    for tool in ("valgrind", "strip"):
        if not shutil.which(tool):
            raise RuntimeError("--instructions needs {} (Debian: apt-get "
                               "install {})".format(
                                   tool, "binutils" if tool == "strip"
                                   else tool))
    stripped = os.path.join(directory, "hcq-opt-stripped")
    subprocess.run(["strip", "-g", opt, "-o", stripped], check=True)
    return stripped


def instructions_row(stripped, bytecode, shape, calls, what):
    """Instructions per call of one whole `hcq-opt --hcq-pipeline` process
    on `bytecode`, counted by valgrind's callgrind: one run, since the count
    does not move with the host's load as time does. Its profile is not
    kept (the count is in valgrind's summary)."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + os.devnull,
         stripped, bytecode, "--hcq-pipeline", "-o", os.devnull],
        stderr=subprocess.PIPE, universal_newlines=True)
    if run.returncode != 0:
        raise RuntimeError("valgrind failed:\n" + run.stderr)
    count = parse_callgrind_total(run.stderr)
    per_call = count / calls
    progress("instructions/{}/{}: {:,} ({:,.0f} a call)".format(
        shape, calls, count, per_call))
    return row("compile/{}/{} instructions per call".format(shape, calls),
               [per_call], "inst",
               "whole `hcq-opt --hcq-pipeline` process, its input MLIR "
               "bytecode, " + what + ": instructions (callgrind) over calls")


def parse_callgrind_total(stderr):
    """The program's instruction count from valgrind's summary line
    (`==pid== I   refs:      2,808,171,814`)."""
    match = re.search(r"I\s+refs:\s+([0-9,]+)", stderr)
    if not match:
        raise ValueError("no instruction count in valgrind's output:\n" +
                         stderr)
    return int(match.group(1).replace(",", ""))


# --- Replay ----------------------------------------------------------------

TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def parse_google_benchmark(document):
    """Google Benchmark's JSON output as {run name: {"seconds": [per
    repetition], "wakes": [...], "took": [...], "label": str}}, from its
    per-repetition entries (aggregates are left out)."""
    runs = {}
    for b in document.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        # A case's own minimum time is part of its name ("/min_time:0.020").
        name = re.sub(r"/min_time:[0-9.]+", "", b.get("run_name", b["name"]))
        run = runs.setdefault(name, {"seconds": [], "wakes": [], "took": [],
                                     "label": b.get("label", "")})
        run["seconds"].append(b["real_time"] * TIME_UNITS[b["time_unit"]])
        if "wakes_per_run" in b:
            run["wakes"].append(b["wakes_per_run"])
        if "wakee_took_cpu" in b:
            run["took"].append(b["wakee_took_cpu"])
    return runs


def replay_filter():
    cases = "|".join(re.escape(c) for c, _ in REPLAY_CASES)
    machine_cases = "|".join(re.escape(c) for c, _ in MACHINE_CASES)
    kernels = "|".join(str(k) for k in KERNELS)
    return "^(({})/({})/|{})".format(cases, kernels, machine_cases)


def replay_part(build, quick):
    binary = os.path.join(build, "bin", "hcq-bench-replay")
    reps = 3 if quick else 10
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "replay.json")
        argv = [binary, "--benchmark_filter=" + replay_filter(),
                "--benchmark_repetitions={}".format(reps),
                "--benchmark_display_aggregates_only=true",
                "--benchmark_out=" + out, "--benchmark_out_format=json"]
        # Seconds of timed region per repetition (the emulated AMD cases set
        # 0.02 s of their own).
        argv.append("--benchmark_min_time={}".format(0.02 if quick else 0.1))
        progress("replay: " + " ".join(argv))
        # Its console table goes to stderr, as progress.
        subprocess.run(argv, stdout=sys.stderr, check=True)
        with open(out) as f:
            document = json.load(f)
    runs = parse_google_benchmark(document)
    rows = []
    for case, what in REPLAY_CASES:
        for kernels in KERNELS:
            name = "{}/{}".format(case, kernels)
            run = runs.get(name + "/manual_time")
            if run is None:
                raise SystemExit("bench: hcq-bench-replay ran no " + name)
            wakes = run["wakes"]
            note = "wakes/run {:.2f}".format(statistics.median(wakes)) \
                if wakes else ""
            rows.append(row(name, [s * 1e6 for s in run["seconds"]], "us",
                            what, note=note, wakes=wakes))
            if kernels > 1:
                rows.append(row(name + " per kernel",
                                [s * 1e9 / kernels for s in run["seconds"]],
                                "ns", what + "; the run's time / kernels"))
    for case, what in MACHINE_CASES:
        run = runs.get(case + "/manual_time")
        if run is None:
            raise SystemExit("bench: hcq-bench-replay ran no " + case)
        took = run["took"]
        note = "wakee took CPU {:.0f}%".format(
            100 * statistics.median(took)) if took and "any_cpu" in case \
            else ""
        rows.append(row(case, [s * 1e6 for s in run["seconds"]], "us", what,
                        note=note))
    return rows, document.get("context", {})


# --- Table and JSON --------------------------------------------------------

def row(case, values, unit, what, note="", wakes=None):
    r = {"case": case, "min": min(values),
         "median": statistics.median(values), "unit": unit,
         "repetitions": len(values), "values": values, "what": what}
    if note:
        r["note"] = note
    if wakes:
        r["wakes_per_run"] = wakes
    return r


def number(x):
    """A figure to three significant digits, without exponent."""
    if x == 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(abs(x))))
    return "{:,.{}f}".format(x, digits)


def table(document):
    """The document as the printed table: a header with the commit, the
    machine and its load, then one line per case."""
    m = document["machine"]
    load = document["load"]
    lines = [
        "hcq benchmarks, commit {}{}, {}".format(
            document["commit"], " (dirty)" if document["dirty"] else "",
            document["date"]),
        "machine: {} CPUs (nproc), {}{}, {} GiB, Linux {}".format(
            m.get("nproc"), m.get("cpu", "?"),
            ", virtual machine" if m.get("virtual_machine") else "",
            m.get("memory_gib", "?"), m.get("kernel", "?")),
        "load average (1, 5, 15 min): " + "; ".join(
            "{} {}".format(when, " ".join("{:.2f}".format(x) for x in v))
            for when, v in load.items()),
        "command: " + document["command"],
        "",
    ]
    width = max([len("case")] + [len(r["case"]) for r in document["results"]])
    header = "{:<{w}}  {:>10}  {:>10}  {:<4}  {:>4}  {}".format(
        "case", "min", "median", "unit", "reps", "note", w=width)
    lines += [header.rstrip(), "-" * len(header.rstrip())]
    for r in document["results"]:
        lines.append("{:<{w}}  {:>10}  {:>10}  {:<4}  {:>4}  {}".format(
            r["case"], number(r["min"]), number(r["median"]), r["unit"],
            r["repetitions"], r.get("note", ""), w=width).rstrip())
    return "\n".join(lines)


def check_document(document):
    """Raises ValueError unless `document` has the JSON's shape."""
    for key, kind in (("schema", str), ("commit", str), ("date", str),
                      ("command", str), ("machine", dict), ("load", dict),
                      ("results", list)):
        if not isinstance(document.get(key), kind):
            raise ValueError("JSON: '{}' missing or not a {}".format(
                key, kind.__name__))
    if document["schema"] != SCHEMA:
        raise ValueError("JSON: schema " + document["schema"])
    if "before" not in document["load"] or "after" not in document["load"]:
        raise ValueError("JSON: load before and after")
    for r in document["results"]:
        for key, kind in (("case", str), ("unit", str), ("repetitions", int),
                          ("values", list), ("what", str)):
            if not isinstance(r.get(key), kind):
                raise ValueError("JSON: result {} has no {}".format(
                    r.get("case"), key))
        if len(r["values"]) != r["repetitions"] or not r["values"]:
            raise ValueError("JSON: {}: repetitions".format(r["case"]))
        if r["min"] != min(r["values"]) or \
                r["median"] != statistics.median(r["values"]):
            raise ValueError("JSON: {}: min or median".format(r["case"]))


def write_json(document, path):
    check_document(document)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    with open(path, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")


# --- Self-test -------------------------------------------------------------

TIMING_SAMPLE = """\
===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 1.5000 seconds

  ----Wall Time----  ----Name----
    0.4000 ( 26.7%)  Parser
    0.2000 ( 13.3%)  HCQStageCopies
    0.3000 ( 20.0%)  Pipeline Collection : ['builtin.module', 'hcq.schedule']
    0.3000 ( 20.0%)    'hcq.schedule' Pipeline
    0.2000 ( 13.3%)      HCQBatchDeps
    0.1000 (  6.7%)      HCQEncode
    0.3000 ( 20.0%)  Output
    0.3000 ( 20.0%)  Rest
    1.5000 (100.0%)  Total
"""

# The same passes run by hcq-compile-schedules: MLIR lists its own pipeline
# beside it, and the rest goes negative.
DYNAMIC_TIMING_SAMPLE = """\
  ----Wall Time----  ----Name----
    0.4000 ( 26.7%)  Parser
    0.2000 ( 13.3%)  HCQStageCopies
    0.3000 ( 20.0%)  HCQCompileSchedules
    0.3000 ( 20.0%)  'builtin.module' Pipeline
    0.3000 ( 20.0%)    'hcq.schedule' Pipeline
    0.2000 ( 13.3%)      HCQBatchDeps
    0.1000 (  6.7%)      HCQEncode
    0.3000 ( 20.0%)  Output
   -0.3000 (-20.0%)  Rest
    1.5000 (100.0%)  Total
"""

GOOGLE_BENCHMARK_SAMPLE = {
    "context": {"num_cpus": 2, "load_avg": [0.5, 0.4, 0.3]},
    "benchmarks": [
        {"name": "replay_submit/cpu/1/manual_time",
         "run_name": "replay_submit/cpu/1/manual_time",
         "run_type": "iteration", "repetitions": 2, "repetition_index": 0,
         "real_time": 7.5, "time_unit": "us", "wakes_per_run": 1.0,
         "label": "run() only"},
        {"name": "replay_submit/cpu/1/manual_time",
         "run_name": "replay_submit/cpu/1/manual_time",
         "run_type": "iteration", "repetitions": 2, "repetition_index": 1,
         "real_time": 7200.0, "time_unit": "ns", "wakes_per_run": 0.5,
         "label": "run() only"},
        {"name": "machine/futex_wake/min_time:0.050/manual_time",
         "run_name": "machine/futex_wake/min_time:0.050/manual_time",
         "run_type": "iteration", "real_time": 3.0, "time_unit": "us"},
        {"name": "replay_submit/cpu/1/manual_time_median",
         "run_name": "replay_submit/cpu/1/manual_time",
         "run_type": "aggregate", "aggregate_name": "median",
         "real_time": 7.35, "time_unit": "us"},
    ],
}


def self_test():
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    expect("pass_seconds sums the top-level passes only",
           abs(pass_seconds(TIMING_SAMPLE) - 0.5) < 1e-9)
    expect("pass_seconds counts a pass's own pipeline once",
           abs(pass_seconds(DYNAMIC_TIMING_SAMPLE) - 0.5) < 1e-9)
    try:
        pass_seconds("no report")
        expect("pass_seconds refuses a report without passes", False)
    except ValueError:
        pass
    expect("callgrind's instruction count read",
           parse_callgrind_total("==12== Collected : 5\n==12== \n"
                                 "==12== I   refs:      2,808,171,814\n")
           == 2808171814)
    try:
        parse_callgrind_total("==12== Valgrind: I can't recover.\n")
        expect("a valgrind output without a count is refused", False)
    except ValueError:
        pass
    runs = parse_google_benchmark(GOOGLE_BENCHMARK_SAMPLE)
    run = runs.get("replay_submit/cpu/1/manual_time", {})
    expect("Google Benchmark repetitions read, aggregates left out",
           [round(s * 1e9) for s in run.get("seconds", [])] == [7500, 7200])
    expect("wakes read", run.get("wakes") == [1.0, 0.5])
    expect("a case's minimum time left out of its name",
           runs.get("machine/futex_wake/manual_time", {}).get("seconds") ==
           [3e-6])
    expect("the filter names every case",
           all(re.search(replay_filter(), name) for name in
               ("replay_submit/cpu/1/manual_time",
                "replay_submit_apart/amd_emulated/1/min_time:0.020/"
                "manual_time",
                "replay_submit_wait/amd_emulated/1000/manual_time",
                "replay_submit/capi_cpu/1000/manual_time",
                "machine/futex_wake/manual_time",
                "machine/futex_wake_any_cpu/min_time:0.050/manual_time")) and
           not any(re.search(replay_filter(), name) for name in
                   ("replay_submit/cpu/10/manual_time",
                    "replay_submit/cpu/100/manual_time",
                    "pingpong_submit/cpu/1/manual_time")))
    expect("numbers to three digits",
           [number(x) for x in (7.234, 20.51, 0.01234, 1234.5)] ==
           ["7.23", "20.5", "0.0123", "1,234"])
    document = {
        "schema": SCHEMA, "commit": "abc1234", "dirty": False,
        "date": "2026-01-01T00:00:00Z", "command": "scripts/bench.sh",
        "machine": {"nproc": 2, "cpu": "test", "kernel": "6"},
        "load": {"before": [0.1, 0.2, 0.3], "after": [0.4, 0.5, 0.6]},
        "results": [row("replay_submit/cpu/1",
                        [s * 1e6 for s in run["seconds"]], "us", "run()",
                        note="wakes/run 0.75", wakes=run["wakes"]),
                    row("compile/ping-pong/10000 wall", [0.3, 0.1, 0.2], "s",
                        "hcq-opt")],
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sub", "results.json")
        write_json(document, path)
        with open(path) as f:
            back = json.load(f)
        expect("the JSON reads back as written", back == document)
        try:
            check_document(back)
        except ValueError as e:
            expect("the JSON written passes its check: {}".format(e), False)
        broken = dict(back, results=[dict(back["results"][0], median=1.0)])
        try:
            check_document(broken)
            expect("a wrong median is caught", False)
        except ValueError:
            pass
    text = table(document)
    expect("the table has the load, commit and rows",
           "load average" in text and "abc1234" in text and
           re.search(r"replay_submit/cpu/1\s+7\.20\s+7\.35\s+us\s+2\s+"
                     r"wakes/run 0\.75", text) is not None and
           re.search(r"compile/ping-pong/10000 wall\s+0\.100\s+0\.200\s+s\s+3",
                     text) is not None)
    for f in failures:
        print("bench self-test: FAILED: " + f)
    print("bench self-test: {}".format("FAILED" if failures else "ok"))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(
        description="Runs hcq's benchmarks (see the header of this file).")
    parser.add_argument("--build", default=os.environ.get(
        "BUILD_DIR", os.path.join(ROOT, "build")))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench",
                                                      "results.json"))
    parser.add_argument("--only", choices=("compile", "replay"))
    parser.add_argument("--instructions", action="store_true",
                        help="also count each compile case's instructions "
                        "under valgrind (slow: minutes at a million calls)")
    parser.add_argument("--command", default=None,
                        help="the command to report (scripts/bench.sh's)")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()

    build = os.path.abspath(args.build)
    document = {"schema": SCHEMA, **commit(),
                "date": datetime.datetime.now(datetime.timezone.utc)
                .strftime("%Y-%m-%dT%H:%M:%SZ"),
                "command": args.command or " ".join(
                    ["bench/bench.py"] + sys.argv[1:]),
                "quick": args.quick, "machine": machine(),
                "load": {"before": read_loadavg()}, "results": []}
    if args.only != "replay":
        document["results"] += compile_part(build, args.quick,
                                            args.instructions)
        if args.only is None:
            document["load"]["between"] = read_loadavg()
    if args.only != "compile":
        rows, context = replay_part(build, args.quick)
        document["results"] += rows
        document["google_benchmark_context"] = context
    document["load"]["after"] = read_loadavg()
    write_json(document, args.out)
    print(table(document))
    print("\nwritten to " + os.path.relpath(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
