// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-lower-submit -verify-diagnostics

// Tests that a compute command buffer must be whole dwords.
hcq.schedule @s() {
  %c = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  // expected-error @+1 {{'hcq.enqueue' op command buffer of 6 bytes is not whole dwords}}
  hcq.enqueue %c[6] on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
}
