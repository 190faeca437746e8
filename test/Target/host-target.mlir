// RUN: hcq-opt %s --split-input-file --hcq-attach-host-target | FileCheck %s --check-prefix=ATTACH
// RUN: hcq-opt %s --split-input-file --hcq-attach-host-target="module=^vec.* O=3" | FileCheck %s --check-prefix=MATCH
// RUN: rm -rf %t && mkdir -p %t/tk/llvm/bin && ln -s %ld_lld %t/tk/llvm/bin/ld.lld
// RUN: hcq-opt %s --split-input-file --hcq-attach-host-target --gpu-module-to-binary="toolkit=%t/tk" | FileCheck %s --check-prefix=BIN
// RUN: hcq-opt %s --split-input-file --hcq-attach-host-target --gpu-module-to-binary | FileCheck %s --check-prefix=BIN
// RUN: hcq-opt %s --split-input-file --hcq-attach-host-target --gpu-module-to-binary="format=isa" | FileCheck %s --check-prefix=ISA

// Tests that the attach pass adds #hcq.host_target to a gpu.module with no
// targets, that an elementwise kernel with a bounds check (n = 200 elements,
// blocks of 64) compiles into a host shared object (ELF type 3, ET_DYN) with
// its kernel's metadata (each buffer's access among it: host-target-access.mlir
// tests the rules), and that its assembly exports the kernel under its
// own name (host-target-run.mlir checks that the outlined bodies are not).
// ATTACH-LABEL: gpu.module @vector [#hcq.host_target]
// MATCH-LABEL: gpu.module @vector [#hcq.host_target<O = 3>]
// BIN-LABEL: gpu.binary @vector [#gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"vadd", (memref<256xf32>, memref<256xf32>, memref<256xf32>, i32) -> (), arg_attrs = [{hcq.access = "read"}, {hcq.access = "read"}, {hcq.access = "write"}, {}], metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF\02\01\01\00\00\00\00\00\00\00\00\00\03\00
// ISA-LABEL: gpu.binary @vector [#gpu.object<#hcq.host_target, kernels =
// ISA-SAME: assembly = "
// ISA-SAME: .globl\09vadd\0A
gpu.module @vector {
  gpu.func @vadd(%a: memref<256xf32>, %b: memref<256xf32>,
                 %out: memref<256xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %block = gpu.block_id x
    %size = gpu.block_dim x
    %thread = gpu.thread_id x
    %base = arith.muli %block, %size : index
    %i = arith.addi %base, %thread : index
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
}

// -----

// Tests that the attach pass appends to the targets a module has, leaves a
// module that has an equal target alone, and that `module` picks modules by
// name. The kernel (two dimensions, gpu.global_id, gpu.grid_dim from
// known_grid_size, a func.func helper, a subview and a multi-block body)
// compiles too.
// ATTACH-LABEL: gpu.module @matrix [#hcq.host_target<O = 3>, #hcq.host_target]
// MATCH-LABEL: gpu.module @matrix [#hcq.host_target<O = 3>]
// BIN-LABEL: gpu.binary @matrix [#gpu.object<#hcq.host_target<O = 3>, kernels = <[#gpu.kernel_metadata<"scale"
// BIN-SAME: bin = "\7FELF
// BIN-SAME: #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"scale"
gpu.module @matrix [#hcq.host_target<O = 3>] {
  func.func @twice(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    return %y : f32
  }
  gpu.func @scale(%m: memref<8x16xf32>) kernel
      attributes {known_block_size = array<i32: 4, 2, 1>,
                  known_grid_size = array<i32: 4, 4, 1>} {
    %col = gpu.global_id x
    %row = gpu.global_id y
    %rows = gpu.grid_dim y
    %c1 = arith.constant 1 : index
    %ok = arith.cmpi ult, %row, %c1 : index
    cf.cond_br %ok, ^skip, ^work
  ^work:
    %line = memref.subview %m[%row, 0] [1, 16] [1, 1]
        : memref<8x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    %v = memref.load %line[%col] : memref<16xf32, strided<[1], offset: ?>>
    %w = func.call @twice(%v) : (f32) -> f32
    memref.store %w, %line[%col] : memref<16xf32, strided<[1], offset: ?>>
    gpu.return
  ^skip:
    gpu.return
  }
}

// -----

// Tests that a module lowered for ROCDL (what convert-gpu-to-rocdl leaves
// for a #rocdl.target beside the host target: llvm.func kernels reading
// ROCDL's ids, the block and grid sizes gpu.known_block_size and
// gpu.known_grid_size say) compiles too, its metadata the LLVM function
// type, and that the object exports the kernel's CPU twin beside it.
// ATTACH-LABEL: gpu.module @lowered [#hcq.host_target]
// BIN-LABEL: gpu.binary @lowered [#gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"fill", !llvm.func<void (ptr, i32)>, arg_attrs = [{hcq.access = "write"}, {}], metadata = {block_size = array<i32: 16, 2, 1>}>]>, bin = "\7FELF
// ISA-LABEL: gpu.binary @lowered [#gpu.object<#hcq.host_target, kernels =
// ISA-SAME: .globl\09fill\0A
// ISA-SAME: .globl\09hcq_twin_fill\0A
gpu.module @lowered {
  llvm.func @fill(%out: !llvm.ptr, %v: i32) attributes {gpu.kernel,
      gpu.known_block_size = array<i32: 16, 2, 1>,
      gpu.known_grid_size = array<i32: 2, 1, 1>} {
    %tx = rocdl.workitem.id.x : i32
    %ty = rocdl.workitem.id.y : i32
    %bx = rocdl.workgroup.id.x : i32
    %dx = rocdl.workgroup.dim.x : i32
    %gx = rocdl.grid.dim.x : i32
    %row = llvm.mul %ty, %gx : i32
    %width = llvm.mul %row, %dx : i32
    %base = llvm.mul %bx, %dx : i32
    %col = llvm.add %base, %tx : i32
    %i = llvm.add %width, %col : i32
    %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    llvm.store %v, %p : i32, !llvm.ptr
    llvm.return
  }
}
