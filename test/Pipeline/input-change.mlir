// Tests that changing only which input buffers a schedule uses changes only
// the run-time words: linked, both executables have the same blob bytes to
// the byte; only their inputs tables differ. A schedule that differs in a
// kernel's grid differs in its blobs.
// RUN: hcq-opt %s --hcq-pipeline --hcq-link | %python %S/Inputs/compare_executables.py | FileCheck %s
// CHECK: swapped: blobs same, {{[1-9][0-9]*}} blobs
// CHECK-NEXT: swapped: inputs tables differ
// CHECK-NEXT: regridded: blobs differ
// CHECK-NEXT: regridded: inputs tables same

hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "vadd" library "libkernels.so"

hcq.schedule @original(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %c: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %a[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}

hcq.schedule @swapped(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %c: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @vadd(%c, %b, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %b[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}

hcq.schedule @regridded(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %c: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [2, 1, 1] local [1, 1, 1]
  hcq.copy %a[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}
