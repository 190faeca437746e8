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
