// DEFINE: %{args} = --input=2048xi32=@%t/x.bin --input=8xi32=-1 --input=i32=1900 --expected_output=8xi32=@%t/sums.bin
// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/tk/llvm/bin %t/cpu %t/gfx1100 %t/gfx942 %t/host %t/host0 && ln -s %ld_lld %t/tk/llvm/bin/ld.lld
// RUN: %python %t/reference.py %t
// RUN: hcq-opt %t/reduce.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100},rocdl-attach-target{chip=gfx942},hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary{toolkit=%t/tk})" -o %t/bin.mlir
// RUN: FileCheck %s --check-prefix=BINARY --input-file=%t/bin.mlir
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx1100 --hcq-pipeline=target=gfx1100 | hcq-translate --hcq-to-executable -o %t/gfx1100/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx942 --hcq-pipeline=target=gfx942 | hcq-translate --hcq-to-executable -o %t/gfx942/main.hcqx
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// The same with every workgroup on the queue's thread, and over 3 threads
// (hcq-run --workgroup-threads).
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 --workgroup-threads=1 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 --workgroup-threads=3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx1100/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx942/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gfx1100/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/gfx942/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-opt %t/reduce.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host/main.hcqx
// RUN: hcq-opt %t/reduce.mlir --pass-pipeline="builtin.module(hcq-attach-host-target{O=0},gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host0/main.hcqx
// RUN: hcq-run %t/host/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/host0/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK

// Tests that a tree reduction, as an ML compiler writes it for a GPU, runs
// on the host with the semantics of its barriers and workgroup memory: each
// workgroup of 64 work-items sums its 256 of x's 2048 i32 elements (those
// below n = 1900) into sums[workgroup]. A uniform scf.if picks the
// unchecked path for the seven full workgroups and the bounds-checked loop
// for the last one (108 elements), each arm storing the work-item's partial
// sum into a workgroup attribution and waiting at its own barrier; then an
// scf.while with a uniform condition halves the stride from 32 to 1, the
// work-items below it (an scf.if of active lanes) adding their partner's
// partial sum, with a barrier at the end of every step. Run from the form
// convert-gpu-to-rocdl leaves beside the gfx1100 and gfx942 code objects (on
// CPU:0, and as the AMD kernel's CPU twin on the emulated device and the
// simulated kernel driver), and from the gpu dialect (host object only, at
// the default level and at O=0); each compared with the sums computed in
// Python.
// BINARY-LABEL: gpu.binary @kernels [
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx1100">
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx942">
// BINARY-SAME: #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"reduce", !llvm.func<void (ptr, ptr, i32)>, arg_attrs = [{hcq.access = "read"}, {hcq.access = "write"}, {}], metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF
// OK-NOT: error
// OK: arg 1: -51 -27 98 -80 45 -32 -8 56
// OK-NOT: error

//--- reduce.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%x: memref<2048xi32>, %sums: memref<8xi32>, %n: i32)
        workgroup(%partial : memref<64xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c256 : index
      %limit = arith.index_cast %n : i32 to index
      %end = arith.addi %base, %c256 : index
      %full = arith.cmpi ule, %end, %limit : index
      scf.if %full {
        %i0 = arith.addi %base, %tid : index
        %i1 = arith.addi %i0, %c64 : index
        %i2 = arith.addi %i0, %c128 : index
        %i3 = arith.addi %i0, %c192 : index
        %v0 = memref.load %x[%i0] : memref<2048xi32>
        %v1 = memref.load %x[%i1] : memref<2048xi32>
        %v2 = memref.load %x[%i2] : memref<2048xi32>
        %v3 = memref.load %x[%i3] : memref<2048xi32>
        %s01 = arith.addi %v0, %v1 : i32
        %s23 = arith.addi %v2, %v3 : i32
        %s = arith.addi %s01, %s23 : i32
        memref.store %s, %partial[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
        gpu.barrier
      } else {
        %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (i32) {
          %offset = arith.muli %k, %c64 : index
          %start = arith.addi %base, %offset : index
          %i = arith.addi %start, %tid : index
          %in = arith.cmpi ult, %i, %limit : index
          %v = scf.if %in -> (i32) {
            %loaded = memref.load %x[%i] : memref<2048xi32>
            scf.yield %loaded : i32
          } else {
            scf.yield %zero : i32
          }
          %next = arith.addi %acc, %v : i32
          scf.yield %next : i32
        }
        memref.store %s, %partial[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
        gpu.barrier
      }
      %last = scf.while (%stride = %c32) : (index) -> index {
        %more = arith.cmpi ugt, %stride, %c0 : index
        scf.condition(%more) %stride : index
      } do {
      ^bb0(%stride: index):
        %active = arith.cmpi ult, %tid, %stride : index
        scf.if %active {
          %partner = arith.addi %tid, %stride : index
          %mine = memref.load %partial[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
          %theirs = memref.load %partial[%partner] : memref<64xi32, #gpu.address_space<workgroup>>
          %sum = arith.addi %mine, %theirs : i32
          memref.store %sum, %partial[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %half = arith.shrui %stride, %c1 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %partial[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
        memref.store %total, %sums[%bid] : memref<8xi32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<2048xi32>, %sums: memref<8xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@reduce
        blocks in (%c8, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<2048xi32>, %sums : memref<8xi32>, %n : i32)
    gpu.wait [%t1]
    return
  }
}

//--- reference.py
# x and the expected sums: per 256-element chunk, of the elements below
# n = 1900.
import os
import struct
import sys

folder = sys.argv[1]
n = 1900
x = [(i * 37) % 101 - 50 for i in range(2048)]
sums = [sum(x[i] for i in range(g * 256, (g + 1) * 256) if i < n)
        for g in range(8)]
with open(os.path.join(folder, "x.bin"), "wb") as f:
    f.write(struct.pack("<2048i", *x))
with open(os.path.join(folder, "sums.bin"), "wb") as f:
    f.write(struct.pack("<8i", *sums))
