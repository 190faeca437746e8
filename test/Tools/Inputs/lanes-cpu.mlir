// A buffer on two CPU devices: out = a + a on each lane (hcq-run-checks.mlir).
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.schedule @lanes(%a: !hcq.buffer<4xf32, [CPU:0, CPU:1]>, %out: !hcq.buffer<4xf32, [CPU:0, CPU:1]>) {
  hcq.launch @vadd(%out, %a, %a : !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, [CPU:0, CPU:1]>) global [4, 1, 1] local [1, 1, 1]
}
