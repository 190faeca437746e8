// The CPU encoder: every submit's exact entries, and their meaning through
// the disassembler (hcq-print-packets).
// RUN: hcq-opt %s --hcq-attach-targets --hcq-encode | FileCheck %s
// RUN: hcq-opt %s --hcq-attach-targets --hcq-encode --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=DIS

hcq.kernel @vadd cpu (write f32, read f32, read f32) vars 1 symbol "vadd" library "libkernels.so"
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"

// Tests that each op becomes one 8-word entry: wait on a constant and on the
// timeline, timestamps around a launch (host function, kernel function,
// kernel arguments, grid), and a signal store; the barrier becomes nothing.
// CHECK-LABEL: hcq.schedule @compute(
// CHECK-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>, %[[ARG3:[a-z0-9]+]]: i32) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// CHECK-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder host_function slot 1 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder host_function slot 3 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V2:[a-z0-9]+]] = hcq.program @vadd : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder host_function slot 0 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder host_function slot 2 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder timestamp slot 2 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder timestamp slot 3 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NEXT: %[[V10:[a-z0-9]+]] = hcq.cmds kernargs i64 [addr(%[[ARG2]]), addr(%[[ARG0]]), addr(%[[ARG1]]), var(%[[ARG3]])] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, i32
// CHECK-NEXT: hcq.cmds cmdbuf i64 [addr(%[[V0]]), addr(%[[V6]]), load(%[[V7]] - 1), 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V0]]), addr(%[[V5]]), 0x0000000000000002, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V1]]), addr(%[[V8]]), 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V3]]), addr(%[[V2]]), addr(%[[V10]]), 0x0000000000000004, 0x0000000000000002, 0x0000000000000001, 0x0000000000000000, 0x0000000000000000, addr(%[[V1]]), addr(%[[V9]]), 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V4]]), addr(%[[V5]]), 0x0000000000000003, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V4]]), addr(%[[V6]]), load(%[[V7]]), 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi8, CPU:0>, !hcq.linear, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: }
// DIS-LABEL: // hcq.schedule @compute
// DIS-NEXT: // submit on CPU:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 4 words
// DIS-NEXT: 0: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 1: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 2: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 3: var(%{{[a-z0-9]+}})
// DIS-NEXT: // submit on CPU:0 queue COMPUTE:0, cmdbuf, 56 words
// DIS-NEXT: 0: wait signal=addr(%{{[a-z0-9]+}}) value=load(%{{[a-z0-9]+}} - 1)
// DIS-NEXT: 1: wait signal=addr(%{{[a-z0-9]+}}) value=0x0000000000000002
// DIS-NEXT: 2: timestamp slot=addr(%{{[a-z0-9]+}})
// DIS-NEXT: 3: launch kernel=addr(%{{[a-z0-9]+}}) kernargs=addr(%{{[a-z0-9]+}}) x=0x0000000000000004 y=0x0000000000000002 z=0x0000000000000001
// DIS-NEXT: 4: timestamp slot=addr(%{{[a-z0-9]+}})
// DIS-NEXT: 5: signal signal=addr(%{{[a-z0-9]+}}) value=0x0000000000000003
// DIS-NEXT: 6: signal signal=addr(%{{[a-z0-9]+}}) value=load(%{{[a-z0-9]+}})
hcq.schedule @compute(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %c: !hcq.buffer<64xf32, CPU:0>, %n: i32) {
  %sig = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  %tl = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, CPU:0>
  %tlv = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, CPU:0>
  %t0 = hcq.placeholder timestamp slot 2 volatile : !hcq.buffer<1xi64, CPU:0>
  %t1 = hcq.placeholder timestamp slot 3 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.barrier
    hcq.wait %tl >= [%tlv : !hcq.buffer<1xi64, CPU:0>] - 1 : !hcq.buffer<1xi64, CPU:0>
    hcq.wait %sig >= 2 : !hcq.buffer<1xi64, CPU:0>
    hcq.timestamp %t0 : !hcq.buffer<1xi64, CPU:0>
    hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [4, 2, 1] local [1, 1, 1]
    hcq.timestamp %t1 : !hcq.buffer<1xi64, CPU:0>
    hcq.store %sig = 3 : !hcq.buffer<1xi64, CPU:0>
    hcq.store %tl = [%tlv : !hcq.buffer<1xi64, CPU:0>] : !hcq.buffer<1xi64, CPU:0>
  }
}

// Tests that a copy on a CPU copy queue is one copy entry with the byte
// offsets folded into the addresses, and that a builtin copy kernel launches
// the runtime's implementation, the element's byte size (4) its third kernarg.
// CHECK-LABEL: hcq.schedule @copies(
// CHECK-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// CHECK-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder host_function slot 4 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V1:[a-z0-9]+]] = hcq.program @hcq_copy_f32_f32 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder host_function slot 0 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: hcq.submit on CPU:0 queue COPY:0 {
// CHECK-NEXT: hcq.cmds cmdbuf i64 [addr(%[[V0]]), addr(%[[ARG1]] + 16), addr(%[[ARG0]]), 0x0000000000000020, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NEXT: %[[V3:[a-z0-9]+]] = hcq.cmds kernargs i64 [addr(%[[ARG1]]), addr(%[[ARG0]]), 0x0000000000000004] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
// CHECK-NEXT: hcq.cmds cmdbuf i64 [addr(%[[V2]]), addr(%[[V1]]), addr(%[[V3]]), 0x0000000000000040, 0x0000000000000001, 0x0000000000000001, 0x0000000000000000, 0x0000000000000000] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi8, CPU:0>, !hcq.linear
// CHECK-NEXT: }
// CHECK-NEXT: }
// DIS-LABEL: // hcq.schedule @copies
// DIS-NEXT: // submit on CPU:0 queue COPY:0, cmdbuf, 8 words
// DIS-NEXT: 0: copy dst=addr(%{{[a-z0-9]+}} + 16) src=addr(%{{[a-z0-9]+}}) bytes=0x0000000000000020
// DIS-NEXT: // submit on CPU:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 3 words
// DIS-NEXT: 0: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 1: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 2: 0x0000000000000004
// DIS-NEXT: // submit on CPU:0 queue COMPUTE:0, cmdbuf, 8 words
// DIS-NEXT: 0: launch kernel=addr(%{{[a-z0-9]+}}) kernargs=addr(%{{[a-z0-9]+}}) x=0x0000000000000040 y=0x0000000000000001 z=0x0000000000000001
hcq.schedule @copies(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>) {
  hcq.submit on CPU:0 queue COPY:0 {
    hcq.copy %b[16, 32], %a[0, 32] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
  }
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.launch @hcq_copy_f32_f32(%b, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  }
}

// Tests that the launches of a submit share one kernel-argument stream, a
// segment each: the second launch's entry takes the address 128 bytes in.
// CHECK-LABEL: hcq.schedule @two_launches(
// CHECK-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<64xf32, CPU:0>, %[[ARG2:[a-z0-9]+]]: i32)
// CHECK: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NEXT: %[[K:[a-z0-9]+]] = hcq.cmds kernargs i64 [addr(%[[ARG0]]), addr(%[[ARG1]]), addr(%[[ARG1]]), var(%[[ARG2]])] [addr(%[[ARG1]]), addr(%[[ARG0]]), addr(%[[ARG0]]), 0x0000000000000007] :
// CHECK-NEXT: hcq.cmds cmdbuf i64 [addr(%{{.*}}), addr(%{{.*}}), addr(%[[K]]), 0x0000000000000001, {{.*}}, addr(%{{.*}}), addr(%{{.*}}), addr(%[[K]] + 128), 0x0000000000000001,
// CHECK-NEXT: }
// DIS-LABEL: // hcq.schedule @two_launches
// DIS-NEXT: // submit on CPU:0 queue COMPUTE:0, kernargs %{{[a-z0-9]+}}, 8 words
// DIS-NEXT: // segment at byte 0
// DIS-NEXT: 0: addr(%{{[a-z0-9]+}})
// DIS:      // segment at byte 128
// DIS-NEXT: 4: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 5: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 6: addr(%{{[a-z0-9]+}})
// DIS-NEXT: 7: 0x0000000000000007
// DIS-NEXT: // submit on CPU:0 queue COMPUTE:0, cmdbuf, 16 words
hcq.schedule @two_launches(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %n: i32) {
  %c7 = arith.constant 7 : i32
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.launch @vadd(%a, %b, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
    hcq.launch @vadd(%b, %a, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%c7 : i32) global [1, 1, 1] local [1, 1, 1]
  }
}

// Tests that one pass encodes every device kind, each submit by the
// schedule's target for its kind: an AMD submit becomes 32-bit PM4 words
// (RELEASE_MEM of the signal), not CPU entries.
// CHECK-LABEL: hcq.schedule @amd_by_its_target(
// CHECK-SAME: ) targets [#hcq.amd_target<chip = "{{gfx[0-9]+}}">, #hcq.cpu_target] {
// CHECK: %[[V0:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT: hcq.cmds cmdbuf i32 [0xc0064900, {{.*}}, lo(%[[V0]]), hi(%[[V0]]), 0x00000001,
// DIS-LABEL: // hcq.schedule @amd_by_its_target
hcq.schedule @amd_by_its_target() {
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.store %s = 1 : !hcq.buffer<1xi64, AMD:0>
  }
}

// Tests that a constant scalar folds into the kernel arguments (its 32
// bits, which the kernel reads), with no run-time word for it.
// CHECK-LABEL: hcq.schedule @constant_scalar(
// CHECK: hcq.cmds kernargs i64 [addr(%{{.*}}), addr(%{{.*}}), addr(%{{.*}}), 0x00000000fffffffd]
hcq.schedule @constant_scalar(%a: !hcq.buffer<64xf32, CPU:0>) {
  %m3 = arith.constant -3 : i32
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.launch @vadd(%a, %a, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%m3 : i32) global [1, 1, 1] local [1, 1, 1]
  }
}
