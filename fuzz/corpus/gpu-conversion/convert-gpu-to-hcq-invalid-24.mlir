module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>, %b: memref<0xf32>) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}
