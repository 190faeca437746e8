// DEFINE: %{args} = --input=1024xi32=@%t/x.bin --input=16xi32=-1 --input=16xi32=-1 --input=i32=1000 --expected_output=16xi32=@%t/bins.bin --expected_output=16xi32=@%t/bins.bin
// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/tk/llvm/bin %t/cpu %t/gfx1100 %t/gfx942 %t/host %t/host0 && ln -s %ld_lld %t/tk/llvm/bin/ld.lld
// RUN: %python %t/reference.py %t
// RUN: hcq-opt %t/histogram.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100},rocdl-attach-target{chip=gfx942},hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary{toolkit=%t/tk})" -o %t/bin.mlir
// RUN: FileCheck %s --check-prefix=BINARY --input-file=%t/bin.mlir
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx1100 --hcq-pipeline=target=gfx1100 | hcq-translate --hcq-to-executable -o %t/gfx1100/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx942 --hcq-pipeline=target=gfx942 | hcq-translate --hcq-to-executable -o %t/gfx942/main.hcqx
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx1100/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx942/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gfx1100/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/gfx942/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-opt %t/histogram.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host/main.hcqx
// RUN: hcq-opt %t/histogram.mlir --pass-pipeline="builtin.module(hcq-attach-host-target{O=0},gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host0/main.hcqx
// RUN: hcq-run %t/host/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/host0/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK

// Tests that atomics run on the host as atomics, as an ML compiler writes a
// histogram for a GPU: the first 1000 of x's 1024 values (in [0, 16),
// squares modulo 16 plus a drift, so that most of them hit a few bins)
// counted into 16 bins twice. @clear zeroes both histograms (hcq-run fills
// them with -1, and each of the three runs starts again). @histogram
// privatizes: each workgroup zeroes a workgroup attribution of 16 bins,
// waits at a barrier, counts its 64 values into it with memref.atomic_rmw
// addi (workgroup memory), waits again, and adds its bins into `bins` with
// memref.atomic_rmw addi (global memory); @histogram_direct counts each
// value into `direct` with memref.atomic_rmw addi, without barriers or
// workgroup memory (a plain loop over the work-items). Run from the form
// convert-gpu-to-rocdl leaves beside the gfx1100 and gfx942 code objects (on
// CPU:0, and as the AMD kernels' CPU twins on the emulated device and the
// simulated kernel driver), and from the gpu dialect (host object only, at
// the default level and at O=0); each compared with the counts made in
// Python.
// BINARY-LABEL: gpu.binary @kernels [
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx1100">
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx942">
// BINARY-SAME: #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"clear", !llvm.func<void (ptr, ptr)>, arg_attrs = [{hcq.access = "write"}, {hcq.access = "write"}], metadata = {block_size = array<i32: 16, 1, 1>}>, #gpu.kernel_metadata<"histogram", !llvm.func<void (ptr, ptr, i32)>, arg_attrs = [{hcq.access = "read"}, {hcq.access = "readwrite"}, {}], metadata = {block_size = array<i32: 64, 1, 1>}>, #gpu.kernel_metadata<"histogram_direct", !llvm.func<void (ptr, ptr, i32)>, arg_attrs = [{hcq.access = "read"}, {hcq.access = "readwrite"}, {}], metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF
// OK-NOT: error
// OK: arg 1: 58 64 64 64 96 96 96 90
// OK-NEXT: arg 2: 58 64 64 64 96 96 96 90
// OK-NOT: error

//--- histogram.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @clear(%bins: memref<16xi32>, %direct: memref<16xi32>) kernel
        attributes {known_block_size = array<i32: 16, 1, 1>} {
      %tid = gpu.thread_id x
      %zero = arith.constant 0 : i32
      memref.store %zero, %bins[%tid] : memref<16xi32>
      memref.store %zero, %direct[%tid] : memref<16xi32>
      gpu.return
    }
    gpu.func @histogram(%x: memref<1024xi32>, %bins: memref<16xi32>, %n: i32)
        workgroup(%local : memref<16xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %lead = arith.cmpi ult, %tid, %c16 : index
      scf.if %lead {
        memref.store %zero, %local[%tid] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %limit = arith.index_cast %n : i32 to index
      %in = arith.cmpi ult, %i, %limit : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<1024xi32>
        %bin = arith.index_cast %v : i32 to index
        %old = memref.atomic_rmw addi %one, %local[%bin] : (i32, memref<16xi32, #gpu.address_space<workgroup>>) -> i32
      }
      gpu.barrier
      scf.if %lead {
        %count = memref.load %local[%tid] : memref<16xi32, #gpu.address_space<workgroup>>
        %old = memref.atomic_rmw addi %count, %bins[%tid] : (i32, memref<16xi32>) -> i32
      }
      gpu.return
    }
    gpu.func @histogram_direct(%x: memref<1024xi32>, %direct: memref<16xi32>,
                               %n: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c64 = arith.constant 64 : index
      %one = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %limit = arith.index_cast %n : i32 to index
      %in = arith.cmpi ult, %i, %limit : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<1024xi32>
        %bin = arith.index_cast %v : i32 to index
        %old = memref.atomic_rmw addi %one, %direct[%bin] : (i32, memref<16xi32>) -> i32
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<1024xi32>, %bins: memref<16xi32>,
                  %direct: memref<16xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@clear
        blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%bins : memref<16xi32>, %direct : memref<16xi32>)
    %t2 = gpu.launch_func async [%t1] @kernels::@histogram
        blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<1024xi32>, %bins : memref<16xi32>, %n : i32)
    %t3 = gpu.launch_func async [%t2] @kernels::@histogram_direct
        blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<1024xi32>, %direct : memref<16xi32>, %n : i32)
    gpu.wait [%t3]
    return
  }
}

//--- reference.py
# x and the expected counts of its first n = 1000 values.
import os
import struct
import sys

folder = sys.argv[1]
n = 1000
x = [(i * i + i // 128) % 16 for i in range(1024)]
bins = [0] * 16
for v in x[:n]:
    bins[v] += 1
with open(os.path.join(folder, "x.bin"), "wb") as f:
    f.write(struct.pack("<1024i", *x))
with open(os.path.join(folder, "bins.bin"), "wb") as f:
    f.write(struct.pack("<16i", *bins))
