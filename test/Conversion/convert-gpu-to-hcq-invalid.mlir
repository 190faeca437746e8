// RUN: hcq-opt %s -split-input-file --convert-gpu-to-hcq -verify-diagnostics
// The conversion's own checks, without the pass manager's verifier after it:
// RUN: hcq-opt %s -split-input-file --convert-gpu-to-hcq --verify-each=0 -verify-diagnostics
// RUN: not hcq-opt %s -split-input-file --convert-gpu-to-hcq=device=CPU:0 2>&1 | FileCheck %s --check-prefix=ONCPU

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

// Tests that a code object for a chip hcq does not encode for (gfx1030) is
// refused in the conversion, naming the chip and the chips hcq supports,
// not later by hcq-encode as a number from its ELF header.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1030">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op gpu.binary @k's code object is for gfx1030, which hcq does not encode for: compile the gpu.module for gfx1100, gfx1101, gfx1102 or gfx942 (rocdl-attach-target's chip)}}
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

// -----

// Tests that a bad `hcq.device` attribute on a gpu.alloc is reported.
module attributes {gpu.container_module} {
  func.func @f() {
    // expected-error @+1 {{unknown device kind 'GPU'}}
    %t = gpu.alloc () {hcq.device = "GPU:1"} : memref<4xf32>
    return
  }
}

// -----

// Size arithmetic (issue 39): the conversion builds buffer types with their
// checked getter and fails, naming the value, rather than emit a type the
// verifier refuses (a wrapped or zero size); its output always verifies.

// Tests that (size arithmetic) a memref whose element count wraps int64
// (2^64 elements, 0 when wrapped) is refused, naming the argument.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op argument 0 is 'memref<4294967296x4294967296xf32>', whose element count does not fit a signed 64-bit integer}}
  func.func @f(%a: memref<4294967296x4294967296xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}

// -----

// Tests that (size arithmetic) a memref without elements, which would be a
// zero-byte !hcq.buffer<0xf32>, is refused, naming the argument.
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op argument 1 is 'memref<0xf32>', which has no elements: an hcq buffer has at least one}}
  func.func @f(%a: memref<4xf32>, %b: memref<0xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}

// -----

// Tests that (size arithmetic) a gpu.alloc without elements is refused.
module attributes {gpu.container_module} {
  func.func @f() {
    // expected-error @+1 {{'gpu.alloc' op its result is 'memref<4x0xf32>', which has no elements: an hcq buffer has at least one}}
    %t = gpu.alloc () : memref<4x0xf32>
    return
  }
}

// -----

// Tests that (size arithmetic) a memref whose element count fits but whose
// byte size overflows is refused by the buffer type's verifier, through
// the conversion's checked getter, naming the value; the gpu.memcpy of it
// never becomes an hcq.copy of a wrapped size ("destination size must be
// positive, got -4").
module attributes {gpu.container_module} {
  // expected-error @+1 {{'func.func' op argument 0 is 'memref<4611686018427387903xf32>': buffer of 4611686018427387903 elements of 'f32' has a byte size that does not fit a signed 64-bit integer}}
  func.func @f(%a: memref<4611686018427387903xf32>, %b: memref<4611686018427387903xf32>) {
    gpu.memcpy %b, %a : memref<4611686018427387903xf32>, memref<4611686018427387903xf32>
    return
  }
}

// -----

// Tests that (size arithmetic) a grid dimension above 32 bits fails the
// conversion with hcq.launch's verifier error at the launch: the output
// is verified, never left invalid or encoded truncated.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %big = arith.constant 4294967296 : index
    // expected-error @+1 {{'hcq.launch' op global size 4294967296 is more than the 4294967295 a dimension can have}}
    gpu.launch_func @k::@inc blocks in (%big, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that (size arithmetic) a block of more than 1024 work-items fails
// the conversion at the launch, though each dimension is within bounds.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    // expected-error @+1 {{'hcq.launch' op local size [64, 64, 1] is 4096 work-items per workgroup, more than the 1024 a workgroup can have}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c64, %c64, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a launch of an AMD-only kernel (a gpu.binary has no host
// object) whose memrefs are on a CPU device is refused in the conversion,
// naming the kernel, not later by hcq-encode.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32> {hcq.device = "CPU:0"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op launches @k::@inc on CPU:0, but the kernel has only AMD code objects and no host code: put its memrefs on an AMD device (the pass's 'device' option or an argument's 'hcq.device')}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that the pass's device option set to a CPU device refuses,
// naming the kernel, the launch of an AMD-only kernel on memrefs it puts
// there (the second RUN line); with the default device, AMD 0, the same
// input converts.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"amd_only", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // ONCPU: convert-gpu-to-hcq-invalid.mlir:[[#@LINE+1]]:{{[0-9]+}}: error: 'gpu.launch_func' op launches @k::@amd_only on CPU:0, but the kernel has only AMD code objects and no host code
    gpu.launch_func @k::@amd_only blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that an index scalar that is no constant is refused for its type,
// saying what hcq kernel scalars are.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %i = arith.index_cast %n : i32 to index
    // expected-error @+1 {{'gpu.launch_func' op passes scalar #0 of type 'index': hcq kernel scalars are i32 or f32 (or index constants, passed as i32)}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %i : index)
    return
  }
}

// -----

// Tests that (size arithmetic) an index constant that does not fit the i32
// scalar it is passed as is refused, not truncated.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %big = arith.constant 4294967296 : index
    // expected-error @+1 {{'gpu.launch_func' op passes the index constant 4294967296 as scalar #0, which does not fit the i32 an hcq kernel scalar is}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %big : index)
    return
  }
}

// -----

// Tests that a launch on a CPU device of a kernel the binary's host object
// lacks keeps the diagnostic of a binary without one, saying how to get
// host code.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">, #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"other", (memref<64xi32>) -> (), metadata = {block_size = array<i32: 1, 1, 1>}>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32> {hcq.device = "CPU:0"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op launches @k::@inc on CPU:0, but the kernel has only AMD code objects and no host code: put its memrefs on an AMD device (the pass's 'device' option or an argument's 'hcq.device'), or compile its gpu.module for #hcq.host_target too (hcq-attach-host-target)}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that host code compiled for another block size than the launch's is
// refused, on a CPU device and as an AMD kernel's twin alike: it runs the
// block it was compiled for.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">, #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"inc", (memref<64xi32>) -> (), metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF">]
  func.func @f(%c: memref<64xi32> {hcq.device = "CPU:0"}, %a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    // expected-error @+1 {{'gpu.launch_func' op launches @k::@inc with blocks of [32, 1, 1] work-items, but its host code was compiled for known_block_size [64, 1, 1]}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%c : memref<64xi32>)
    // expected-error @+1 {{'gpu.launch_func' op launches @k::@inc with blocks of [32, 1, 1] work-items, but its host code was compiled for known_block_size [64, 1, 1]}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that each launch's block is checked, not only the first launch's of
// a kernel.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"inc", (memref<64xi32>) -> (), metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF">]
  func.func @f(%c: memref<64xi32> {hcq.device = "CPU:0"}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%c : memref<64xi32>)
    // expected-error @+1 {{'gpu.launch_func' op launches @k::@inc with blocks of [1, 1, 1] work-items, but its host code was compiled for known_block_size [64, 1, 1]}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%c : memref<64xi32>)
    return
  }
}

// -----

// Tests that host code whose signature is not hcq's (a scalar where the
// launch passes a buffer) is refused.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"inc", (i32) -> (), metadata = {block_size = array<i32: 1, 1, 1>}>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32> {hcq.device = "CPU:0"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op kernel @inc's host code is '(i32) -> ()': hcq kernels take 1 buffers first, then 0 i32 or f32 scalars}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a host object compiled as assembly (format=isa) is no host
// code to call.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"inc", (memref<64xi32>) -> (), metadata = {block_size = array<i32: 1, 1, 1>}>]>, assembly = "inc:">]
  func.func @f(%a: memref<64xi32> {hcq.device = "CPU:0"}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op gpu.binary @k's host object holds assembly, not a shared object: compile it with format=bin}}
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that (found by hcq-fuzz-gpu-conversion) a code object that is not an
// ELF file fails the conversion at the launch, with the kernel verifier's
// reason, rather than leaving an hcq.kernel that does not verify.
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"amd_only", !llvm.func<void (ptr)>>]>, bin = "\6FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'hcq.kernel' op amd kernel 'code_object' is not an ELF file (bad magic)}}
    gpu.launch_func @k::@amd_only blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
