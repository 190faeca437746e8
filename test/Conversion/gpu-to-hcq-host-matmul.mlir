// DEFINE: %{args} = --input=32x40xf32=@%t/a.bin --input=40x24xf32=@%t/b.bin --input=32x24xf32=0 --expected_output=32x24xf32=@%t/c.bin
// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/tk/llvm/bin %t/cpu %t/gfx1100 %t/gfx942 %t/host %t/host0 && ln -s %ld_lld %t/tk/llvm/bin/ld.lld
// RUN: %python %t/reference.py %t
// RUN: hcq-opt %t/matmul.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100},rocdl-attach-target{chip=gfx942},hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary{toolkit=%t/tk})" -o %t/bin.mlir
// RUN: FileCheck %s --check-prefix=BINARY --input-file=%t/bin.mlir
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx1100 --hcq-pipeline=target=gfx1100 | hcq-translate --hcq-to-executable -o %t/gfx1100/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx942 --hcq-pipeline=target=gfx942 | hcq-translate --hcq-to-executable -o %t/gfx942/main.hcqx
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx1100/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx942/main.hcqx --amd=emulated --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gfx1100/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/gfx942/main.hcqx --amd=hardware --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-opt %t/matmul.mlir --pass-pipeline="builtin.module(hcq-attach-host-target,gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host/main.hcqx
// RUN: hcq-opt %t/matmul.mlir --pass-pipeline="builtin.module(hcq-attach-host-target{O=0},gpu-module-to-binary)" | hcq-opt --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/host0/main.hcqx
// RUN: hcq-run %t/host/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/host0/main.hcqx --runs 3 %{args} 2>&1 | FileCheck %s --check-prefix=OK

// Tests that a tiled matmul, as an ML compiler writes it for a GPU, runs
// on the host with the semantics of its barriers and workgroup memory:
// C (32 x 24) = A (32 x 40) x B (40 x 24), one 8 x 8 tile of C per
// workgroup (grid 3 x 4), whose 64 work-items copy the current 8 x 8 tiles
// of A and B into two workgroup attributions, wait at a barrier, each
// accumulate its row of one and column of the other, and wait again before
// the next tiles overwrite them: both barriers inside the loop over the
// five tiles of K. Without the barriers' semantics a work-item would read
// tiles the others have not written yet (or have overwritten). Run from
// the form convert-gpu-to-rocdl leaves beside the gfx1100 and gfx942 code
// objects (on CPU:0, and as the AMD kernel's CPU twin on the emulated
// device and the simulated kernel driver), and from the gpu dialect (host
// object only, at the default level and at O=0); each compared with the
// same product computed in Python (small integers: exact in f32).
// BINARY-LABEL: gpu.binary @kernels [
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx1100">
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx942">
// BINARY-SAME: #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"matmul", !llvm.func<void (ptr, ptr, ptr)>, arg_attrs = [{hcq.access = "read"}, {hcq.access = "read"}, {hcq.access = "write"}], metadata = {block_size = array<i32: 8, 8, 1>}>]>, bin = "\7FELF
// OK-NOT: error
// OK: arg 2: 80 6 -3 -64 -60 35 52 82
// OK-NOT: error

//--- matmul.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<32x40xf32>, %b: memref<40x24xf32>,
                     %c: memref<32x24xf32>)
        workgroup(%ta : memref<8x8xf32, #gpu.address_space<workgroup>>,
                  %tb : memref<8x8xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 8, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c40 = arith.constant 40 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c8 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c8 : index
      %col = arith.addi %col0, %tx : index
      %sum = scf.for %t = %c0 to %c40 step %c8 iter_args(%acc = %zero) -> (f32) {
        %ak = arith.addi %t, %tx : index
        %av = memref.load %a[%row, %ak] : memref<32x40xf32>
        memref.store %av, %ta[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        %bk = arith.addi %t, %ty : index
        %bv = memref.load %b[%bk, %col] : memref<40x24xf32>
        memref.store %bv, %tb[%ty, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %acc) -> (f32) {
          %x = memref.load %ta[%ty, %k] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tb[%k, %tx] : memref<8x8xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %x, %y : f32
          %n = arith.addf %s, %p : f32
          scf.yield %n : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %c[%row, %col] : memref<32x24xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<32x40xf32>, %b: memref<40x24xf32>,
                  %c: memref<32x24xf32>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@matmul
        blocks in (%c3, %c4, %c1) threads in (%c8, %c8, %c1)
        args(%a : memref<32x40xf32>, %b : memref<40x24xf32>,
             %c : memref<32x24xf32>)
    gpu.wait [%t1]
    return
  }
}

//--- reference.py
# A, B and the expected C = A x B, small integers (exact in f32).
import os
import struct
import sys

folder = sys.argv[1]
a = [[(i * 3 + k * 7) % 11 - 5 for k in range(40)] for i in range(32)]
b = [[(k * 5 + j * 2) % 13 - 6 for j in range(24)] for k in range(40)]
c = [[sum(a[i][k] * b[k][j] for k in range(40)) for j in range(24)]
     for i in range(32)]
for name, matrix in (("a", a), ("b", b), ("c", c)):
    values = [float(v) for row in matrix for v in row]
    with open(os.path.join(folder, name + ".bin"), "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))
