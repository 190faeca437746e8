// RUN: hcq-opt %s -split-input-file --convert-gpu-to-hcq -verify-diagnostics

// Tests that a grid size must be a constant.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %g = arith.index_cast %n : i32 to index
    // expected-error @+1 {{'gpu.launch_func' op has a grid size that is no positive constant: an hcq schedule's grid is fixed when it is compiled}}
    gpu.launch_func @k::@inc blocks in (%g, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a kernel still in a gpu.module is refused, saying what to run.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%a: memref<64xi32>) kernel {
      gpu.return
    }
  }
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op launches a kernel of gpu.module @k, which is not compiled: run gpu-module-to-binary first}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a binary with objects for several chips needs `chip`.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op gpu.binary @k has objects for gfx1100, gfx942: choose one with 'chip'}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a binary without an AMD object is refused.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op gpu.binary @k has no #rocdl.target object}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that LLVM IR (offload format) is no code object.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, offload = "BC">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op gpu.binary @k holds offload, not a code object: compile it with format=bin or fatbin}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a kernel without metadata is refused.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op gpu.binary @k has no metadata for kernel @inc (gpu-module-to-binary records it)}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a kernel compiled with memref descriptors (not bare pointers)
// is refused, saying how to compile it.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, ptr, i64, i64, i64)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op kernel @inc is !llvm.func<void (ptr, ptr, i64, i64, i64)>: hcq kernels take 1 buffer pointers first, then 0 i32 or f32 scalars (compile memrefs with use-bare-ptr-memref-call-conv=1)}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a scalar before a buffer is refused.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (i32, ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op passes a memref after a scalar: hcq kernels take their buffers first}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32, %a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a scalar must be an i32 argument of the function (a bound
// variable) or a constant, not a value computed in it.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>, %m: i32) {
    %c1 = arith.constant 1 : index
    %n = arith.addi %m, %m : i32
    // expected-error @+1 {{'gpu.launch_func' op passes a scalar that is neither an i32 / f32 argument of the function nor a constant: hcq kernel scalars are the schedule's bound variables or constants}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %n : i32)
    return
  }
}

// -----

// Tests that dynamically sized allocations are refused.
module attributes {gpu.container_module} {
  func.func @f(%i: i32) {
    %n = arith.index_cast %i : i32 to index
    // expected-error @+1 {{'gpu.alloc' op has dynamic sizes: hcq buffers are statically sized}}
    %t = gpu.alloc (%n) : memref<?xf32>
    return
  }
}

// -----

// Tests that memrefs that are not statically shaped and contiguous are
// refused at the function.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op uses 'memref<?xf32>', which is no statically shaped, contiguous memref of whole-byte integers or floats: hcq buffers are}}
  func.func @f(%a: memref<?xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}

// -----

// Tests that an op the schedule cannot hold is refused by name.
module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    %c0 = arith.constant 0.0 : f32
    // expected-error @+1 {{'gpu.memset' op cannot be converted to hcq: a schedule holds kernel launches, copies and allocations}}
    gpu.memset %t, %c0 : memref<4xf32>, f32
    return
  }
}

// -----

// Tests that a function returning values is refused.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op returns values: an hcq schedule returns nothing (pass outputs as memref arguments)}}
  func.func @f(%a: memref<4xf32>) -> i32 {
    %t = gpu.alloc () : memref<4xf32>
    %c = arith.constant 0 : i32
    return %c : i32
  }
}

// -----

// Tests that a bad `hcq.device` attribute is reported.
module attributes {gpu.container_module} {
  // expected-error @+1 {{unknown device kind 'GPU'}}
  func.func @f(%a: memref<4xf32> {hcq.device = "GPU:0"}) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}
