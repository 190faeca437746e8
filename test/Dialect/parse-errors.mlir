// Malformed hcq syntax: each gives a diagnostic at its location.
// RUN: hcq-opt %s -split-input-file -verify-diagnostics

// Tests that an unknown device kind is named.
// expected-error @+1 {{unknown device kind 'TPU' (expected AMD, CPU, CUDA, NV, METAL or DISK)}}
func.func private @f(!hcq.buffer<4xf32, TPU:0>)

// -----

// Tests that a negative device index is rejected.
// expected-error @+1 {{invalid device index '-1' in 'AMD:-1'}}
func.func private @f(!hcq.buffer<4xf32, AMD:-1>)

// -----

// Tests that an unknown queue kind is named.
hcq.schedule @s() {
  // expected-error @+1 {{unknown queue kind 'DMA' (expected COMPUTE, COPY or SUBMIT)}}
  hcq.submit on AMD:0 queue DMA:0 {
  }
}

// -----

// Tests that a kernel argument needs a known access.
// expected-error @+1 {{expected 'read', 'write' or 'readwrite', got 'modify'}}
hcq.kernel @k cpu (modify f32) symbol "k" library "libk.so"

// -----

// Tests that an unknown kernel target is named.
// expected-error @+2 {{expected keyword for where a kernel's code comes from}}
// expected-error @+1 {{invalid value for property target}}
hcq.kernel @k 3 () symbol "k" library "libk.so"

// -----

// Tests that an unknown stream tag is named.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{unknown stream tag 'bogus'}}
    hcq.cmds bogus i32 [0x1]
  }
}

// -----

// Tests that a stream's word width is i32 or i64.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{word width must be i32 or i64}}
    hcq.cmds cmdbuf i16 [0x1]
  }
}

// -----

// Tests that an unknown word form is named.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{expected a word: an integer, addr(...), lo(...), hi(...), var(...) or load[.lo|.hi](...), got 'mid'}}
    hcq.cmds cmdbuf i32 [mid(%b)] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a negative word constant is rejected.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{word constant must fit in 64 bits unsigned}}
    hcq.cmds cmdbuf i32 [-1]
  }
}

// -----

// Tests that a shift is below 64.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{shift must be below 64}}
    hcq.cmds cmdbuf i32 [lo(%b >> 64)] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a blob's lane is an i32.
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{'lane' must be an i32, got "one"}}
  hcq.blob %p = [0x1] : !hcq.buffer<8xi8, AMD:0> {lane = "one"}
}

// -----

// Tests that hex blob data are whole 32-bit words.
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{hex data has 9 digits, not 8 a dword}}
  hcq.blob %p = hex "c0053c001" : !hcq.buffer<8xi8, AMD:0>
}

// -----

// Tests that hex blob data are hex digits, the first other named.
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{hex data has 'x' at digit 1, not a hex digit}}
  hcq.blob %p = hex "0x053c00" : !hcq.buffer<8xi8, AMD:0>
}

// -----

// Tests that blob data are 32-bit words.
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{blob data are 32-bit words}}
  hcq.blob %p = [0x100000000] : !hcq.buffer<8xi8, AMD:0>
}

// -----

// Tests that (size arithmetic) a blob patch offset the patch table cannot
// hold is refused, not folded into the entry's kind bits.
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{patch offset 9223372036854775807 is not a byte offset in [0, 2^32)}}
  hcq.blob %p = [0x1, 0x2] patches [9223372036854775807: addr(%s)] : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that (size arithmetic) a negative blob patch offset is refused.
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{patch offset -4 is not a byte offset in [0, 2^32)}}
  hcq.blob %p = [0x1, 0x2] patches [-4: addr(%s)] : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a word names the operand whose type is given.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{number of operands and types do not match: got 1 operands and 0 types}}
    hcq.cmds cmdbuf i32 [lo(%b)]
  }
}

// -----

// Tests that an unknown placeholder tag is named.
hcq.schedule @s() {
  // expected-error @+2 {{expected one of [signal, timeline_signal, timeline_value, epoch, sentinel_signal, timestamp, staging, cmdbuf, kernargs, program, scratch, inputs, offtbl, host_function, event_mailbox, interrupt_event] for what a placeholder buffer becomes when linked, got: register}}
  // expected-error @+1 {{invalid value for property tag}}
  %p = hcq.placeholder register slot 1 : !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that an undefined SSA value is named.
hcq.schedule @s() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  hcq.copy %a[0, 4], %b[0, 4] : !hcq.buffer<1xf32, AMD:0>, !hcq.buffer<1xf32, AMD:0>
}

// -----

// Tests that a constant word takes no OR bits.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{a constant word takes no '|' bits}}
    hcq.cmds cmdbuf i32 [0x1 | 0x2]
  }
}

// -----

// Tests that a patch group's width is i32 or i64.
hcq.executable @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{patch width must be i32 or i64}}
  hcq.patch_group %p offsets %o[0, 1] i8 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that a patch group's word names one operand.
hcq.executable @e(%n: i32, %m: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{a patch group's word names one operand}}
  hcq.patch_group %p offsets %o[0, 1] i32 var([%n, %m]) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that a device's placeholder is written `device`, not with a slot.
hcq.schedule @s() {
  // expected-error @+1 {{'timeline_signal' placeholders are the device's: expected 'device', they have no slot}}
  %t = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that an executable's placeholder has a slot, not `device`.
hcq.schedule @s() {
  // expected-error @+1 {{'signal' placeholders are the executable's: expected 'slot N', not 'device'}}
  %t = hcq.placeholder signal device volatile : !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a segment's list is closed.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{expected ']'}}
    %k = hcq.cmds kernargs i32 [0x1] [0x2
  }
}

// -----

// Tests that a launch's parenthesized operands are buffers.
hcq.schedule @s(%n: i32) {
  // expected-error @+1 {{the buffers in parentheses must be of buffer type, got 'i32'}}
  hcq.launch @k(%n : i32) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a launch's operands after `vars` are scalars.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>) {
  // expected-error @+1 {{the scalars after 'vars' must not be buffers, got '!hcq.buffer<4xf32, CPU:0>'}}
  hcq.launch @k() vars(%a : !hcq.buffer<4xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that each of a launch's operand lists has a type per operand.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>) {
  // expected-error @+1 {{2 buffers but 1 types}}
  hcq.launch @k(%a, %a : !hcq.buffer<4xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a wait has a type per signal.
hcq.schedule @s(%a: !hcq.buffer<1xi64, AMD:0>) {
  hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
    // expected-error @+1 {{number of operands and types do not match: got 2 operands and 1 types}}
    hcq.wait %a, %a >= 1 : !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that a store's value follows `=`.
hcq.schedule @s(%a: !hcq.buffer<1xi64, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{expected '='}}
    hcq.store %a >= 1 : !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that a schedule's targets are a bracketed list.
// expected-error @+1 {{expected '[' in the target list}}
hcq.schedule @s(%n: i32) targets #hcq.cpu_target {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that a schedule's target list is closed.
// expected-error @+1 {{expected ']' in the target list}}
hcq.schedule @s(%n: i32) targets [#hcq.cpu_target {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that targets written in the attribute dictionary are an array, not
// dropped on their way into the op's properties.
// expected-error @+1 {{custom op 'hcq.schedule' attribute 'targets' failed to satisfy constraint: array of targets (#hcq.amd_target, #hcq.cpu_target), one per device kind}}
hcq.schedule @s(%n: i32) attributes {targets = #hcq.cpu_target} {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that a submitter names no targets.
// expected-error @+1 {{custom op 'targets' is unknown}}
hcq.submitter @s() targets [#hcq.cpu_target] {
}

// -----

// Tests that a schedule's arguments must be named: bare types are the form
// of a function without a body (found by the fuzzer: an assertion in an
// assertion-enabled build, a read past the end of the name in Release).
// expected-error @+1 {{expected named arguments (%name: type): the op has a body}}
hcq.schedule @bytes(!hcq.buffer<8xi32, CPU:0>) {
}
