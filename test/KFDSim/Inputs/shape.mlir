// For test/KFDSim/hardware.mlir (the shape kernel is prepended there): a
// 3x2x1 grid of 8x4x2 workgroups, which the kernel reads back from its
// hidden arguments.
hcq.schedule @run_shape(%out: !hcq.buffer<6xi32, AMD:0>) {
  hcq.launch @shape(%out : !hcq.buffer<6xi32, AMD:0>) global [3, 2, 1] local [8, 4, 2]
}
