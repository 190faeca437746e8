// Tests that hcq.launch and hcq.copy declare what they read and write, and
// that each writes its queue's timeline: canonicalize and cse keep every
// call, two equal ones and a launch whose kernel writes no buffer alike.
// RUN: hcq-opt %s --canonicalize --cse | FileCheck %s

!t = !hcq.buffer<64xf32, CPU:0>
hcq.kernel @vadd cpu (write f32, read f32, read f32)
    symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.kernel @peek cpu (read f32) symbol "hcq_peek" library "libhcqtestkernels.so"

// CHECK-LABEL: hcq.schedule @s
hcq.schedule @s(%a: !t, %b: !t, %c: !t) {
  // CHECK-NEXT: hcq.launch @vadd
  // CHECK-NEXT: hcq.launch @vadd
  hcq.launch @vadd(%c, %a, %b : !t, !t, !t) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @vadd(%c, %a, %b : !t, !t, !t) global [64, 1, 1] local [1, 1, 1]
  // CHECK-NEXT: hcq.launch @peek
  hcq.launch @peek(%a : !t) global [64, 1, 1] local [1, 1, 1]
  // CHECK-NEXT: hcq.copy %{{.*}}[0, 16], %{{.*}}[16, 16]
  // CHECK-NEXT: hcq.copy %{{.*}}[0, 16], %{{.*}}[16, 16]
  hcq.copy %a[0, 16], %b[16, 16] : !t, !t
  hcq.copy %a[0, 16], %b[16, 16] : !t, !t
  // CHECK-NEXT: }
}
