module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">, #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"other", (memref<64xi32>) -> (), metadata = {block_size = array<i32: 1, 1, 1>}>]>, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32> {hcq.device = "CPU:0"}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
