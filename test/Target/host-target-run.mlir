// RUN: rm -rf %t && split-file %s %t
// RUN: hcq-opt %t/kernels.mlir --hcq-attach-host-target --gpu-module-to-binary | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/kernels.mlir --hcq-attach-host-target=O=0 --gpu-module-to-binary | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/kernels.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary)" | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/kernels.mlir --pass-pipeline="builtin.module(hcq-attach-host-target{O=0},gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary)" | %python %t/run.py %t | FileCheck %s

// Tests that the host object runs: run.py takes the bytes of the
// #gpu.object<#hcq.host_target> out of the IR, dlopens them and calls each
// kernel in hcq's CPU kernel ABI (kernel arguments as 64-bit words, once per
// workgroup), as the runtime's `launch` does, and compares every element with
// the same computation done directly in Python, at the default level and
// at O=0 (where the outlined bodies stay functions), compiled from the gpu
// dialect and from what convert-gpu-to-rocdl leaves (the LLVM dialect with
// ROCDL's id ops, as a module compiled for #rocdl.target too is). Each
// kernel's CPU twin (hcq_twin_<kernel>, include/HCQ/Runtime/Twin.h) is called
// as the emulated AMD device calls it, with the kernel arguments laid out as
// hcq-encode lays them out for the AMD kernel (pointers 8 bytes, 32-bit
// scalars 4, packed), and gives the same elements. Only the kernels and
// their twins are exported, not their bodies.
// CHECK-LABEL: vadd
// CHECK-NEXT: exported: vadd axpy2d hcq_twin_vadd hcq_twin_axpy2d{{$}}
// CHECK-NEXT: vadd: 256 elements match (200 computed, 56 untouched)
// CHECK-NEXT: axpy2d: 64 elements match
// CHECK-NEXT: twin vadd: 256 elements match (200 computed, 56 untouched)
// CHECK-NEXT: twin axpy2d: 64 elements match

//--- kernels.mlir
gpu.module @kernels {
  // out[i] = a[i] + b[i] for i < n, with blocks of 64: n = 200 leaves the
  // last block partly idle.
  gpu.func @vadd(%a: memref<256xf32>, %b: memref<256xf32>,
                 %out: memref<256xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %i = gpu.global_id x
    %limit = arith.index_cast %n : i32 to index
    %in = arith.cmpi ult, %i, %limit : index
    scf.if %in {
      %x = memref.load %a[%i] : memref<256xf32>
      %y = memref.load %b[%i] : memref<256xf32>
      %sum = arith.addf %x, %y : f32
      memref.store %sum, %out[%i] : memref<256xf32>
    }
    gpu.return
  }
  // y = alpha * x + y over a 4 x 16 matrix: blocks of 8 x 2 work-items,
  // 2 x 2 workgroups; an f32 scalar in the low half of its word.
  gpu.func @axpy2d(%x: memref<4x16xf32>, %y: memref<4x16xf32>, %alpha: f32)
      kernel attributes {known_block_size = array<i32: 8, 2, 1>} {
    %col = gpu.global_id x
    %row = gpu.global_id y
    %xv = memref.load %x[%row, %col] : memref<4x16xf32>
    %yv = memref.load %y[%row, %col] : memref<4x16xf32>
    %p = arith.mulf %alpha, %xv : f32
    %s = arith.addf %p, %yv : f32
    memref.store %s, %y[%row, %col] : memref<4x16xf32>
    gpu.return
  }
}

//--- run.py
import ctypes
import os
import re
import struct
import sys

text = sys.stdin.read()
match = re.search(r"#gpu\.object<#hcq\.host_target(?:<[^>]*>)?, kernels = .*?"
                  r'bin = "((?:[^"\\]|\\.)*)"', text)
escaped = match.group(1)
data = bytearray()
i = 0
while i < len(escaped):
    if escaped[i] != "\\":
        data += escaped[i].encode("latin-1")
        i += 1
    elif escaped[i + 1] == "\\":
        data.append(0x5C)
        i += 2
    else:
        data.append(int(escaped[i + 1:i + 3], 16))
        i += 3
path = os.path.join(sys.argv[1], "kernels.so")
with open(path, "wb") as f:
    f.write(data)
lib = ctypes.CDLL(path)
print("vadd")
names = ("vadd", "axpy2d", "hcq_twin_vadd", "hcq_twin_axpy2d",
         "__hcq_host_body_vadd", "__hcq_host_body_axpy2d",
         "__hcq_host_item_vadd", "__hcq_host_item_axpy2d")
print("exported:", " ".join(k for k in names if hasattr(lib, k)))

Words = ctypes.c_uint64 * 8
Kernel = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint64),
                          ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32)


def launch(name, args, grid):
    kernel = Kernel((name, lib))
    words = Words(*args)
    for z in range(grid[2]):
        for y in range(grid[1]):
            for x in range(grid[0]):
                kernel(words, x, y, z)


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


a = (ctypes.c_float * 256)(*[i * 0.5 for i in range(256)])
b = (ctypes.c_float * 256)(*[1.0 + i for i in range(256)])
out = (ctypes.c_float * 256)(*([-7.0] * 256))
n = 200
launch("vadd", [ctypes.addressof(a), ctypes.addressof(b),
                ctypes.addressof(out), n], (4, 1, 1))
expected = [f32(a[i] + b[i]) if i < n else -7.0 for i in range(256)]
bad = [i for i in range(256) if out[i] != expected[i]]
print("vadd: %d elements match (%d computed, %d untouched)" %
      (256 - len(bad), n, 256 - n) if not bad else "vadd: mismatch at %s" % bad[:8])

x = (ctypes.c_float * 64)(*[i * 0.25 - 3 for i in range(64)])
y0 = [i * 1.5 for i in range(64)]
y = (ctypes.c_float * 64)(*y0)
alpha = 2.5
alpha_bits = struct.unpack("<I", struct.pack("<f", alpha))[0]
launch("axpy2d", [ctypes.addressof(x), ctypes.addressof(y), alpha_bits],
       (2, 2, 1))
expected = [f32(f32(alpha * x[i]) + y0[i]) for i in range(64)]
bad = [i for i in range(64) if y[i] != expected[i]]
print("axpy2d: %d elements match" % (64 - len(bad)) if not bad
      else "axpy2d: mismatch at %s" % bad[:8])


class Workgroup(ctypes.Structure):
    # hcq_amd_workgroup (include/HCQ/Runtime/Twin.h).
    _fields_ = [("kernargs", ctypes.c_void_p),
                ("dispatch_packet", ctypes.c_void_p),
                ("group_id", ctypes.c_uint32 * 3),
                ("num_groups", ctypes.c_uint32 * 3),
                ("local_size", ctypes.c_uint32 * 3)]


Twin = ctypes.CFUNCTYPE(None, ctypes.POINTER(Workgroup))


def launch_twin(name, kernargs, grid, local):
    twin = Twin(("hcq_twin_" + name, lib))
    segment = ctypes.create_string_buffer(kernargs, len(kernargs))
    workgroup = Workgroup(ctypes.cast(segment, ctypes.c_void_p), None,
                          (0, 0, 0), grid, local)
    for z in range(grid[2]):
        for y in range(grid[1]):
            for x in range(grid[0]):
                workgroup.group_id[:] = (x, y, z)
                twin(ctypes.byref(workgroup))


out = (ctypes.c_float * 256)(*([-7.0] * 256))
launch_twin("vadd", struct.pack("<QQQi", ctypes.addressof(a),
                                ctypes.addressof(b), ctypes.addressof(out), n),
            (4, 1, 1), (64, 1, 1))
expected = [f32(a[i] + b[i]) if i < n else -7.0 for i in range(256)]
bad = [i for i in range(256) if out[i] != expected[i]]
print("twin vadd: %d elements match (%d computed, %d untouched)" %
      (256 - len(bad), n, 256 - n) if not bad
      else "twin vadd: mismatch at %s" % bad[:8])

y = (ctypes.c_float * 64)(*y0)
launch_twin("axpy2d", struct.pack("<QQf", ctypes.addressof(x),
                                  ctypes.addressof(y), alpha),
            (2, 2, 1), (8, 2, 1))
expected = [f32(f32(alpha * x[i]) + y0[i]) for i in range(64)]
bad = [i for i in range(64) if y[i] != expected[i]]
print("twin axpy2d: %d elements match" % (64 - len(bad)) if not bad
      else "twin axpy2d: mismatch at %s" % bad[:8])
