// The consumer of hcq-run-shared.mlir: out = 2 * x, on CPU:2 (x copied
// there from CPU:0, the device it shares with the producer).
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.schedule @consumer(%x: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:2>) {
  %u = hcq.alloc : !hcq.buffer<64xf32, CPU:2>
  hcq.copy %u[0, 256], %x[0, 256] : !hcq.buffer<64xf32, CPU:2>, !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%out, %u, %u : !hcq.buffer<64xf32, CPU:2>, !hcq.buffer<64xf32, CPU:2>, !hcq.buffer<64xf32, CPU:2>) global [64, 1, 1] local [1, 1, 1]
}
