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
