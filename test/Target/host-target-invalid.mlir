// RUN: hcq-opt %s --split-input-file --verify-diagnostics --gpu-module-to-binary
// RUN: not hcq-opt %s --split-input-file --gpu-module-to-binary="format=llvm" 2>&1 | FileCheck %s --check-prefix=OFFLOAD
// RUN: not hcq-opt %s --split-input-file --gpu-module-to-binary="toolkit=%t/nowhere" 2>&1 | FileCheck %s --check-prefix=LLD
// RUN: rm -rf %t && mkdir -p %t/false/llvm/bin
// RUN: echo "#!/bin/sh" > %t/false/llvm/bin/ld.lld && echo "exit 1" >> %t/false/llvm/bin/ld.lld && chmod +x %t/false/llvm/bin/ld.lld
// RUN: not hcq-opt %s --split-input-file --gpu-module-to-binary="toolkit=%t/false" 2>&1 | FileCheck %s --check-prefix=FAILS
// RUN: not hcq-opt %s --split-input-file --hcq-attach-host-target="O=4" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not hcq-opt %s --split-input-file --hcq-attach-host-target="module=(" 2>&1 | FileCheck %s --check-prefix=REGEX

// Tests that a kernel the host target compiles is refused without an
// offload format (the host has none) and without an ld.lld, and that the
// attach pass refuses a bad optimization level or regex; a failing ld.lld
// is reported.
// OFFLOAD-LABEL: error: the host target has no offload format: use format=bin or isa
// LLD-LABEL: error: the host target needs ld.lld: {{.*}}nowhere/llvm/bin/ld.lld is not an executable
// FAILS-LABEL: error: ld.lld failed to link the host object
// OPT-LABEL: host-target-invalid.mlir:0:0: error: hcq-attach-host-target: O=4 is not 0, 1, 2 or 3
// REGEX-LABEL: host-target-invalid.mlir:0:0: error: hcq-attach-host-target: module regex '(' is invalid
gpu.module @fine [#hcq.host_target] {
  gpu.func @k(%m: memref<4xi32>) kernel
      attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %c = arith.index_cast %i : index to i32
    memref.store %c, %m[%i] : memref<4xi32>
    gpu.return
  }
}

// -----

// Tests that gpu.barrier outside a kernel (in a helper it calls) is
// refused, naming the op: a work-item suspends at a barrier only in the
// kernel's own body.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @barrier [#hcq.host_target] {
  func.func @helper() {
    // expected-error@+1 {{'gpu.barrier' op is outside a gpu.func kernel: the host target suspends a work-item at a barrier only in the kernel's own body}}
    gpu.barrier
    return
  }
  gpu.func @k() kernel attributes {known_block_size = array<i32: 2, 1, 1>} {
    func.call @helper() : () -> ()
    gpu.barrier
    gpu.return
  }
}

// -----

// Tests that workgroup memory the host target cannot place is refused: a
// kernel argument in address space 3 (the host makes workgroup memory per
// workgroup, nobody passes it in), a workgroup attribution of dynamic shape
// (naming the gpu.func), and memrefs in another memory space (global,
// private) in an op and a helper's argument.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @workgroup [#hcq.host_target] {
  // expected-error@+1 {{'func.func' op has a block argument of type 'memref<4xf32, #gpu.address_space<private>>': the host target supports the default memory space and workgroup memory only}}
  func.func @helper(%m: memref<4xf32, #gpu.address_space<private>>) {
    return
  }
  // expected-error@+2 {{'gpu.func' op argument 0 is 'memref<4xf32, 3>': the host target takes statically shaped, contiguous memrefs}}
  // expected-error@+1 {{'gpu.func' op workgroup attribution 0 is 'memref<?xf32, #gpu.address_space<workgroup>>': the host target takes statically shaped, contiguous ones}}
  gpu.func @k(%shared: memref<4xf32, 3>)
      workgroup(%w : memref<?xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %i = gpu.thread_id x
    %v = memref.load %shared[%i] : memref<4xf32, 3>
    %c = memref.cast %shared : memref<4xf32, 3> to memref<?xf32, 3>
    // expected-error@+1 {{'memref.memory_space_cast' op uses 'memref<4xf32, #gpu.address_space<global>>': the host target supports the default memory space and workgroup memory only}}
    %g = memref.memory_space_cast %shared : memref<4xf32, 3> to memref<4xf32, #gpu.address_space<global>>
    gpu.return
  }
}

// -----

// Tests that gpu.shuffle, gpu.subgroup_reduce and gpu.all_reduce are
// refused, naming them: work-items are not in lock-step on the host.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @subgroups [#hcq.host_target] {
  gpu.func @k(%x: f32) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %offset = arith.constant 1 : i32
    %width = arith.constant 32 : i32
    // expected-error@+1 {{'gpu.shuffle' op is not supported by the host target: work-items run one after the other, not in subgroups}}
    %s, %valid = gpu.shuffle xor %x, %offset, %width : f32
    // expected-error@+1 {{'gpu.subgroup_reduce' op is not supported by the host target: work-items run one after the other, not in subgroups}}
    %r = gpu.subgroup_reduce add %x : (f32) -> f32
    // expected-error@+1 {{'gpu.all_reduce' op is not supported by the host target: work-items run one after the other, not in subgroups}}
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    gpu.return
  }
}

// -----

// Tests that memref.atomic_rmw of a kind with no atomic instruction and
// memref.generic_atomic_rmw (upstream's lowering leaves both unconverted)
// are refused, naming the op (and the kind); addf compiles.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @atomics [#hcq.host_target] {
  gpu.func @k(%m: memref<4xf32>, %x: f32) kernel
      attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %sum = memref.atomic_rmw addf %x, %m[%c0] : (f32, memref<4xf32>) -> f32
    // expected-error@+1 {{'memref.atomic_rmw' op of kind mulf is not supported by the host target: the LLVM dialect has no atomic instruction for it}}
    %product = memref.atomic_rmw mulf %x, %m[%c0] : (f32, memref<4xf32>) -> f32
    // expected-error@+1 {{'memref.generic_atomic_rmw' op is not supported by the host target: use memref.atomic_rmw}}
    %generic = memref.generic_atomic_rmw %m[%c0] : memref<4xf32> {
    ^bb0(%current: f32):
      %twice = arith.addf %current, %current : f32
      memref.atomic_yield %twice : f32
    }
    gpu.return
  }
}

// -----

// Tests that private attributions are refused, naming the op.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @private [#hcq.host_target] {
  // expected-error@+1 {{'gpu.func' op has private attributions: not supported by the host target}}
  gpu.func @k() private(%p : memref<4xf32, #gpu.address_space<private>>)
      kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
}

// -----

// Tests that a kernel without known_block_size, a non-positive one, and
// gpu.grid_dim without known_grid_size are refused: hcq's CPU kernel ABI
// passes neither size.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @sizes [#hcq.host_target] {
  // expected-error@+1 {{'gpu.func' op has no known_block_size: the host target runs a workgroup's work-items in a loop whose bounds are compiled in}}
  gpu.func @unknown() kernel {
    gpu.return
  }
  // expected-error@+1 {{'gpu.func' op has a known_block_size that is not positive}}
  gpu.func @zero() kernel attributes {known_block_size = array<i32: 0, 1, 1>} {
    gpu.return
  }
  gpu.func @grid() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    // expected-error@+1 {{'gpu.grid_dim' op needs the grid size, which hcq's CPU kernel ABI does not pass: give the kernel a known_grid_size}}
    %g = gpu.grid_dim x
    gpu.return
  }
}

// -----

// Tests that an op outside the supported set, a non-kernel gpu.func, a
// work-item id outside a kernel, a memref argument that is not a static,
// contiguous memref and an external function are refused, each named.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @others [#hcq.host_target] {
  // expected-error@+1 {{'func.func' op is a declaration: the host target's object links nothing in}}
  func.func private @external(f32) -> f32
  func.func @helper() -> index {
    // expected-error@+1 {{'gpu.thread_id' op is outside a gpu.func kernel: the host target knows work-item ids only in kernels}}
    %i = gpu.thread_id x
    return %i : index
  }
  // expected-error@+1 {{'gpu.func' op is no kernel: the host target compiles gpu.func kernels and func.func helpers}}
  gpu.func @device() {
    gpu.return
  }
  // expected-error@+1 {{'gpu.func' op argument 0 is 'memref<?xf32>': the host target takes statically shaped, contiguous memrefs in the default memory space (as pointers) and integers, index, f32 or f64 (as 64-bit words)}}
  gpu.func @k(%m: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 1, 1, 1>} {
    // expected-error@+1 {{'memref.alloca' op is not supported by the host target (it compiles arith, math, scf, cf, func, memref loads, stores, views and atomics, and gpu.thread_id, block_id, block_dim, grid_dim, global_id and barrier)}}
    %a = memref.alloca() : memref<4xf32>
    gpu.return
  }
}

// -----

// Tests that what the checks accept but upstream's lowering to the LLVM
// dialect does not (a helper taking a dynamically shaped memref, which
// bare-pointer memrefs cannot carry) is refused, not miscompiled.
// expected-error@+2 {{could not lower to the LLVM dialect for the host target}}
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @lowering [#hcq.host_target] {
  func.func @helper(%m: memref<?xf32>) {
    return
  }
  gpu.func @k(%m: memref<4xf32>) kernel
      attributes {known_block_size = array<i32: 1, 1, 1>} {
    %d = memref.cast %m : memref<4xf32> to memref<?xf32>
    // expected-error@+1 {{'llvm.call' op 'helper' does not reference a valid LLVM function}}
    func.call @helper(%d) : (memref<?xf32>) -> ()
    gpu.return
  }
}

// -----

// Tests that an optimization level past 3 is refused.
// expected-error@+1 {{optimization level 4 is not 0, 1, 2 or 3}}
gpu.module @bad_level [#hcq.host_target<O = 4>] {
}

// -----

// Tests that a triple LLVM has no target for is refused.
// expected-error@+2 {{the host target has no LLVM target for 'bogus-unknown-linux'}}
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @bad_triple [#hcq.host_target<triple = "bogus-unknown-linux">] {
}

// -----

// Tests that names the host target gives its own functions are refused.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @reserved [#hcq.host_target] {
  // expected-error@+1 {{'func.func' op is named '__hcq_host_body_k', a name the host target gives its own functions (__hcq_host_*, hcq_twin_*)}}
  func.func @__hcq_host_body_k() {
    return
  }
  // expected-error@+1 {{'gpu.func' op is named 'hcq_twin_k', a name the host target gives its own functions (__hcq_host_*, hcq_twin_*)}}
  gpu.func @hcq_twin_k() kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
    gpu.return
  }
}

// -----

// Tests that in a module lowered for ROCDL (what convert-gpu-to-rocdl leaves
// for a #rocdl.target beside the host target) a barrier outside a kernel,
// globals other than workgroup memory (a device constant, workgroup memory
// with an initial value), the address of anything else and a pointer into
// private memory (address space 5) are refused, naming the op; the
// kernel's barrier, workgroup global and atomics compile.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @lowered_sync [#hcq.host_target] {
  llvm.mlir.global internal @shared() {addr_space = 3 : i32} : !llvm.array<4 x f32>
  // expected-error@+1 {{'llvm.mlir.global' op is not supported by the host target: of globals it compiles workgroup memory (address space 3, no initial value) only}}
  llvm.mlir.global internal constant @table(dense<1.0> : tensor<4xf32>) {addr_space = 4 : i32} : !llvm.array<4 x f32>
  // expected-error@+1 {{'llvm.mlir.global' op is not supported by the host target: of globals it compiles workgroup memory (address space 3, no initial value) only}}
  llvm.mlir.global internal @zeroed(0 : i32) {addr_space = 3 : i32} : i32
  llvm.func @helper() {
    // expected-error@+1 {{'rocdl.barrier' op is outside a kernel: the host target suspends a work-item at a barrier only in the kernel's own body}}
    rocdl.barrier
    llvm.return
  }
  llvm.func @k(%p: !llvm.ptr, %x: f32) attributes {gpu.kernel, gpu.known_block_size = array<i32: 4, 1, 1>} {
    rocdl.barrier
    %old = llvm.atomicrmw fadd %p, %x syncscope("agent") monotonic : !llvm.ptr, f32
    %s = llvm.mlir.addressof @shared : !llvm.ptr<3>
    %v = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> f32
    // expected-error@+1 {{'llvm.mlir.addressof' op is not supported by the host target: it takes the address of workgroup memory (an address space 3 global) only}}
    %f = llvm.mlir.addressof @helper : !llvm.ptr
    %one = llvm.mlir.constant(1 : i32) : i32
    // expected-error@+1 {{'llvm.alloca' op uses '!llvm.ptr<5>', a pointer in address space 5: the host target supports address spaces 0 and 3 (workgroup memory) only}}
    %private = llvm.alloca %one x f32 : (i32) -> !llvm.ptr<5>
    llvm.return
  }
}

// -----

// Tests that in a module lowered for ROCDL a kernel without
// gpu.known_block_size, rocdl.grid.dim without gpu.known_grid_size, a work-item
// id outside a kernel, a declaration (a device library function that is no
// math function the host target provides, or is one of the wrong type), an
// argument in another address space, another rocdl op and an op of another
// dialect are refused, each named.
// expected-error@+1 {{An error happened while serializing the module}}
gpu.module @lowered_others [#hcq.host_target] {
  // expected-error@+1 {{'llvm.func' op is a declaration: the host target's object links nothing in (of the AMD device library it provides the math functions __ocml_<name>_f32 and _f64 for acos, acosh,}}
  llvm.func @__ocml_pown_f32(f32, i32) -> f32
  // expected-error@+1 {{'llvm.func' op is a declaration}}
  llvm.func @__ocml_exp_f32(f64) -> f64
  llvm.func @helper() -> i32 {
    // expected-error@+1 {{'rocdl.workitem.id.x' op is outside a kernel: the host target knows work-item ids only in kernels}}
    %i = rocdl.workitem.id.x : i32
    llvm.return %i : i32
  }
  // expected-error@+1 {{'llvm.func' op has no positive gpu.known_block_size: the host target runs a workgroup's work-items in a loop whose bounds are compiled in}}
  llvm.func @unknown() attributes {gpu.kernel} {
    llvm.return
  }
  // expected-error@+1 {{'llvm.func' op argument 0 is '!llvm.ptr<1>': the host target takes pointers in address space 0 and integers, f32 or f64 (as 64-bit words)}}
  llvm.func @k(%global: !llvm.ptr<1>, %x: f32) attributes {gpu.kernel, gpu.known_block_size = array<i32: 1, 1, 1>} {
    // expected-error@+1 {{'rocdl.grid.dim.x' op needs the grid size, which hcq's CPU kernel ABI does not pass: give the kernel a known_grid_size}}
    %g = rocdl.grid.dim.x : i32
    // expected-error@+1 {{'rocdl.ds_swizzle' op is not supported by the host target (of the rocdl dialect it compiles the work-item, workgroup, block and grid ids and sizes and the barriers rocdl.barrier and rocdl.s.barrier)}}
    %s = rocdl.ds_swizzle %g, %g : (i32, i32) -> i32
    // expected-error@+1 {{'arith.addf' op is not supported by the host target: a module lowered for ROCDL compiles for the host from the llvm and rocdl dialects}}
    %y = arith.addf %x, %x : f32
    llvm.return
  }
}

