// Four lanes into one, which the verifier refuses (test/Tools/copy-lanes.mlir).
hcq.schedule @gather(%src: !hcq.buffer<4xf32, [CPU:0, CPU:1, CPU:2, CPU:3]>, %dst: !hcq.buffer<4xf32, CPU:0>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, [CPU:0, CPU:1, CPU:2, CPU:3]>
}
