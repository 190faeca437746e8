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
