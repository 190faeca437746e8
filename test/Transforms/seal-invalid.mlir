// RUN: hcq-opt %s -split-input-file --hcq-seal -verify-diagnostics

// Tests that sealing needs encoded submits.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.barrier' op is not encoded: run hcq-encode before hcq-seal}}
    hcq.barrier
  }
}

// -----

// Tests that a submit has one command stream.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.submit' op needs exactly one 'cmdbuf' stream}}
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.cmds cmdbuf i32 [0x1]
    hcq.cmds cmdbuf i32 [0x2]
  }
}

// -----

// Tests that run-time words that differ per lane are reported.
hcq.schedule @s(%a: !hcq.buffer<4xf32, AMD:0>, %b: !hcq.buffer<4xf32, AMD:1>) {
  hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 differs per lane and is known only at run time: not supported}}
    hcq.cmds cmdbuf i32 [lo([%a, %b])] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, AMD:1>
  }
}

// -----

// Tests that an address must be of linked memory or an input.
hcq.schedule @s(%a: !hcq.buffer<8xf32, AMD:0>) {
  %v = hcq.view %a[4] : !hcq.buffer<8xf32, AMD:0> -> !hcq.buffer<4xf32, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 takes the address of a buffer that is neither linked memory nor an input}}
    hcq.cmds cmdbuf i32 [lo(%v)] : !hcq.buffer<4xf32, AMD:0>
  }
}
