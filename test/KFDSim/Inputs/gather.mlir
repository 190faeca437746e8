// For test/KFDSim/hardware.mlir (the gather kernel, which uses scratch, is
// prepended there): out = in[in mod 64] on AMD:0.
hcq.schedule @run_gather(%in: !hcq.buffer<64xf32, AMD:0>, %out: !hcq.buffer<64xf32, AMD:0>) {
  hcq.launch @gather(%out, %in : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [1, 1, 1] local [64, 1, 1]
}
