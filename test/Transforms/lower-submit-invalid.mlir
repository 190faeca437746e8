// RUN: hcq-opt %s -split-input-file --hcq-lower-submit="ring-bytes=128" -verify-diagnostics
// RUN: not hcq-opt %s -split-input-file --hcq-lower-submit="ring-bytes=100" 2>&1 | FileCheck %s --check-prefix=RING
// RING: error: 'ring-bytes' must be a positive multiple of 64, got 100

// Tests that a push larger than the ring is reported.
hcq.schedule @s() {
  %c = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, CPU:0>
  // expected-error @+1 {{'hcq.enqueue' op pushes 192 bytes into a 128-byte ring: raise ring-bytes or lower the batch-size}}
  hcq.enqueue %c[192] on CPU:0 queue COMPUTE:0 : !hcq.buffer<256xi8, CPU:0>
}

// -----

// Tests that a compute command buffer must be whole dwords.
hcq.schedule @s() {
  %c = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  // expected-error @+1 {{'hcq.enqueue' op command buffer of 6 bytes does not fit one INDIRECT_BUFFER}}
  hcq.enqueue %c[6] on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
}

// -----

// Tests that a compute command buffer larger than the ring is fine: the ring
// takes only its 16-byte INDIRECT_BUFFER packet.
hcq.schedule @s() {
  %c = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<512xi8, AMD:0>
  hcq.enqueue %c[256] on AMD:0 queue COMPUTE:0 : !hcq.buffer<512xi8, AMD:0>
}
