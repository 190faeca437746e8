// RUN: hcq-opt %s -split-input-file --convert-gpu-to-hcq="chip=gfx1100" | FileCheck %s
// RUN: hcq-opt %s -split-input-file --convert-gpu-to-hcq="chip=gfx1100 device=AMD:1" | FileCheck %s --check-prefix=DEV
// RUN: hcq-opt %s -split-input-file --convert-gpu-to-hcq="chip=gfx942" | FileCheck %s --check-prefix=CHIP

// Tests that a function launching a kernel of a gpu.binary becomes a
// schedule: memref arguments buffers on the device, i32 arguments bound
// variables, the grid (`blocks in`) global and the block (`threads in`)
// local, the kernel an hcq.kernel amd referring to the object's code, a
// resource blob (its buffers readwrite, its scalars vars), and the binary
// gone.
// CHECK-LABEL: hcq.kernel @k_vadd amd (readwrite f32, readwrite f32, readwrite f32) vars 1 symbol "vadd" code_object dense_resource<k_gfx1100> : tensor<12xi8>
// CHECK-LABEL: hcq.schedule @launch(
// CHECK-SAME: %[[A:.*]]: !hcq.buffer<256xf32, AMD:0>, %[[B:.*]]: !hcq.buffer<256xf32, AMD:0>, %[[N:.*]]: i32)
// CHECK-NEXT: hcq.launch @k_vadd(%[[A]], %[[B]], %[[B]] : !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>) vars(%[[N]] : i32) global [4, 2, 1] local [64, 1, 1]
// CHECK-NEXT: }
// CHECK-NOT: gpu.binary
// CHECK: k_gfx1100: "0x08000000{{.*}}"
// DEV-LABEL: hcq.schedule @launch(
// DEV-SAME: !hcq.buffer<256xf32, AMD:1>
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"vadd", !llvm.func<void (ptr, ptr, ptr, i32)>>]>, bin = "\7FELF-gfx1100">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"vadd", !llvm.func<void (ptr, ptr, ptr, i32)>>]>, bin = "\7FELF-gfx942">]
  func.func @launch(%a: memref<256xf32>, %b: memref<256xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @k::@vadd blocks in (%c4, %c2, %c1) threads in (%c64, %c1, %c1) args(%a : memref<256xf32>, %b : memref<256xf32>, %b : memref<256xf32>, %n : i32)
    return
  }
}

// -----

// Tests that gpu.alloc becomes an hcq.alloc, gpu.memcpy a copy of the whole
// memref, and gpu.wait, gpu.dealloc and async tokens go: the schedule keeps
// program order, which respects every token.
// CHECK-LABEL: hcq.schedule @tokens(
// CHECK-SAME: %[[A:[a-z0-9]+]]: !hcq.buffer<64xi32, AMD:0>, %[[OUT:[a-z0-9]+]]: !hcq.buffer<64xi32, AMD:0>)
// CHECK-NEXT: %[[T:.*]] = hcq.alloc : !hcq.buffer<64xi32, AMD:0>
// CHECK-NEXT: hcq.copy %[[T]][0, 256], %[[A]][0, 256] : !hcq.buffer<64xi32, AMD:0>, !hcq.buffer<64xi32, AMD:0>
// CHECK-NEXT: hcq.launch @k_inc(%[[T]] : !hcq.buffer<64xi32, AMD:0>) global [1, 1, 1] local [64, 1, 1]
// CHECK-NEXT: hcq.copy %[[OUT]][0, 256], %[[T]][0, 256]
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF-inc">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF-inc">]
  func.func @tokens(%a: memref<64xi32>, %out: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t, %t1 = gpu.alloc async [%t0] () : memref<64xi32>
    %t2 = gpu.memcpy async [%t1] %t, %a : memref<64xi32>, memref<64xi32>
    %t3 = gpu.launch_func async [%t2] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%t : memref<64xi32>)
    %t4 = gpu.memcpy async [%t3] %out, %t : memref<64xi32>, memref<64xi32>
    %t5 = gpu.dealloc async [%t4] %t : memref<64xi32>
    gpu.wait [%t5]
    return
  }
}

// -----

// Tests that an argument's `hcq.device` puts its buffer on that device: a
// host input copied to the GPU.
// CHECK-LABEL: hcq.schedule @host_input(
// CHECK-SAME: !hcq.buffer<16xf32, CPU:0>, %{{.*}}: !hcq.buffer<16xf32, AMD:0>)
// CHECK-NEXT: hcq.copy %{{.*}}[0, 64], %{{.*}}[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, CPU:0>
module attributes {gpu.container_module} {
  func.func @host_input(%h: memref<16xf32> {hcq.device = "CPU:0"}, %d: memref<16xf32>) {
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    return
  }
}

// -----

// Tests that a `gpu.alloc`'s `hcq.device` puts its buffer on that device,
// and that an allocation without one stays on the pass's device: a buffer
// moved from one GPU to another.
// CHECK-LABEL: hcq.schedule @alloc_device(
// CHECK-NEXT: %[[A0:.*]] = hcq.alloc : !hcq.buffer<16xf32, AMD:0>
// CHECK-NEXT: %[[A1:.*]] = hcq.alloc : !hcq.buffer<16xf32, AMD:1>
// CHECK-NEXT: hcq.copy %[[A0]][0, 64], %{{.*}}[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, CPU:0>
// CHECK-NEXT: hcq.copy %[[A1]][0, 64], %[[A0]][0, 64] : !hcq.buffer<16xf32, AMD:1>, !hcq.buffer<16xf32, AMD:0>
// CHECK-NEXT: hcq.copy %{{.*}}[0, 64], %[[A1]][0, 64] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, AMD:1>
// DEV-LABEL: hcq.schedule @alloc_device(
// DEV-NEXT: hcq.alloc : !hcq.buffer<16xf32, AMD:1>
// DEV-NEXT: hcq.alloc : !hcq.buffer<16xf32, AMD:1>
module attributes {gpu.container_module} {
  func.func @alloc_device(%h: memref<16xf32> {hcq.device = "CPU:0"}) {
    %a0 = gpu.alloc () : memref<16xf32>
    %a1 = gpu.alloc () {hcq.device = "AMD:1"} : memref<16xf32>
    gpu.memcpy %a0, %h : memref<16xf32>, memref<16xf32>
    gpu.memcpy %a1, %a0 : memref<16xf32>, memref<16xf32>
    gpu.memcpy %h, %a1 : memref<16xf32>, memref<16xf32>
    return
  }
}

// -----

// Tests that `chip` picks the object of a multi-chip binary, and that one
// hcq.kernel serves every launch of a kernel.
// CHIP-LABEL: hcq.kernel @k2_inc amd (readwrite i32) symbol "inc" code_object dense_resource<k2_gfx942> : tensor<15xi8>
// CHIP-NOT: hcq.kernel @k2_inc
// CHIP-LABEL: hcq.schedule @two_chips
// CHIP: hcq.launch @k2_inc
// CHIP: hcq.launch @k2_inc
module attributes {gpu.container_module} {
  gpu.binary @k2 [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF-for-gfx1100">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF-for-gfx942">]
  func.func @two_chips(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k2::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    gpu.launch_func @k2::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a constant scalar goes along into the schedule (hcq folds it
// into the kernel arguments).
// CHECK-LABEL: hcq.schedule @constant_scalar(
// CHECK-NEXT: %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT: hcq.launch @k3_inc(%{{.*}} : !hcq.buffer<64xi32, AMD:0>) vars(%[[C]] : i32)
module attributes {gpu.container_module} {
  gpu.binary @k3 [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">]
  func.func @constant_scalar(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : i32
    gpu.launch_func @k3::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %c7 : i32)
    return
  }
}

// -----

// Tests that an index constant passed to a kernel's i32 scalar goes in as
// that i32 constant (the kernel's signature says i32; hcq kernel scalars
// are i32 or f32), not refused as "neither an argument nor a constant".
// CHECK-LABEL: hcq.schedule @index_scalar(
// CHECK-NEXT: %[[C:.*]] = arith.constant -7 : i32
// CHECK-NEXT: hcq.launch @k5_inc(%{{.*}} : !hcq.buffer<64xi32, AMD:0>) vars(%[[C]] : i32)
// CHECK-NOT: index
// CHECK: }
module attributes {gpu.container_module} {
  gpu.binary @k5 [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">]
  func.func @index_scalar(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c = arith.constant -7 : index
    gpu.launch_func @k5::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %c : index)
    return
  }
}

// -----

// Tests that kernels of one code object refer to one resource blob: the
// bytes are stored once however many kernels the object holds.
// CHECK-LABEL: hcq.kernel @k4_b amd (readwrite i32) symbol "b" code_object dense_resource<k4_gfx1100> : tensor<8xi8>
// CHECK-NEXT: hcq.kernel @k4_a amd (readwrite i32) symbol "a" code_object dense_resource<k4_gfx1100> : tensor<8xi8>
// CHECK: dialect_resources
// CHECK-NEXT: builtin: {
// CHECK-NEXT: k4_gfx1100: "0x08000000{{.*}}"
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  gpu.binary @k4 [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"a", !llvm.func<void (ptr)>>, #gpu.kernel_metadata<"b", !llvm.func<void (ptr)>>]>, bin = "\7FELF-a+b">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"a", !llvm.func<void (ptr)>>, #gpu.kernel_metadata<"b", !llvm.func<void (ptr)>>]>, bin = "\7FELF-a+b">]
  func.func @one_object(%x: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k4::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xi32>)
    gpu.launch_func @k4::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xi32>)
    return
  }
}

// -----

// Tests that a binary with a host object (#hcq.host_target's) gives a launch
// on a CPU device a cpu kernel of it (the symbol, the object as a resource
// blob; local size [1, 1, 1]: the host code runs the block of 64 it was
// compiled for once per workgroup) and the AMD kernel the same blob as its
// CPU twin, stored once; a kernel the host object lacks stays AMD code
// alone.
// CHECK-LABEL: hcq.kernel @kh_other amd (readwrite i32) symbol "other" code_object dense_resource<kh_gfx1100> : tensor<8xi8>{{$}}
// CHECK-NEXT: hcq.kernel @kh_inc amd (readwrite i32) vars 1 symbol "inc" code_object dense_resource<kh_gfx1100> : tensor<8xi8> host_object dense_resource<kh_host> : tensor<9xi8>
// CHECK-NEXT: hcq.kernel @kh_inc_cpu cpu (readwrite i32) vars 1 symbol "inc" host_object dense_resource<kh_host> : tensor<9xi8>
// CHECK-LABEL: hcq.schedule @host(
// CHECK-SAME: %[[C:.*]]: !hcq.buffer<64xi32, CPU:0>, %[[A:.*]]: !hcq.buffer<64xi32, AMD:0>, %[[N:.*]]: i32)
// CHECK-NEXT: hcq.launch @kh_inc_cpu(%[[C]] : !hcq.buffer<64xi32, CPU:0>) vars(%[[N]] : i32) global [2, 1, 1] local [1, 1, 1]
// CHECK-NEXT: hcq.launch @kh_inc(%[[A]] : !hcq.buffer<64xi32, AMD:0>) vars(%[[N]] : i32) global [2, 1, 1] local [32, 1, 1]
// CHECK-NEXT: hcq.launch @kh_other(%[[A]] : !hcq.buffer<64xi32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
// CHECK: kh_host: "0x08000000{{.*}}"
module attributes {gpu.container_module} {
  gpu.binary @kh [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>, #gpu.kernel_metadata<"other", !llvm.func<void (ptr)>>]>, bin = "\7FELF-inc">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>, #gpu.kernel_metadata<"other", !llvm.func<void (ptr)>>]>, bin = "\7FELF-inc">, #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"inc", (memref<64xi32>, i32) -> (), metadata = {block_size = array<i32: 32, 1, 1>}>]>, bin = "\7FELF-host">]
  func.func @host(%c: memref<64xi32> {hcq.device = "CPU:0"}, %a: memref<64xi32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kh::@inc blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%c : memref<64xi32>, %n : i32)
    gpu.launch_func @kh::@inc blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<64xi32>, %n : i32)
    gpu.launch_func @kh::@other blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}

// -----

// Tests that a binary of host code alone serves launches on CPU devices,
// kernels lowered for ROCDL (an LLVM function type) as well, with no AMD
// object or chip needed.
// CHECK-LABEL: hcq.kernel @ko_scale_cpu cpu (readwrite f32, readwrite f32) vars 1 symbol "scale" host_object dense_resource<ko_host>
// CHECK-LABEL: hcq.schedule @host_only(
// CHECK-NEXT: hcq.launch @ko_scale_cpu({{.*}}) vars({{.*}} : f32) global [4, 1, 1] local [1, 1, 1]
module attributes {gpu.container_module} {
  gpu.binary @ko [#gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"scale", !llvm.func<void (ptr, ptr, f32)>, metadata = {block_size = array<i32: 16, 1, 1>}>]>, bin = "\7FELF-host">]
  func.func @host_only(%x: memref<64xf32> {hcq.device = "CPU:0"}, %y: memref<64xf32> {hcq.device = "CPU:0"}, %s: f32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @ko::@scale blocks in (%c4, %c1, %c1) threads in (%c16, %c1, %c1) args(%x : memref<64xf32>, %y : memref<64xf32>, %s : f32)
    return
  }
}

// -----

// Tests that each buffer's access is what the host object's kernel table
// says (the hcq.access #hcq.host_target inferred from the kernel's body),
// for the AMD kernel too, and readwrite where it says nothing it knows; and
// that arguments named in the source (a NameLoc, as --mlir-print-debuginfo
// prints and a compiler's builder sets) keep their names, unless the name is
// no SSA identifier.
// CHECK-LABEL: hcq.kernel @ka_copy amd (write f32, read f32, readwrite f32) symbol "copy"
// CHECK-LABEL: hcq.schedule @named(%dst: !hcq.buffer<64xf32, AMD:0>, %src: !hcq.buffer<64xf32, AMD:0>, %arg0: !hcq.buffer<64xf32, AMD:0>)
// CHIP-LABEL: hcq.kernel @ka_copy amd (write f32, read f32, readwrite f32)
module attributes {gpu.container_module} {
  gpu.binary @ka [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"copy", !llvm.func<void (ptr, ptr, ptr)>>]>, bin = "\7FELF-copy">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"copy", !llvm.func<void (ptr, ptr, ptr)>>]>, bin = "\7FELF-copy">, #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"copy", !llvm.func<void (ptr, ptr, ptr)>, arg_attrs = [{hcq.access = "write"}, {hcq.access = "read"}, {hcq.access = "sideways"}], metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF-host">]
  func.func @named(%dst: memref<64xf32> loc("dst"), %src: memref<64xf32> loc("src"), %other: memref<64xf32> loc("3d")) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @ka::@copy blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dst : memref<64xf32>, %src : memref<64xf32>, %other : memref<64xf32>)
    return
  }
}
