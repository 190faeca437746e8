module attributes {gpu.container_module} {
  func.func @host_input(%h: memref<16xf32> {hcq.device = "CPU:0"}, %d: memref<16xf32>) {
    gpu.memcpy %d, %h : memref<16xf32>, memref<16xf32>
    return
  }
}
