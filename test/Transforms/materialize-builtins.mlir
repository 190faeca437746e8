// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-materialize-builtins | FileCheck %s
// RUN: hcq-opt %s -split-input-file --hcq-attach-targets=amd=gfx942 --hcq-materialize-builtins | FileCheck %s --check-prefix=GFX9

// Tests that a builtin copy launched on AMD devices gets the target's amd
// copy kernel at the module's start, once however many schedules launch it,
// with the target's code object and its kernel symbol.
// CHECK-LABEL: module {
// CHECK-NEXT: hcq.kernel @hcq_copy_gfx1100 amd (write i8, read i8) symbol "hcq_copy" code_object "\7FELF
// CHECK-NOT: hcq.kernel @hcq_copy_gfx1100
// CHECK: hcq.schedule @first
// CHECK: hcq.schedule @second
// GFX9-LABEL: module {
// GFX9-NEXT: hcq.kernel @hcq_copy_gfx942 amd (write i8, read i8) symbol "hcq_copy" code_object "\7FELF
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
hcq.schedule @first(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
  hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
}
hcq.schedule @second(%a: !hcq.buffer<64xf32, AMD:1>, %b: !hcq.buffer<64xf32, AMD:1>) {
  hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:1>, !hcq.buffer<64xf32, AMD:1>) global [64, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a builtin copy on CPU devices (the CPU device runs the builtin
// itself) adds nothing.
// CHECK-LABEL: module {
// CHECK-NOT: hcq_copy_gfx1100
// CHECK: hcq.schedule @cpu_copy
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
hcq.schedule @cpu_copy(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
}

// -----

// Tests that the kernel lands in the module of the schedule that needs it
// (a nested module compiles against its own kernels), and that a module
// already holding the name gets no second symbol of it.
// CHECK-LABEL: module {
// CHECK-NEXT: module @inner {
// CHECK-NEXT: hcq.kernel @hcq_copy_gfx1100 amd
// CHECK-NEXT: hcq.kernel @hcq_copy_f32_f32 builtin
// CHECK: module @done {
// CHECK-NEXT: hcq.kernel @hcq_copy_gfx1100 cpu (write i8, read i8) symbol "mine" library "libmine.so"
// CHECK-NOT: hcq.kernel @hcq_copy_gfx1100
module {
  module @inner {
    hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
    hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
      hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
    }
  }
  module @done {
    hcq.kernel @hcq_copy_gfx1100 cpu (write i8, read i8) symbol "mine" library "libmine.so"
    hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
    hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
      hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
    }
  }
}
