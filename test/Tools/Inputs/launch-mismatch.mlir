// Input of test/Tools/hcq-run.mlir: a launch passing one buffer to a kernel
// that takes three, which hcq-opt rejects.
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.schedule @bad(%a: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @vadd(%a : !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
}
