module attributes {gpu.container_module} {
  func.func @f(%a: memref<4294967296x4294967296xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}
