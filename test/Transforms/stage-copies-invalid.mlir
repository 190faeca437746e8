// RUN: hcq-opt %s -split-input-file --hcq-stage-copies -verify-diagnostics
// RUN: not hcq-opt %s --hcq-stage-copies="staging-slots=0" 2>&1 | FileCheck %s --check-prefix=SLOTS
// RUN: not hcq-opt %s --hcq-stage-copies="staging-size=-1" 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not hcq-opt %s -split-input-file --hcq-stage-copies="staging-size=6 staging-slots=2" 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not hcq-opt %s --hcq-stage-copies="devices=AMD,TPU" 2>&1 | FileCheck %s --check-prefix=DEVICES
// RUN: not hcq-opt %s --hcq-stage-copies="copy-queues=AMD,AMD" 2>&1 | FileCheck %s --check-prefix=QUEUES

// SLOTS: stage-copies-invalid.mlir:0:0: error: hcq-stage-copies: 'staging-slots' must be positive, got 0
// SIZE: stage-copies-invalid.mlir:0:0: error: hcq-stage-copies: 'staging-size' must be positive, got -1
// SMALL: error: 'hcq.copy' op staging slots of 3 bytes cannot hold one 4-byte element
// DEVICES: stage-copies-invalid.mlir:0:0: error: hcq-stage-copies: invalid 'devices' option: unknown device kind 'TPU'
// QUEUES: stage-copies-invalid.mlir:0:0: error: hcq-stage-copies: invalid 'copy-queues' option: device kind 'AMD' listed twice

// Tests that a staged copy needs one element size on both sides.
hcq.schedule @mismatch(%src: !hcq.buffer<4xf32, AMD:0>, %dst: !hcq.buffer<8xf16, DISK:0>) {
  // expected-error @+1 {{'hcq.copy' op staged copy needs one element size on both sides, got 'f32' and 'f16'}}
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<8xf16, DISK:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests (with the SMALL run) that a staging slot must hold one element.
hcq.schedule @fine(%src: !hcq.buffer<4xf32, AMD:0>, %dst: !hcq.buffer<4xf32, DISK:0>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, DISK:0>, !hcq.buffer<4xf32, AMD:0>
}
