module attributes {gpu.container_module} {
  gpu.binary @k4 [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"a", !llvm.func<void (ptr)>>, #gpu.kernel_metadata<"b", !llvm.func<void (ptr)>>]>, bin = "\7FELF-a+b">, #gpu.object<#rocdl.target<chip = "gfx942">, kernels = <[#gpu.kernel_metadata<"a", !llvm.func<void (ptr)>>, #gpu.kernel_metadata<"b", !llvm.func<void (ptr)>>]>, bin = "\7FELF-a+b">]
  func.func @one_object(%x: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k4::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xi32>)
    gpu.launch_func @k4::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xi32>)
    return
  }
}
