// RUN: rm -rf %t && split-file %s %t
// RUN: hcq-opt %t/kernels.mlir --hcq-attach-host-target --gpu-module-to-binary | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/kernels.mlir --hcq-attach-host-target=O=0 --gpu-module-to-binary | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/kernels.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary)" | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/kernels.mlir --pass-pipeline="builtin.module(hcq-attach-host-target{O=0},gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary)" | %python %t/run.py %t | FileCheck %s
// RUN: hcq-opt %t/lowered.mlir --hcq-attach-host-target --gpu-module-to-binary | %python %t/run_lowered.py %t | FileCheck %s --check-prefix=LOWERED
// RUN: hcq-opt %t/lowered.mlir --hcq-attach-host-target=O=0 --gpu-module-to-binary | %python %t/run_lowered.py %t | FileCheck %s --check-prefix=LOWERED
// RUN: hcq-opt %t/lowered.mlir --hcq-attach-host-target --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=FENCE

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
// their twins are exported, not their bodies, work-items or workgroup
// memory. @early's odd work-items return before the barriers the even ones
// wait at: they count as arrived, nothing hangs, and the even ones read
// what the others stored before the first barrier (kernel and twin).
// @reverse runs its 64 workgroups on 4 threads at once, 50 times: each
// workgroup has workgroup memory of its own (a thread_local global).
// lowered.mlir, written as convert-gpu-to-rocdl and AMD code write the LLVM
// dialect, runs its barrier, its address space 3 global (reached directly
// and through an addrspacecast to a generic pointer) and its atomics with
// AMDGPU sync scopes ("workgroup", "agent": loads, stores, fences,
// atomicrmw and cmpxchg), at the default level and at O=0; the seq_cst
// fence at "agent" scope is a fence in the assembly (x86 emits none at a
// scope it does not know).
// CHECK-LABEL: vadd
// CHECK-NEXT: exported: vadd axpy2d early reverse hcq_twin_vadd hcq_twin_axpy2d hcq_twin_early{{$}}
// CHECK-NEXT: vadd: 256 elements match (200 computed, 56 untouched)
// CHECK-NEXT: axpy2d: 64 elements match
// CHECK-NEXT: twin vadd: 256 elements match (200 computed, 56 untouched)
// CHECK-NEXT: twin axpy2d: 64 elements match
// CHECK-NEXT: early: match
// CHECK-NEXT: twin early: match
// CHECK-NEXT: reverse on 4 threads: 4096 elements match
// LOWERED: sync: 128 elements match, counts 128 127 1
// FENCE-LABEL: gpu.binary @lowered
// FENCE-SAME: lock\09\09orl\09$0, -64(%rsp)

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
  // The odd work-items return at once; the even ones store their id into
  // workgroup memory, wait at a barrier and read the id two places on (an
  // even one's), then wait at a second barrier.
  gpu.func @early(%out: memref<8xi32>)
      workgroup(%shared : memref<8xi32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 8, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c100 = arith.constant 100 : i32
    %tid = gpu.thread_id x
    %t = arith.index_cast %tid : index to i32
    %low = arith.andi %tid, %c1 : index
    %odd = arith.cmpi ne, %low, %c0 : index
    cf.cond_br %odd, ^leave, ^stay
  ^leave:
    %v = arith.addi %t, %c100 : i32
    memref.store %v, %out[%tid] : memref<8xi32>
    gpu.return
  ^stay:
    memref.store %t, %shared[%tid] : memref<8xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %next = arith.addi %tid, %c2 : index
    %j = arith.remui %next, %c8 : index
    %w = memref.load %shared[%j] : memref<8xi32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%tid] : memref<8xi32>
    gpu.barrier
    gpu.return
  }
  // y = x with each 64-element block reversed, through workgroup memory.
  gpu.func @reverse(%x: memref<4096xf32>, %y: memref<4096xf32>)
      workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %base = arith.muli %bid, %c64 : index
    %i = arith.addi %base, %tid : index
    %v = memref.load %x[%i] : memref<4096xf32>
    memref.store %v, %tile[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %mirror = arith.subi %c63, %tid : index
    %w = memref.load %tile[%mirror] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %y[%i] : memref<4096xf32>
    gpu.return
  }
}

//--- lowered.mlir
gpu.module @lowered {
  llvm.mlir.global internal @shared() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32 x i32>
  // out[g] = the global id of the work-item after this one in the
  // workgroup (through workgroup memory); counts[0] counts the work-items,
  // counts[1] is the largest global id, counts[2] is set to 1 once.
  llvm.func @sync(%out: !llvm.ptr, %counts: !llvm.ptr) attributes {gpu.kernel, gpu.known_block_size = array<i32: 32, 1, 1>} {
    %tid = rocdl.workitem.id.x : i32
    %bid = rocdl.workgroup.id.x : i32
    %lds = llvm.mlir.addressof @shared : !llvm.ptr<3>
    %flat = llvm.addrspacecast %lds : !llvm.ptr<3> to !llvm.ptr
    %mine = llvm.getelementptr %flat[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %base = llvm.mul %bid, %c32 : i32
    %g = llvm.add %base, %tid : i32
    llvm.store %g, %mine atomic syncscope("workgroup") release {alignment = 4 : i64} : i32, !llvm.ptr
    llvm.fence syncscope("workgroup") release
    rocdl.barrier
    llvm.fence syncscope("agent") seq_cst
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c31 = llvm.mlir.constant(31 : i32) : i32
    %t1 = llvm.add %tid, %c1 : i32
    %j = llvm.and %t1, %c31 : i32
    %theirs = llvm.getelementptr %lds[%j] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
    %v = llvm.load %theirs atomic syncscope("workgroup") acquire {alignment = 4 : i64} : !llvm.ptr<3> -> i32
    %o = llvm.getelementptr %out[%g] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    llvm.store %v, %o : i32, !llvm.ptr
    %old = llvm.atomicrmw add %counts, %c1 syncscope("agent") monotonic : !llvm.ptr, i32
    %largest = llvm.getelementptr %counts[1] : (!llvm.ptr) -> !llvm.ptr, i32
    %max = llvm.atomicrmw max %largest, %g syncscope("agent") acq_rel : !llvm.ptr, i32
    %once = llvm.getelementptr %counts[2] : (!llvm.ptr) -> !llvm.ptr, i32
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %pair = llvm.cmpxchg %once, %c0, %c1 syncscope("workgroup") acq_rel monotonic : !llvm.ptr, i32
    llvm.return
  }
}

//--- run_lowered.py
import ctypes
import os
import re
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
path = os.path.join(sys.argv[1], "lowered.so")
with open(path, "wb") as f:
    f.write(data)
lib = ctypes.CDLL(path)
kernel = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint64),
                          ctypes.c_uint32, ctypes.c_uint32,
                          ctypes.c_uint32)(("sync", lib))
out = (ctypes.c_int32 * 128)(*([-1] * 128))
counts = (ctypes.c_int32 * 3)()
words = (ctypes.c_uint64 * 2)(ctypes.addressof(out), ctypes.addressof(counts))
for group in range(4):
    kernel(words, group, 0, 0)
expected = [i - i % 32 + (i + 1) % 32 for i in range(128)]
bad = [i for i in range(128) if out[i] != expected[i]]
print("sync: %s, counts %d %d %d" % (
    "128 elements match" if not bad else "mismatch at %s" % bad[:8],
    counts[0], counts[1], counts[2]))

//--- run.py
import ctypes
import os
import re
import struct
import sys
import threading

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
names = ("vadd", "axpy2d", "early", "reverse", "hcq_twin_vadd",
         "hcq_twin_axpy2d", "hcq_twin_early", "__hcq_host_body_vadd",
         "__hcq_host_body_axpy2d", "__hcq_host_body_early",
         "__hcq_host_item_vadd", "__hcq_host_item_axpy2d",
         "__hcq_host_item_early", "__hcq_host_wg_early_0")
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

# early: a work-item that returns counts as arrived at the barriers it
# skips; the others read what the even ones stored before the first.
early_expected = [100 + i if i % 2 else (i + 2) % 8 for i in range(8)]
out = (ctypes.c_int32 * 8)(*([-1] * 8))
launch("early", [ctypes.addressof(out)], (1, 1, 1))
print("early: %s" % ("match" if list(out) == early_expected
                     else "mismatch %s" % list(out)))
out = (ctypes.c_int32 * 8)(*([-1] * 8))
launch_twin("early", struct.pack("<Q", ctypes.addressof(out)), (1, 1, 1),
            (8, 1, 1))
print("twin early: %s" % ("match" if list(out) == early_expected
                          else "mismatch %s" % list(out)))

# reverse: 64 workgroups, on 4 threads at once (ctypes lets go of the GIL
# during a call), 50 times: each workgroup sees its own workgroup memory.
x = (ctypes.c_float * 4096)(*[float(i) for i in range(4096)])
y = (ctypes.c_float * 4096)()
reverse = Kernel(("reverse", lib))
words = Words(ctypes.addressof(x), ctypes.addressof(y))


def reverse_groups(first):
    for _ in range(50):
        for group in range(first, 64, 4):
            reverse(words, group, 0, 0)


threads = [threading.Thread(target=reverse_groups, args=(t,))
           for t in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
expected = [float(i - i % 64 + 63 - i % 64) for i in range(4096)]
bad = [i for i in range(4096) if y[i] != expected[i]]
print("reverse on 4 threads: %s" % ("4096 elements match" if not bad
                                    else "mismatch at %s" % bad[:8]))
