module attributes {gpu.container_module} {
  func.func @f() {
    %t = gpu.alloc () : memref<4x0xf32>
    return
  }
}
