// REQUIRES: rocm-device-libs
// DEFINE: %{args} = --input=200xf32=@%t/x.bin --input=200xf32=-7 --input=i32=173 --expected_output=200xf32=@%t/out.bin
// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/tk/llvm/bin %t/tk/amdgcn %t/cpu %t/gfx1100 %t/gfx942 %t/host && ln -s %ld_lld %t/tk/llvm/bin/ld.lld && ln -s %rocm_bitcode %t/tk/amdgcn/bitcode
// RUN: %python %t/reference.py %t
// RUN: hcq-opt %t/math.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100},rocdl-attach-target{chip=gfx942},hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary{toolkit=%t/tk})" -o %t/bin.mlir
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx1100 --hcq-pipeline=target=gfx1100 | hcq-translate --hcq-to-executable -o %t/gfx1100/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx942 --hcq-pipeline=target=gfx942 | hcq-translate --hcq-to-executable -o %t/gfx942/main.hcqx
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx1100/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx942/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gfx1100/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-opt %t/math.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host/main.hcqx
// RUN: hcq-run %t/host/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %python %t/symbols.py %t/bin.mlir | FileCheck %s --check-prefix=SYMBOLS

// Tests that math functions, and gpu.block_dim, run from the source alone:
// an elementwise kernel over the first n = 173 of 200 elements (blocks of
// 64: i = block_id * block_dim + thread_id) whose output sums GELU (erf),
// tanh, exp, sin times cos, log1p, rsqrt, pow and floor of its input. For
// the AMD objects convert-gpu-to-rocdl calls the ROCm device library
// (__ocml_*, and __ockl for the block size), linked from the toolkit's
// amdgcn/bitcode (Debian's rocm-device-libs 5.2.3, which LLVM 22 reads):
// their code objects have no undefined symbol. The host object provides
// the __ocml_* functions it calls from the C library, and in the gpu
// dialect lowers the math ops to LLVM intrinsics and C library calls. Each
// run is compared with the same computation in Python (in double, rounded
// to f32; hcq-run's threshold 1e-4), the elements past n keeping their -7.
// OK-NOT: error
// OK: arg 1: {{.*}}
// SYMBOLS: gfx1100 undefined: none
// SYMBOLS-NEXT: gfx942 undefined: none

//--- math.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @activate(%out: memref<200xf32>, %x: memref<200xf32>, %n: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %ii = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %ii, %n : i32
      scf.if %in {
        %v = memref.load %x[%i] : memref<200xf32>
        %half = arith.constant 0.5 : f32
        %one = arith.constant 1.0 : f32
        %rsqrt2 = arith.constant 0.70710678 : f32
        %s = arith.mulf %v, %rsqrt2 : f32
        %e = math.erf %s : f32
        %e1 = arith.addf %e, %one : f32
        %hv = arith.mulf %v, %half : f32
        %gelu = arith.mulf %hv, %e1 : f32
        %t = math.tanh %v : f32
        %sq = arith.mulf %v, %v : f32
        %nsq = arith.negf %sq : f32
        %g = math.exp %nsq : f32
        %sn = math.sin %v : f32
        %cs = math.cos %v : f32
        %sc = arith.mulf %sn, %cs : f32
        %a = math.absf %v : f32
        %l = math.log1p %a : f32
        %q = arith.addf %sq, %one : f32
        %r = math.rsqrt %q : f32
        %p = math.powf %q, %half : f32
        %f = math.floor %v : f32
        %s1 = arith.addf %gelu, %t : f32
        %s2 = arith.addf %s1, %g : f32
        %s3 = arith.addf %s2, %sc : f32
        %s4 = arith.addf %s3, %l : f32
        %s5 = arith.addf %s4, %r : f32
        %s6 = arith.addf %s5, %p : f32
        %s7 = arith.addf %s6, %f : f32
        memref.store %s7, %out[%i] : memref<200xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<200xf32>, %out: memref<200xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@activate
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<200xf32>, %x : memref<200xf32>, %n : i32)
    gpu.wait [%t1]
    return
  }
}

//--- reference.py
# x in [-3, 3) and the expected output: the kernel's sum for the first
# n = 173 elements, in double rounded to f32, -7 past them.
import math
import os
import struct
import sys

folder = sys.argv[1]
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
x = [f32(-3 + 6 * i / 200) for i in range(200)]


def kernel(v):
    gelu = 0.5 * v * (1 + math.erf(v * 0.70710678))
    q = v * v + 1
    return (gelu + math.tanh(v) + math.exp(-v * v) + math.sin(v) * math.cos(v)
            + math.log1p(abs(v)) + 1 / math.sqrt(q) + math.pow(q, 0.5)
            + math.floor(v))


out = [f32(kernel(v)) if i < 173 else -7.0 for i, v in enumerate(x)]
with open(os.path.join(folder, "x.bin"), "wb") as f:
    f.write(struct.pack("<200f", *x))
with open(os.path.join(folder, "out.bin"), "wb") as f:
    f.write(struct.pack("<200f", *out))

//--- symbols.py
# Each AMD code object's undefined symbols: the gpu.binary's objects, read
# with LLVM 22's llvm-readelf.
import re
import subprocess
import sys
import tempfile

text = open(sys.argv[1]).read()
for chip in ("gfx1100", "gfx942"):
    m = re.search(r'#rocdl.target<chip = "%s">.*?bin = "((?:[^"\\]|\\.)*)"'
                  % chip, text)
    raw, data, i = m.group(1), bytearray(), 0
    while i < len(raw):
        if raw[i] == "\\" and raw[i + 1] in '\\"':
            data.append(ord(raw[i + 1]))
            i += 2
        elif raw[i] == "\\":
            data.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            data.append(ord(raw[i]))
            i += 1
    with tempfile.NamedTemporaryFile(suffix=".co") as f:
        f.write(data)
        f.flush()
        symbols = subprocess.run(
            ["llvm-readelf-22", "--syms", "--dyn-syms", f.name],
            capture_output=True, text=True, check=True).stdout
    undefined = sorted({line.split()[-1] for line in symbols.splitlines()
                        if " UND " in line and len(line.split()) == 8})
    print(chip, "undefined:", " ".join(undefined) or "none")
