module attributes {gpu.container_module} {
  func.func @f(%a: memref<4xf32>) -> i32 {
    %t = gpu.alloc () : memref<4xf32>
    %c = arith.constant 0 : i32
    return %c : i32
  }
}
