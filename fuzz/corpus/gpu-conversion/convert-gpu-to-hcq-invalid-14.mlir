module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#rocdl.target<chip = "gfx1100">, bin = "\7FELF">]
  func.func @f(%a: memref<64xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xi32>)
    return
  }
}
