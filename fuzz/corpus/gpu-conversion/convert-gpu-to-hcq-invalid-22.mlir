module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32> {hcq.device = "GPU:0"}) {
    %t = gpu.alloc () : memref<4xf32>
    return
  }
}
