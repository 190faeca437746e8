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
