module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, kernels = <[#gpu.kernel_metadata<"inc", !llvm.func<void (ptr)>>]>, bin = "\7FELF">, #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"inc", (memref<64xi32>) -> (), metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF">]
  func.func @f(%c: memref<64xi32> {hcq.device = "CPU:0"}, %a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%c : memref<64xi32>)
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
