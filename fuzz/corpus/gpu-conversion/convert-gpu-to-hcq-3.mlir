module attributes {gpu.container_module} {
  gpu.binary @k2 [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF-for-gfx1100">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF-for-gfx942">]
  func.func @two_chips(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k2::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    gpu.launch_func @k2::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
