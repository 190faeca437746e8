module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%a: memref<64xi32>) kernel {
      gpu.return
    }
  }
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
