// A launch on both lanes of [AMD:0, AMD:1]: out = a + a on each GPU, for
// test/Tools/hcq-run-amd.mlir (the vadd kernel is prepended there).
hcq.schedule @lanes(%a: !hcq.buffer<64xf32, [AMD:0, AMD:1]>, %out: !hcq.buffer<64xf32, [AMD:0, AMD:1]>, %n: i32) {
  hcq.launch @vadd(%out, %a, %a : !hcq.buffer<64xf32, [AMD:0, AMD:1]>, !hcq.buffer<64xf32, [AMD:0, AMD:1]>, !hcq.buffer<64xf32, [AMD:0, AMD:1]>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
}
