// Input of test/Tools/hcq-run.mlir: a copy of 6 bytes, not whole i32
// elements: bytes 4..10 of %a to bytes 0..6 of %out.
hcq.schedule @bytes(%a: !hcq.buffer<8xi32, CPU:0>, %out: !hcq.buffer<8xi32, CPU:0>) {
  hcq.copy %out[0, 6], %a[4, 6] : !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<8xi32, CPU:0>
}
