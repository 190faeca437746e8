module attributes {gpu.container_module} {
  func.func @f(%a: memref<?xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}
