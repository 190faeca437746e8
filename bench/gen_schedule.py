#!/usr/bin/env python3
"""Writes a synthetic hcq schedule of N calls to stdout.

The shape is a model's forward pass spread over two AMD GPUs and the host:
64 internal buffers per device, kernels reading two buffers and writing a
third on one device, and every 8th call a copy (between the GPUs, or to and
from the host). Deterministic for a given N and seed.

  bench/gen_schedule.py 10000 > /tmp/s.mlir
  bench/gen_schedule.py 10000 1 kernel.mlir > /tmp/s.mlir

The optional third argument is a file holding the `hcq.kernel @k` line to
use (e.g. a real code object, from scripts/embed-code-object.py); without it
the kernel's code object is a stand-in, enough for the passes before
encoding.
"""
import random
import sys

n = int(sys.argv[1])
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
devices = ["AMD:0", "AMD:1"]
per_device = 64
size = 1024  # f32 elements per buffer

if len(sys.argv) > 3:
    print(open(sys.argv[3]).read().strip())
else:
    print('hcq.kernel @k amd (write f32, read f32, read f32) code_object "\\7FELF"')
print("hcq.schedule @bench(%host: !hcq.buffer<{}xf32, CPU:0>) {{".format(size))
bufs = {}
for d in devices:
    for i in range(per_device):
        name = "%b{}_{}".format(d[-1], i)
        bufs.setdefault(d, []).append(name)
        print("  {} = hcq.alloc : !hcq.buffer<{}xf32, {}>".format(name, size, d))
ty = lambda d: "!hcq.buffer<{}xf32, {}>".format(size, d)
for call in range(n):
    if call % 8 == 7:
        kind = rng.randrange(3)
        if kind == 0:
            src, dst = rng.choice(bufs["AMD:0"]), rng.choice(bufs["AMD:1"])
            st, dt = ty("AMD:0"), ty("AMD:1")
        elif kind == 1:
            src, dst = "%host", rng.choice(bufs["AMD:0"])
            st, dt = ty("CPU:0"), ty("AMD:0")
        else:
            src, dst = rng.choice(bufs["AMD:1"]), "%host"
            st, dt = ty("AMD:1"), ty("CPU:0")
        print("  hcq.copy {}[0, {}], {}[0, {}] : {}, {}".format(
            dst, size * 4, src, size * 4, dt, st))
        continue
    d = rng.choice(devices)
    out, a, b = (rng.choice(bufs[d]) for _ in range(3))
    print("  hcq.launch @k({}, {}, {} : {}, {}, {}) global [4, 1, 1] local [256, 1, 1]".format(
        out, a, b, ty(d), ty(d), ty(d)))
print("}")
