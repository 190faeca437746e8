// A kernel scalar that is a constant, not a schedule argument: folded into
// the kernel arguments (hcq-run.mlir runs it).
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "libhcqtestkernels.so"
hcq.schedule @constant_scale(%a: !hcq.buffer<64xf32, CPU:0>) {
  %m3 = arith.constant -3 : i32
  hcq.launch @scale(%a : !hcq.buffer<64xf32, CPU:0>) vars(%m3 : i32) global [64, 1, 1] local [1, 1, 1]
}
