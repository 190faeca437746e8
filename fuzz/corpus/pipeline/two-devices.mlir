// Input of test/Tools/hcq-run.mlir: out = (a + a) * s, computed on CPU:0, copied
// to CPU:1, scaled there, and copied back: two devices, copies both ways.
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "libhcqtestkernels.so"
hcq.schedule @two(%a: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  %d = hcq.alloc : !hcq.buffer<64xf32, CPU:1>
  hcq.launch @vadd(%c, %a, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.copy %d[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:1>, !hcq.buffer<64xf32, CPU:0>
  hcq.launch @scale(%d : !hcq.buffer<64xf32, CPU:1>) vars(%s : i32) global [64, 1, 1] local [1, 1, 1]
  hcq.copy %out[0, 256], %d[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:1>
}
