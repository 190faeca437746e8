// Tests that schedules in nested modules compile where they are, against
// their module's kernels: the executable and its submitter land in @inner;
// the top-level schedule compiles beside it, with a submitter of its own.
// With no CPU copy queue, the builtin copy kernel the copy becomes is made
// in @inner too.
// RUN: hcq-opt %s --hcq-pipeline | FileCheck %s
// CHECK-LABEL: module @inner {
// CHECK-NEXT: hcq.kernel @scale cpu
// CHECK-NEXT: hcq.executable @nested(
// CHECK: hcq.submitter @hcq_submitter_0(
// CHECK: hcq.kernel @scale cpu
// CHECK-NEXT: hcq.executable @top(
// CHECK: hcq.submitter @hcq_submitter_0(
// RUN: hcq-opt %s --hcq-pipeline="copy-queues=AMD" | FileCheck %s --check-prefix=KCOPY
// KCOPY-LABEL: module @inner {
// KCOPY-NEXT: hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
module {
  module @inner {
    hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "libhcqtestkernels.so"
    hcq.schedule @nested(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
      hcq.launch @scale(%a : !hcq.buffer<64xf32, CPU:0>) vars(%s : i32) global [64, 1, 1] local [1, 1, 1]
      hcq.copy %b[0, 256], %a[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
    }
  }
  hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "libhcqtestkernels.so"
  hcq.schedule @top(%a: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
    hcq.launch @scale(%a : !hcq.buffer<64xf32, CPU:0>) vars(%s : i32) global [64, 1, 1] local [1, 1, 1]
  }
}

// The nested schedule also runs: a = 0..63 scaled by 2, copied to b.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt %s --hcq-pipeline="copy-queues=AMD" | hcq-translate --hcq-to-executable --hcq-executable=nested -o %t/nested.hcqx
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/nested.hcqx --arg f32:64:arange --arg f32:64:fill=0 --arg i32=2 2>&1 | FileCheck %s --check-prefix=OUT
// OUT: arg 0: 0 2 4 6 8 10 12 14
// OUT-NEXT: arg 1: 0 2 4 6 8 10 12 14
