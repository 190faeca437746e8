// Float kernel scalars: a bound f32 variable and an f32 constant, passed as
// their bits (hcq-run.mlir runs it): a *= s, then a *= 0.5.
hcq.kernel @scalef cpu (readwrite f32) vars 1 symbol "hcq_scalef" library "libhcqtestkernels.so"
hcq.schedule @float_scale(%a: !hcq.buffer<64xf32, CPU:0>, %s: f32) {
  %half = arith.constant 0.5 : f32
  hcq.launch @scalef(%a : !hcq.buffer<64xf32, CPU:0>) vars(%s : f32) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @scalef(%a : !hcq.buffer<64xf32, CPU:0>) vars(%half : f32) global [64, 1, 1] local [1, 1, 1]
}
