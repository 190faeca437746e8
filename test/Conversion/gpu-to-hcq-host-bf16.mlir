// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/cpu
// RUN: %python %t/reference.py %t
// RUN: hcq-opt %t/bf16.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: hcq-run %t/cpu/main.hcqx --input=64xf32=@%t/x.bin --input=64xf32=0 --expected_output=64xf32=@%t/out.bin 2>&1 | FileCheck %s

// Tests that a kernel computing in bf16 and f16, as ML kernels do, loads
// and runs on the host: the x86-64 code for bf16 conversions calls
// compiler-rt's __truncsfbf2, which the GNU runtime libraries lack, so the
// host object links compiler-rt's builtins in (without them it would not
// load: "undefined symbol: __truncsfbf2"). out = f32(bf16(x) * bf16(x)) +
// f32(f16(x)), compared with the same roundings done in Python.
// CHECK-NOT: error
// CHECK: arg 1: {{.*}}

//--- bf16.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @square(%out: memref<64xf32>, %x: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %b = arith.truncf %v : f32 to bf16
      %s = arith.mulf %b, %b : bf16
      %sf = arith.extf %s : bf16 to f32
      %h = arith.truncf %v : f32 to f16
      %hf = arith.extf %h : f16 to f32
      %r = arith.addf %sf, %hf : f32
      memref.store %r, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%out : memref<64xf32>, %x : memref<64xf32>)
    return
  }
}

//--- reference.py
# x and the expected output, rounding to bf16 (the top 16 bits of an f32,
# to nearest even) and to f16 (struct's "e") as the kernel does.
import os
import struct
import sys

folder = sys.argv[1]


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def bf16(v):
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def f16(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


x = [f32(1.0 + i / 7.0 - 4.5) for i in range(64)]
out = [f32(bf16(bf16(v) * bf16(v)) + f16(v)) for v in x]
with open(os.path.join(folder, "x.bin"), "wb") as f:
    f.write(struct.pack("<64f", *x))
with open(os.path.join(folder, "out.bin"), "wb") as f:
    f.write(struct.pack("<64f", *out))
