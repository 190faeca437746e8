// For test/KFDSim/hardware.mlir (the vadd kernel is prepended there): the
// host's input staged onto AMD:0, out = a + a there, copied to AMD:1, doubled
// again there, and staged back to the host: out = 4a.
hcq.schedule @two_gpus(%a: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %n: i32) {
  %ga = hcq.alloc : !hcq.buffer<64xf32, AMD:0>
  %gb = hcq.alloc : !hcq.buffer<64xf32, AMD:0>
  %gc = hcq.alloc : !hcq.buffer<64xf32, AMD:1>
  %gd = hcq.alloc : !hcq.buffer<64xf32, AMD:1>
  hcq.copy %ga[0, 256], %a[0, 256] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%gb, %ga, %ga : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  hcq.copy %gc[0, 256], %gb[0, 256] : !hcq.buffer<64xf32, AMD:1>, !hcq.buffer<64xf32, AMD:0>
  hcq.launch @vadd(%gd, %gc, %gc : !hcq.buffer<64xf32, AMD:1>, !hcq.buffer<64xf32, AMD:1>, !hcq.buffer<64xf32, AMD:1>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  hcq.copy %out[0, 256], %gd[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, AMD:1>
}
