// Words the disassembler cannot decode: each is reported with its offset.
// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-print-packets -verify-diagnostics -o /dev/null
// Tests that words of a schedule naming no target for their devices are
// refused, naming the pass that attaches one: they cannot be read back.
// RUN: not hcq-opt %s -split-input-file --hcq-print-packets -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTARGET
// NOTARGET: error: 'hcq.submit' op is on AMD devices but its schedule names no target for them in its 'targets': run hcq-attach-targets

// Tests that an unknown PM4 opcode is reported at its dword.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op PM4 packet at dword 2: unknown opcode 99}}
    hcq.cmds cmdbuf i32 [0xc0004600, 0x00000407, 0xc0009900, 0x0]
  }
}

// -----

// Tests that a packet running past the end is reported as truncated.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op PM4 packet at dword 0: truncated: header says 6 body dwords, 2 remain}}
    hcq.cmds cmdbuf i32 [0xc0053c00, 0x15, 0x0]
  }
}

// -----

// Tests that a type-0 header is not taken for a packet.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op PM4 packet at dword 0: not a type-3 header (1234)}}
    hcq.cmds cmdbuf i32 [0x1234]
  }
}

// -----

// Tests that a header must be a constant.
hcq.schedule @s() {
  %p = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COPY:0 {
    // expected-error @+1 {{'hcq.cmds' op SDMA packet at dword 0: header is not a constant (lo(%0))}}
    hcq.cmds cmdbuf i32 [lo(%p)] : !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that an unknown SDMA opcode is reported at its dword.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COPY:0 {
    // expected-error @+1 {{'hcq.cmds' op SDMA packet at dword 2: unknown opcode 42}}
    hcq.cmds cmdbuf i32 [0x6, 0x0, 0x2a]
  }
}

// -----

// Tests that a CPU entry must start with a runtime host function.
hcq.schedule @s() {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op CPU entry at word 0: word 0 is not a runtime host function (1234)}}
    hcq.cmds cmdbuf i64 [0x1234, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0]
  }
}

// -----

// Tests that CPU streams are whole entries.
hcq.schedule @s() {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op CPU stream of 3 words is not whole 8-word entries}}
    hcq.cmds cmdbuf i64 [0x0, 0x0, 0x0]
  }
}

// -----

// Tests that an entry's unused words must be zero.
hcq.schedule @s() {
  %fn = hcq.placeholder host_function slot 3 : !hcq.buffer<1xi8, CPU:0>
  %t = hcq.placeholder timestamp slot 1 : !hcq.buffer<1xi64, CPU:0>
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op CPU entry at word 0: unused word 2 is not zero}}
    hcq.cmds cmdbuf i64 [addr(%fn), addr(%t), 0x5, 0x0, 0x0, 0x0, 0x0, 0x0] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  }
}
