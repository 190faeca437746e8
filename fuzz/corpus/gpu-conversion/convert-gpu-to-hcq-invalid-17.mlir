module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr, i32)>>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>, %m: i32) {
    %c1 = arith.constant 1 : index
    %n = arith.addi %m, %m : i32
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>, %n : i32)
    return
  }
}
