// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-encode -verify-diagnostics

// Tests that an amd kernel cannot run on a CPU queue.
hcq.kernel @k amd (write f32) code_object "\7FELF"
hcq.schedule @s(%a: !hcq.buffer<64xf32, CPU:0>) {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.launch' op launches the amd kernel @k on a CPU queue}}
    hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  }
}

// -----

// Tests that a copy on a CPU compute queue needs a kernel copy first.
hcq.schedule @s(%a: !hcq.buffer<64xf32, CPU:0>) {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.copy' op on a CPU COMPUTE queue needs a kernel copy (hcq-stage-copies)}}
    hcq.copy %a[0, 16], %a[16, 16] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
  }
}

// -----

// Tests that a kernel cannot run on a CPU copy queue.
hcq.kernel @k cpu (write f32) symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<64xf32, CPU:0>) {
  hcq.submit on CPU:0 queue COPY:0 {
    // expected-error @+1 {{'hcq.launch' op cannot run on a CPU COPY queue}}
    hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  }
}

// -----

// Tests that a submit holding both command words and ops to encode (an
// encoder stopped halfway, or hand-mixed input) is refused, not encoded in
// part.
hcq.kernel @mixed cpu (readwrite f32) symbol "m" library "libk.so"
hcq.schedule @partly_encoded(%a: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.submit' op is partly encoded: it holds command words beside ops to encode}}
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.cmds cmdbuf i64 [0x1, 0x2]
    hcq.launch @mixed(%a : !hcq.buffer<16xf32, CPU:0>) global [16, 1, 1] local [1, 1, 1]
  }
}

// -----

// Tests that command words after ops to encode are refused as well (the
// encoder finds them as it reads the ops).
hcq.kernel @mixed cpu (readwrite f32) symbol "m" library "libk.so"
hcq.schedule @partly_encoded_after(%a: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.submit' op is partly encoded: it holds command words beside ops to encode}}
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.launch @mixed(%a : !hcq.buffer<16xf32, CPU:0>) global [16, 1, 1] local [1, 1, 1]
    hcq.cmds cmdbuf i64 [0x1, 0x2]
  }
}
