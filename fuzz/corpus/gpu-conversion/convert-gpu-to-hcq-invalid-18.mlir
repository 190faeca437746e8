module attributes {gpu.container_module} {
  func.func @f(%i: i32) {
    %n = arith.index_cast %i : i32 to index
    %t = gpu.alloc (%n) : memref<?xf32>
    return
  }
}
