// RUN: hcq-opt %s -split-input-file --hcq-batch-deps -verify-diagnostics
// RUN: not hcq-opt %s --hcq-batch-deps="batch-size=-1" 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not hcq-opt %s --hcq-batch-deps="devices=AMD,GPU" 2>&1 | FileCheck %s --check-prefix=DEVICES

// BATCH: batch-deps-invalid.mlir:0:0: error: hcq-batch-deps: 'batch-size' must not be negative, got -1
// DEVICES: batch-deps-invalid.mlir:0:0: error: hcq-batch-deps: invalid 'devices' option: unknown device kind 'GPU'

hcq.kernel @read cpu (read f32) symbol "r" library "libk.so"

// Tests that a launch reading a buffer of unknown origin is rejected: the
// pass cannot know what memory it is.
hcq.schedule @untracked(%a: !hcq.buffer<16xf32, AMD:0>) {
  %x = builtin.unrealized_conversion_cast %a : !hcq.buffer<16xf32, AMD:0> to !hcq.buffer<16xf32, AMD:1>
  // expected-error @+1 {{'hcq.launch' op buffer operand #0 is not a schedule input, an hcq.alloc, a placeholder or a view of one: its dependencies cannot be tracked}}
  hcq.launch @read(%x : !hcq.buffer<16xf32, AMD:1>) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a schedule batched in part (a submit, and a call a queue could
// run outside any) is refused rather than left half batched.
hcq.kernel @half cpu (readwrite f32) symbol "h" library "libk.so"
hcq.schedule @half_batched(%a: !hcq.buffer<16xf32, CPU:0>) {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.launch @half(%a : !hcq.buffer<16xf32, CPU:0>) global [16, 1, 1] local [1, 1, 1]
  }
  // expected-error @+1 {{'hcq.launch' op is outside any hcq.submit in a schedule already batched: batch all of it or none}}
  hcq.launch @half(%a : !hcq.buffer<16xf32, CPU:0>) global [16, 1, 1] local [1, 1, 1]
}
