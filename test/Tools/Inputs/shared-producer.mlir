// The producer of hcq-run-shared.mlir: x = 4 * a * s, through a buffer of
// its own on CPU:1; x on CPU:0 is the buffer it shares with the consumer.
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "libhcqtestkernels.so"
hcq.schedule @producer(%a: !hcq.buffer<64xf32, CPU:1>, %x: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
  %t = hcq.alloc : !hcq.buffer<64xf32, CPU:1>
  %y = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%t, %a, %a : !hcq.buffer<64xf32, CPU:1>, !hcq.buffer<64xf32, CPU:1>, !hcq.buffer<64xf32, CPU:1>) global [64, 1, 1] local [1, 1, 1]
  hcq.copy %y[0, 256], %t[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:1>
  hcq.launch @vadd(%x, %y, %y : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @scale(%x : !hcq.buffer<64xf32, CPU:0>) vars(%s : i32) global [64, 1, 1] local [1, 1, 1]
}
