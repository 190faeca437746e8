module attributes {gpu.container_module} {
  func.func @f(%a: memref<4611686018427387903xf32>, %b: memref<4611686018427387903xf32>) {
    gpu.memcpy %b, %a : memref<4611686018427387903xf32>, memref<4611686018427387903xf32>
    return
  }
}
