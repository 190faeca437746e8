#!/usr/bin/env python3
"""Writes a synthetic hcq schedule of N calls to stdout.

The default shape (`--shape mixed`) is a model's forward pass spread over two
AMD GPUs and the host: 64 internal buffers per device, kernels reading two
buffers and writing a third on one device, and every 8th call a copy
(between the GPUs, or to and from the host). Deterministic for a given N and
seed.

`--shape one-device` is the same on AMD:0 alone: kernels on AMD:0, and every
8th call a copy between two of its buffers, from the host or to the host.

`--shape ping-pong` is two devices taking turns, every call depending on the
other device's last: the calls alternate between a copy of the buffer the
other device's last kernel wrote into a buffer of this device, and a kernel
on this device reading that copy and writing the next buffer, so AMD:0 and
AMD:1 never run at once (the worst case for batching and waits).

  bench/gen_schedule.py 10000 > /tmp/s.mlir
  bench/gen_schedule.py 10000 1 kernel.mlir > /tmp/s.mlir
  bench/gen_schedule.py --shape ping-pong 10000 1 kernel.mlir > /tmp/s.mlir

The optional third argument is a file holding the `hcq.kernel @k` line to
use (e.g. a real code object, from scripts/embed-code-object.py); without it
the kernel's code object is a stand-in, enough for the passes before
encoding.
"""
import argparse
import random

SHAPES = ("mixed", "one-device", "ping-pong")
PER_DEVICE = 64
SIZE = 1024  # f32 elements per buffer


def ty(device):
    return "!hcq.buffer<{}xf32, {}>".format(SIZE, device)


def copy(dst, dst_device, src, src_device):
    return "  hcq.copy {}[0, {}], {}[0, {}] : {}, {}".format(
        dst, SIZE * 4, src, SIZE * 4, ty(dst_device), ty(src_device))


def launch(out, a, b, device):
    return ("  hcq.launch @k({}, {}, {} : {}, {}, {}) global [4, 1, 1] "
            "local [256, 1, 1]".format(out, a, b, ty(device), ty(device),
                                       ty(device)))


def calls(shape, n, rng, bufs):
    """The schedule's `n` calls, as lines."""
    if shape == "ping-pong":
        # Per device: the buffer its last kernel wrote (buffer 0 at first)
        # and the next buffer to use, round robin.
        last = {d: bufs[d][0] for d in bufs}
        turn = 0
        nxt = {d: 1 for d in bufs}
        devices = sorted(bufs)
        for call in range(n):
            d = devices[(call // 2) % 2]
            other = devices[1 - (call // 2) % 2]
            if call % 2 == 0:
                # A copy of the other device's last output onto this device.
                dst = bufs[d][nxt[d]]
                nxt[d] = (nxt[d] + 1) % PER_DEVICE
                yield copy(dst, d, last[other], other)
                turn = dst
            else:
                out = bufs[d][nxt[d]]
                nxt[d] = (nxt[d] + 1) % PER_DEVICE
                yield launch(out, turn, turn, d)
                last[d] = out
        return
    one = shape == "one-device"
    devices = sorted(bufs)
    for call in range(n):
        if call % 8 == 7:
            kind = rng.randrange(3)
            if kind == 0:
                if one:
                    yield copy(rng.choice(bufs["AMD:0"]), "AMD:0",
                               rng.choice(bufs["AMD:0"]), "AMD:0")
                else:
                    src, dst = rng.choice(bufs["AMD:0"]), rng.choice(bufs["AMD:1"])
                    yield copy(dst, "AMD:1", src, "AMD:0")
            elif kind == 1:
                yield copy(rng.choice(bufs["AMD:0"]), "AMD:0", "%host", "CPU:0")
            else:
                d = "AMD:0" if one else "AMD:1"
                yield copy("%host", "CPU:0", rng.choice(bufs[d]), d)
            continue
        d = rng.choice(devices)
        out, a, b = (rng.choice(bufs[d]) for _ in range(3))
        yield launch(out, a, b, d)


def main():
    parser = argparse.ArgumentParser(
        description="Writes a synthetic hcq schedule of N calls to stdout.")
    parser.add_argument("calls", type=int)
    parser.add_argument("seed", type=int, nargs="?", default=1)
    parser.add_argument("kernel", nargs="?",
                        help="a file holding the `hcq.kernel @k` line")
    parser.add_argument("--shape", choices=SHAPES, default="mixed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    devices = ["AMD:0"] if args.shape == "one-device" else ["AMD:0", "AMD:1"]

    out = []
    if args.kernel:
        with open(args.kernel) as f:
            out.append(f.read().strip())
    else:
        out.append('hcq.kernel @k amd (write f32, read f32, read f32) '
                   'code_object "\\7FELF"')
    out.append("hcq.schedule @bench(%host: !hcq.buffer<{}xf32, CPU:0>) {{"
               .format(SIZE))
    bufs = {}
    for d in devices:
        for i in range(PER_DEVICE):
            name = "%b{}_{}".format(d[-1], i)
            bufs.setdefault(d, []).append(name)
            out.append("  {} = hcq.alloc : {}".format(name, ty(d)))
    print("\n".join(out))
    # Written in chunks: a million calls are 160 MB of text.
    chunk = []
    for line in calls(args.shape, args.calls, rng, bufs):
        chunk.append(line)
        if len(chunk) == 65536:
            print("\n".join(chunk))
            chunk = []
    if chunk:
        print("\n".join(chunk))
    print("}")


if __name__ == "__main__":
    main()
