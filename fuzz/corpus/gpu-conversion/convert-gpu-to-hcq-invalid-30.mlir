module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"amd_only", !llvm.func<void (ptr)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@amd_only blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
