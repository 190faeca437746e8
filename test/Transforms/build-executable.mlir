// RUN: hcq-opt %s -split-input-file --hcq-build-executable | FileCheck %s

// Tests that a run of host bodies folds into one submitter whose arguments
// are the values the run uses in order of first use, that a host call ends
// the run, that link-time memory stays in the executable, and that the
// executable keeps the schedule's targets.
// CHECK-LABEL: hcq.executable @split
// CHECK-SAME: (%[[N:.*]]: i32) targets [#hcq.cpu_target] {
// CHECK-DAG: %[[TL:.*]] = hcq.placeholder timeline_signal
// CHECK-DAG: %[[EP:.*]] = hcq.placeholder epoch
// CHECK-DAG: %[[S:.*]] = hcq.placeholder signal slot 1
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf
// CHECK-DAG: %[[OFF:.*]] = hcq.placeholder offtbl
// CHECK: hcq.call @hcq_submitter_0(%[[TL]], %[[EP]], %[[S]], %[[CB]], %[[OFF]], %[[N]] :
// CHECK-NEXT: hcq.blob %[[OFF]]
// CHECK-NEXT: hcq.host_call "log"()
// CHECK-NEXT: hcq.call @hcq_submitter_1(%[[S]] : !hcq.buffer<1xi64, CPU:0>)
// CHECK-NEXT: }
// CHECK: hcq.submitter @hcq_submitter_0(%[[A0:.*]]: !hcq.buffer<1xi64, CPU:0>, %[[A1:.*]]: !hcq.buffer<1xi64, CPU:0>, %[[A2:.*]]: !hcq.buffer<1xi64, CPU:0>, %[[A3:.*]]: !hcq.buffer<128xi8, CPU:0>, %[[A4:.*]]: !hcq.buffer<2xi32, CPU:0>, %[[A5:.*]]: i32)
// CHECK-NEXT: hcq.fence %[[A0]] reaches %[[A1]]
// CHECK-NEXT: hcq.reset %[[A2]]
// CHECK-NEXT: hcq.patch_group %[[A3]] offsets %[[A4]][0, 1] i64 var(%[[A5]])
// CHECK-NEXT: }
// CHECK: hcq.submitter @hcq_submitter_1(%[[B0:.*]]: !hcq.buffer<1xi64, CPU:0>)
// CHECK-NEXT: hcq.reset %[[B0]]
hcq.schedule @split(%n: i32) targets [#hcq.cpu_target] {
  %tl = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, CPU:0>
  %ep = hcq.placeholder epoch slot 2 volatile : !hcq.buffer<1xi64, CPU:0>
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  %cb = hcq.placeholder cmdbuf slot 3 : !hcq.buffer<128xi8, CPU:0>
  %off = hcq.placeholder offtbl slot 4 : !hcq.buffer<2xi32, CPU:0>
  hcq.fence %tl reaches %ep : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.reset %s : !hcq.buffer<1xi64, CPU:0>
  hcq.blob %off = [0x8, 0x0] : !hcq.buffer<2xi32, CPU:0>
  hcq.patch_group %cb offsets %off[0, 1] i64 var(%n) : !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>, i32
  hcq.host_call "log"()
  hcq.reset %s : !hcq.buffer<1xi64, CPU:0>
}

// -----

// Tests that two schedules of the same shape share one submitter even though
// their placeholders differ (slots, here), and a different shape gets its own.
// CHECK-LABEL: hcq.executable @first
// CHECK: hcq.call @hcq_submitter_0(
// CHECK-LABEL: hcq.executable @second
// CHECK: hcq.call @hcq_submitter_0(
// CHECK-LABEL: hcq.executable @other
// CHECK: hcq.call @hcq_submitter_1(
// CHECK-COUNT-2: hcq.submitter
// CHECK-NOT: hcq.submitter
hcq.schedule @first() {
  %a = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  %b = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.reset %a, %b : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.finalize %a, %b : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
}
hcq.schedule @second() {
  %a = hcq.placeholder signal slot 7 volatile : !hcq.buffer<1xi64, CPU:0>
  %b = hcq.placeholder signal slot 9 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.reset %a, %b : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.finalize %a, %b : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
}
hcq.schedule @other() {
  %a = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  %b = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.reset %a, %b : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.finalize %b, %a : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
}
