module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    %c0 = arith.constant 0.0 : f32
    gpu.memset %t, %c0 : memref<4xf32>, f32
    return
  }
}
