// Every verifier error of the hcq dialect, one case each.
// RUN: hcq-opt %s -split-input-file -verify-diagnostics

// Tests that an empty device tuple is rejected.
// expected-error @+1 {{device tuple must not be empty}}
func.func private @f(!hcq.buffer<4xf32, []>)

// -----

// Tests that a device may appear only once in a tuple.
// expected-error @+1 {{device AMD:0 appears twice in a device tuple}}
func.func private @f(!hcq.buffer<4xf32, [AMD:0, AMD:0]>)

// -----

// Tests that a zero-sized buffer is rejected.
// expected-error @+1 {{buffer must have a positive element count, got 0}}
func.func private @f(!hcq.buffer<0xf32, CPU:0>)

// -----

// Tests that a negative-sized buffer is rejected.
// expected-error @+1 {{buffer must have a positive element count, got -4}}
func.func private @f(!hcq.buffer<-4xf32, CPU:0>)

// -----

// Tests that buffers are one-dimensional.
// expected-error @+1 {{buffer must have exactly one dimension, got 2}}
func.func private @f(!hcq.buffer<4x4xf32, CPU:0>)

// -----

// Tests that elements must be whole bytes.
// expected-error @+1 {{buffer element type must be an integer or float of whole bytes, got 'i1'}}
func.func private @f(!hcq.buffer<4xi1, CPU:0>)

// -----

// Tests that a schedule has no results.
// expected-error @+1 {{'hcq.schedule' op must not have results}}
hcq.schedule @s() -> i32 {
  hcq.host_call "f"()
}

// -----

// Tests that a schedule needs a body.
// expected-error @+1 {{'hcq.schedule' op must have a body}}
hcq.schedule @s()

// -----

// Tests that schedule arguments are buffers or bound variables (integers,
// f32, f64).
// expected-error @+1 {{'hcq.schedule' op argument #0 must be an !hcq.buffer or a bound variable (an integer, f32 or f64), got 'f16'}}
hcq.schedule @s(%x: f16) {
  hcq.host_call "f"()
}

// -----

// Tests that an executable holds no submits: they are sealed and pushed by
// submitters by then.
hcq.executable @e() {
  // expected-error @+1 {{'hcq.submit' op is not allowed in an executable: only link-time memory, submitter calls and host calls are}}
  hcq.submit on CPU:0 queue COMPUTE:0 {
  }
}

// -----

// Tests that a submitter holds only host-plan ops.
hcq.submitter @sub() {
  // expected-error @+1 {{'hcq.alloc' op is not allowed in a submitter: only fences, resets, patch groups, pushes and finalizers are}}
  %a = hcq.alloc : !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a call names a submitter.
hcq.executable @e() {
  // expected-error @+1 {{'hcq.call' op 'nope' does not name an hcq.submitter}}
  hcq.call @nope()
}

// -----

// Tests that a call passes the submitter's argument types.
hcq.submitter @sub(%s: !hcq.buffer<1xi64, CPU:0>) {
  hcq.reset %s : !hcq.buffer<1xi64, CPU:0>
}
hcq.executable @e(%n: i32) {
  // expected-error @+1 {{'hcq.call' op operand types do not match @sub's arguments}}
  hcq.call @sub(%n : i32)
}

// -----

// Tests that the access and type lists of a kernel match.
// expected-error @+1 {{'hcq.kernel' op has 1 argument accesses but 0 argument types}}
"hcq.kernel"() <{arg_access = [1 : i32], arg_types = [], sym_name = "k", symbol = "k", library = "l", target = 0 : i32}> : () -> ()

// -----

// Tests that kernel argument element types are whole bytes.
// expected-error @+1 {{'hcq.kernel' op argument #1 must have an integer or float element type of whole bytes, got 'i1'}}
hcq.kernel @k cpu (read f32, write i1) symbol "k" library "libk.so"

// -----

// Tests that the variable count is not negative.
// expected-error @+1 {{'hcq.kernel' op property 'num_vars' failed to satisfy constraint: a non-negative 64-bit integer}}
hcq.kernel @k cpu () vars -1 symbol "k" library "libk.so"

// -----

// Tests that a cpu kernel names its symbol.
// expected-error @+1 {{'hcq.kernel' op cpu kernel needs a host 'symbol'}}
hcq.kernel @k cpu () library "libk.so"

// -----

// Tests that a cpu kernel names its library.
// expected-error @+1 {{'hcq.kernel' op cpu kernel needs the shared 'library' that holds its symbol}}
hcq.kernel @k cpu () symbol "k"

// -----

// Tests that a cpu kernel carries no code object.
// expected-error @+1 {{'hcq.kernel' op cpu kernel must not carry a 'code_object'}}
hcq.kernel @k cpu () symbol "k" library "libk.so" code_object "\7FELF"

// -----

// Tests that an amd kernel carries its code object.
// expected-error @+1 {{'hcq.kernel' op amd kernel needs its 'code_object' bytes}}
hcq.kernel @k amd () symbol "k"

// -----

// Tests that an amd code object must be an ELF file.
// expected-error @+1 {{'hcq.kernel' op amd kernel 'code_object' is not an ELF file (bad magic)}}
hcq.kernel @k amd () code_object "garbage"

// -----

// Tests that an amd kernel names no library.
// expected-error @+1 {{'hcq.kernel' op amd kernel must not name a 'library'}}
hcq.kernel @k amd () library "libk.so" code_object "\7FELF"

// -----

// Tests that a builtin kernel carries no code.
// expected-error @+1 {{'hcq.kernel' op builtin kernel must not carry a 'library' or 'code_object'}}
hcq.kernel @k builtin (write f32, read f32) symbol "copy" library "libk.so"

// -----

// Tests that unknown builtins are rejected.
// expected-error @+1 {{'hcq.kernel' op unknown builtin kernel 'fill' (expected 'copy')}}
hcq.kernel @k builtin (write f32) symbol "fill"

// -----

// Tests the builtin copy's signature.
// expected-error @+1 {{'hcq.kernel' op builtin 'copy' takes (write T, read U)}}
hcq.kernel @k builtin (read f32, write f32) symbol "copy"

// -----

// Tests that the builtin copy has one element size.
// expected-error @+1 {{'hcq.kernel' op builtin 'copy' needs one element size for both arguments}}
hcq.kernel @k builtin (write f32, read i16) symbol "copy"

// -----

// Tests that a view keeps the devices.
hcq.schedule @s(%b: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.view' op view must be on the source's devices}}
  %v = hcq.view %b[0] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<4xf32, CPU:1>
}

// -----

// Tests that a view offset is not negative.
hcq.schedule @s(%b: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.view' op property 'offset' failed to satisfy constraint: a non-negative 64-bit integer}}
  %v = hcq.view %b[-1] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a view lies within its source.
hcq.schedule @s(%b: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.view' op view of bytes [56, 72) is outside the source's 64 bytes}}
  %v = hcq.view %b[14] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a reinterpreting view is bounded in bytes.
hcq.schedule @s(%b: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.view' op view of bytes [60, 68) is outside the source's 64 bytes}}
  %v = hcq.view %b[15] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<8xi8, CPU:0>
}

// -----

// Tests that a grid has three dimensions.
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op global size must have 3 dimensions, got 2}}
  hcq.launch @k() global [1, 1] local [1, 1, 1]
}

// -----

// Tests that a zero-sized grid is rejected.
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op local size must be positive in every dimension, got 0}}
  hcq.launch @k() global [1, 1, 1] local [0, 1, 1]
}

// -----

// Tests that a negative grid is rejected.
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op global size must be positive in every dimension, got -2}}
  hcq.launch @k() global [-2, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a launch names a kernel.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op 'missing' does not name an hcq.kernel}}
  hcq.launch @missing() global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a launch passes as many buffers as the kernel takes.
hcq.kernel @k cpu (write f32, read f32) symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.launch' op passes 1 buffers but kernel @k takes 2}}
  hcq.launch @k(%a : !hcq.buffer<4xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that buffer element types match the kernel's.
hcq.kernel @k cpu (write f32) symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<4xi32, CPU:0>) {
  // expected-error @+1 {{'hcq.launch' op buffer #0 has element type 'i32' but kernel @k expects 'f32'}}
  hcq.launch @k(%a : !hcq.buffer<4xi32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a launch binds as many variables as the kernel takes.
hcq.kernel @k cpu () vars 2 symbol "k" library "libk.so"
hcq.schedule @s(%n: i32) {
  // expected-error @+1 {{'hcq.launch' op passes 1 bound variables but kernel @k takes 2}}
  hcq.launch @k() vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a launch's buffers come before its scalars: the op tells them
// apart by type, so a scalar before a buffer (possible in the generic form)
// is refused rather than taken for a buffer.
hcq.kernel @k cpu (write f32) vars 1 symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>, %n: i32) {
  // expected-error @+1 {{'hcq.launch' op operand #0 is a scalar before a buffer: the buffers come first}}
  "hcq.launch"(%n, %a) <{kernel = @k, global_size = array<i64: 1, 1, 1>, local_size = array<i64: 1, 1, 1>}> : (i32, !hcq.buffer<4xf32, CPU:0>) -> ()
}

// -----

// Tests that a launch's operands are buffers or scalars.
hcq.schedule @s() {
  %h = arith.constant 1.0 : f16
  // expected-error @+1 {{'hcq.launch' op operand #0 must be variadic of hcq buffer or signless integer or index or 32-bit float or 64-bit float, but got 'f16'}}
  "hcq.launch"(%h) <{kernel = @k, global_size = array<i64: 1, 1, 1>, local_size = array<i64: 1, 1, 1>}> : (f16) -> ()
}

// -----

// Tests that copy offsets are not negative.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>, %b: !hcq.buffer<4xf32, AMD:0>) {
  // expected-error @+1 {{'hcq.copy' op destination offset must not be negative, got -4}}
  hcq.copy %b[-4, 4], %a[0, 4] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a copy moves at least one byte.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>, %b: !hcq.buffer<4xf32, AMD:0>) {
  // expected-error @+1 {{'hcq.copy' op source size must be positive, got 0}}
  hcq.copy %b[0, 4], %a[0, 0] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that copy ranges lie within their buffers.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>, %b: !hcq.buffer<4xf32, AMD:0>) {
  // expected-error @+1 {{'hcq.copy' op source range [8, 24) is outside the 16-byte buffer}}
  hcq.copy %b[0, 16], %a[8, 16] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that both sides of a copy have one byte size.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>, %b: !hcq.buffer<4xf32, AMD:0>) {
  // expected-error @+1 {{'hcq.copy' op copies 16 source bytes into a 8-byte destination range}}
  hcq.copy %b[0, 8], %a[0, 16] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a copy of several lanes into one is refused, naming both device
// tuples: which lane would land is ambiguous (docs/ir.md).
hcq.schedule @s(%a: !hcq.buffer<4xf32, [CPU:0, CPU:1, AMD:0, AMD:1]>, %b: !hcq.buffer<4xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.copy' op copies 4 lanes of [CPU:0, CPU:1, AMD:0, AMD:1] into 1 lane of [CPU:0]: which lane lands is ambiguous (lanes cannot be selected from a buffer on several devices); copy from a buffer on one device, or into one on 4 devices}}
  hcq.copy %b[0, 16], %a[0, 16] : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, [CPU:0, CPU:1, AMD:0, AMD:1]>
}

// -----

// Tests that a copy between different lane counts above one is refused,
// naming both device tuples: lanes have no pairing.
hcq.schedule @s(%a: !hcq.buffer<4xf32, [CPU:0, CPU:1]>, %b: !hcq.buffer<4xf32, [AMD:0, AMD:1, AMD:2]>) {
  // expected-error @+1 {{'hcq.copy' op copies 2 lanes of [CPU:0, CPU:1] into 3 lanes of [AMD:0, AMD:1, AMD:2]: lanes pair up only when both sides have as many, or the source has one (a broadcast); copy between buffers on as many devices}}
  hcq.copy %b[0, 16], %a[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1, AMD:2]>, !hcq.buffer<4xf32, [CPU:0, CPU:1]>
}

// -----

// Tests that placeholder slots are not negative.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.placeholder' op property 'slot' failed to satisfy constraint: a non-negative 64-bit integer}}
  %p = hcq.placeholder cmdbuf slot -1 : !hcq.buffer<128xi8, AMD:0>
}

// -----

// Tests that signal placeholders are one 64-bit word.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.placeholder' op 'timeline_signal' placeholder must be a !hcq.buffer<1xi64, ...>, got '!hcq.buffer<2xi64, AMD:0>'}}
  %p = hcq.placeholder timeline_signal device : !hcq.buffer<2xi64, AMD:0>
}

// -----

// Tests that submits are on devices with command queues.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.submit' op device CUDA:0 has no command queues (expected AMD or CPU)}}
  hcq.submit on CUDA:0 queue COMPUTE:0 {
  }
}

// -----

// Tests that the SUBMIT queue is a host queue.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.submit' op the SUBMIT queue exists only on CPU devices}}
  hcq.submit on AMD:0 queue SUBMIT:0 {
  }
}

// -----

// Tests that a submit holds only queue commands.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.alloc' op is not allowed in an hcq.submit}}
    %a = hcq.alloc : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a wait lives in a submit.
hcq.schedule @s() {
  %p = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.wait' op expects parent op 'hcq.submit'}}
  hcq.wait %p >= 1 : !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a wait has one signal, or one per lane.
hcq.schedule @s() {
  %p = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on [AMD:0, AMD:1, AMD:2] queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.wait' op has 2 signals but the submit has 3 lanes (expected 1 or 3)}}
    hcq.wait %p, %p >= 1 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that a wait has a signal at all.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.wait' op needs at least one signal}}
    "hcq.wait"() <{value = 1 : i64}> : () -> ()
  }
}

// -----

// Tests that a wait's value buffer, the last operand when
// has_value_buffer is set, is not missing.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.wait' op has a value buffer but no operands}}
    "hcq.wait"() <{has_value_buffer, value = 1 : i64}> : () -> ()
  }
}

// -----

// Tests that a store whose only operand is its value buffer has no signal.
hcq.schedule @s() {
  %v = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.store' op needs at least one signal}}
    "hcq.store"(%v) <{has_value_buffer, value = 0 : i64}> : (!hcq.buffer<1xi64, AMD:0>) -> ()
  }
}

// -----

// Tests that signals are one 64-bit word.
hcq.schedule @s(%b: !hcq.buffer<2xi32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.store' op signal must be a !hcq.buffer<1xi64, ...>, got '!hcq.buffer<2xi32, AMD:0>'}}
    hcq.store %b = 1 : !hcq.buffer<2xi32, AMD:0>
  }
}

// -----

// Tests that a signal value read from memory is a 64-bit word.
hcq.schedule @s(%b: !hcq.buffer<2xi64, CPU:0>) {
  %p = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.wait' op value buffer must be a !hcq.buffer<1xi64, ...>, got '!hcq.buffer<2xi64, CPU:0>'}}
    hcq.wait %p >= [%b : !hcq.buffer<2xi64, CPU:0>] - 1 : !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that a constant signal value is not negative.
hcq.schedule @s() {
  %p = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.wait' op signal value must not be negative, got -3}}
    hcq.wait %p >= -3 : !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that timestamps have one slot, or one per lane.
hcq.schedule @s() {
  %t = hcq.placeholder timestamp slot 1 : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on [AMD:0, AMD:1, AMD:2] queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.timestamp' op has 2 timestamp slots but the submit has 3 lanes (expected 1 or 3)}}
    hcq.timestamp %t, %t : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that a profile entry names timestamp placeholders.
hcq.schedule @s() {
  %t = hcq.placeholder timestamp slot 1 : !hcq.buffer<1xi64, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.profile' op end must be a 'timestamp' placeholder of !hcq.buffer<1xi64, ...>}}
  hcq.profile "k" %t, %s queue COMPUTE:0 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a profile entry's timestamps are on the same devices.
hcq.schedule @s() {
  %t = hcq.placeholder timestamp slot 1 : !hcq.buffer<1xi64, AMD:0>
  %u = hcq.placeholder timestamp slot 2 : !hcq.buffer<1xi64, AMD:1>
  // expected-error @+1 {{'hcq.profile' op brackets a call with timestamps on different devices: '!hcq.buffer<1xi64, AMD:0>' and '!hcq.buffer<1xi64, AMD:1>'}}
  hcq.profile "k" %t, %u queue COMPUTE:0 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
}

// -----

// Tests that timestamp slots are one 64-bit word.
hcq.schedule @s(%b: !hcq.buffer<4xi8, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.timestamp' op timestamp slot must be a !hcq.buffer<1xi64, ...>}}
    hcq.timestamp %b : !hcq.buffer<4xi8, AMD:0>
  }
}

// -----

// Tests that a fence compares 64-bit words.
hcq.schedule @s(%b: !hcq.buffer<4xi8, CPU:0>) {
  %tl = hcq.placeholder timeline_signal device : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.fence' op fence operand must be a !hcq.buffer<1xi64, ...>, got '!hcq.buffer<4xi8, CPU:0>'}}
  hcq.fence %tl reaches %b : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<4xi8, CPU:0>
}

// -----

// Tests that a reset names a signal.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.reset' op needs at least one signal}}
  "hcq.reset"() : () -> ()
}

// -----

// Tests that a reset zeroes only signals.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  // expected-error @+1 {{'hcq.reset' op signal must be a !hcq.buffer<1xi64, ...>}}
  hcq.reset %b : !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that finalize works on 64-bit words.
hcq.schedule @s(%b: !hcq.buffer<4xf32, CPU:0>) {
  %tlv = hcq.placeholder timeline_value device : !hcq.buffer<1xi64, CPU:0>
  // expected-error @+1 {{'hcq.finalize' op finalize operand must be a !hcq.buffer<1xi64, ...>}}
  hcq.finalize %tlv, %b : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that command words are 32 or 64 bits.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op property 'word_bits' failed to satisfy constraint: 32 or 64}}
    "hcq.cmds"() <{tag = 7 : i32, word_bits = 16 : i32, words = array<i32>, symbols = array<i64>}> : () -> ()
  }
}

// -----

// Tests that an indirect stream returns its value.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op with a tag other than 'cmdbuf' must return its !hcq.linear stream}}
    "hcq.cmds"() <{tag = 8 : i32, word_bits = 64 : i32, words = array<i32>, symbols = array<i64>}> : () -> ()
  }
}

// -----

// Tests that the queue stream has no value.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op with tag 'cmdbuf' must not have a result}}
    %l = "hcq.cmds"() <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32>, symbols = array<i64>}> : () -> !hcq.linear
  }
}

// -----

// Tests that the queue stream is one segment.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op with tag 'cmdbuf' must have one segment}}
    "hcq.cmds"() <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0, 0>, symbols = array<i64>, segments = array<i32: 1>}> : () -> ()
  }
}

// -----

// Tests that segments start in order.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op segment #2 starts at word 1, not in order within the 2 words}}
    %l = "hcq.cmds"() <{tag = 8 : i32, word_bits = 32 : i32, words = array<i32: 0, 0>, symbols = array<i64>, segments = array<i32: 2, 1>}> : () -> !hcq.linear
  }
}

// -----

// Tests that segments start within the stream.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op segment #1 starts at word 3, not in order within the 2 words}}
    %l = "hcq.cmds"() <{tag = 8 : i32, word_bits = 32 : i32, words = array<i32: 0, 0>, symbols = array<i64>, segments = array<i32: 3>}> : () -> !hcq.linear
  }
}

// -----

// Tests that command words live in a submit.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.cmds' op must be inside an hcq.submit}}
  hcq.cmds cmdbuf i32 [0x1]
}

// -----

// Tests that a symbolic word has no constant bits in the dense words (its
// OR bits are in its symbols entry: [at | (kind | part << 8 | shift << 16)
// << 32, ref | lanes << 32, value, or_bits]).
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 is symbolic but has constant bits too}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 1, 0>, symbols = array<i64: 4294967296, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a pair entry (metadata bit 24: an address or load over two
// 32-bit words) is refused in a 64-bit stream.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 is a pair of halves in a 64-bit stream}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0, 0, 0>, symbols = array<i64: 72057598332895232, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a variable is never a pair (a 64-bit variable's halves are two
// entries).
hcq.schedule @s(%n: i64) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbols table entry 0 is a pair but not a full address or load}}
    "hcq.cmds"(%n) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0, 0>, symbols = array<i64: 72057602627862528, 4294967296, 0, 0>}> : (i64) -> ()
  }
}

// -----

// Tests that a pair's second word stands in the stream too.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbolic word at 1 is past the stream's 1 words}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0>, symbols = array<i64: 72057598332895232, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a pair's second word has no constant bits either (its OR bits
// are the high half of the entry's).
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #1 is symbolic but has constant bits too}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0, 5>, symbols = array<i64: 72057598332895232, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that an entry after a pair starts after the pair's second word.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbols table entry 1 is at 1, not after the one before}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0, 0, 0>, symbols = array<i64: 72057598332895232, 4294967296, 0, 0, 1103806595073, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that the symbols table holds whole entries (refused as the generic
// form is read: each entry is a struct).
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{symbols table holds 3 integers, not 4 per entry}}
    "hcq.cmds"() <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0>, symbols = array<i64: 0, 0, 4294967296>}> : () -> ()
  }
}

// -----

// Tests that symbolic words are listed once each, in order.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbols table entry 1 is at 0, not after the one before}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0, 0>, symbols = array<i64: 1103806595072, 4294967296, 0, 0, 2203318222848, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that the symbols table holds symbolic kinds only: a constant is a
// dense word.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbols table entry 0 has kind 0, not address, variable or load}}
    "hcq.cmds"() <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0>, symbols = array<i64: 0, 4294967295, 5, 0>}> : () -> ()
  }
}

// -----

// Tests that a symbolic word's part is full, lo or hi (part 3 here, in a
// 32-bit stream, where a half is what a word must be), as the generic form
// is read.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{symbols table entry 0 has part 3}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0>, symbols = array<i64: 3302829850624, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a symbolic word's kind, part, shift and pair bit leave the
// rest of its bits zero (bit 25 set here), as the generic form is read.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{symbols table entry 0 has unknown bits 1}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0>, symbols = array<i64: 144115192370823168, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a symbolic word's kind is one of the four (kind 4 here), as the
// generic form is read.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{symbols table entry 0 has kind 4}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0>, symbols = array<i64: 17179869184, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that the symbols table's generic form is an array of i64.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{symbols table must be an array<i64>, got array<i32: 0>}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0>, symbols = array<i32: 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a symbolic word's shift is below 64.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbols table entry 0 shifts by 64, not below 64}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0>, symbols = array<i64: 18014402804449280, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that a symbolic word stands in the stream.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op symbolic word at 1 is past the stream's 1 words}}
    "hcq.cmds"(%b) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0>, symbols = array<i64: 4294967297, 4294967296, 0, 0>}> : (!hcq.buffer<4xf32, AMD:0>) -> ()
  }
}

// -----

// Tests that word operand indices are in range.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 refers to operands [2, 3) but there are 0}}
    "hcq.cmds"() <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0>, symbols = array<i64: 1103806595072, 4294967298, 0, 0>}> : () -> ()
  }
}

// -----

// Tests that a variable word refers to an integer.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #1 is a variable but its operand has type '!hcq.buffer<4xf32, AMD:0>'}}
    hcq.cmds cmdbuf i32 [0x1, var(%b)] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a variable word takes no offset.
hcq.schedule @s(%n: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 is a variable and takes no offset or shift}}
    "hcq.cmds"(%n) <{tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0>, symbols = array<i64: 8589934592, 4294967296, 4, 0>}> : (i32) -> ()
  }
}

// -----

// Tests that an address word refers to a buffer or stream.
hcq.schedule @s(%n: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 takes the address of a 'i32', not a buffer or stream}}
    hcq.cmds cmdbuf i32 [lo(%n)] : i32
  }
}

// -----

// Tests that an address offset stays within its buffer.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 address offset 20 is outside the 16-byte buffer}}
    hcq.cmds cmdbuf i32 [lo(%b + 20)] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that constants of a 32-bit stream fit in 32 bits (a 32-bit stream
// stores 32 bits per word), OR bits too.
hcq.schedule @s() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{word #0 constant 4294967296 does not fit in 32 bits}}
    hcq.cmds cmdbuf i32 [0x100000000]
  }
}

// -----

hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{word #1 constant 8589934592 does not fit in 32 bits}}
    hcq.cmds cmdbuf i32 [0x1, lo(%b) | 0x200000000] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a 64-bit stream's words are whole pairs of 32-bit units.
hcq.schedule @s() {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op words hold 3 32-bit units, not whole 64-bit words}}
    "hcq.cmds"() <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 1, 2, 3>, symbols = array<i64>}> : () -> ()
  }
}

// -----

// Tests that a 32-bit stream takes addresses in halves.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 is 64 bits wide in a 32-bit stream: use lo(...) and hi(...)}}
    hcq.cmds cmdbuf i32 [addr(%b)] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a 64-bit stream takes whole addresses.
hcq.schedule @s(%b: !hcq.buffer<4xf32, AMD:0>) {
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 is a 32-bit half in a 64-bit stream}}
    hcq.cmds cmdbuf i64 [hi(%b)] : !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that a blob writes into link-time memory.
hcq.schedule @e(%b: !hcq.buffer<4xi32, AMD:0>) {
  // expected-error @+1 {{'hcq.blob' op target must be link-time memory (an hcq.placeholder, hcq.program or hcq.alloc)}}
  hcq.blob %b = [0x1] : !hcq.buffer<4xi32, AMD:0>
}

// -----

// Tests that a blob fits its placeholder.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<4xi8, AMD:0>
  // expected-error @+1 {{'hcq.blob' op writes 8 bytes into a 4-byte placeholder}}
  hcq.blob %p = [0x1, 0x2] : !hcq.buffer<4xi8, AMD:0>
}

// -----

// Tests that a blob's patch table holds whole entries, as the generic form
// is read.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{patch table holds 1 integers, not 4 per entry}}
  "hcq.blob"(%p) <{data = array<i32: 1, 2>, patches = array<i64: 0>}> : (!hcq.buffer<8xi8, AMD:0>) -> ()
}

// -----

// Tests that two patches do not write the same bytes.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<16xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.blob' op patch table entry 1 is at 4, not after the one before}}
  hcq.blob %p = [0x1, 0x2, 0x3, 0x4] patches [4: lo(%s), 4: hi(%s)] : !hcq.buffer<16xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that blob patches are addresses.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{'hcq.blob' op patch #0 must be an address: constants belong in the data, variables in an hcq.patch_group}}
  hcq.blob %p = [0x1, 0x2] patches [0: var(%n)] : !hcq.buffer<8xi8, AMD:0>, i32
}

// -----

// Tests that link-time patches take placeholder addresses only.
hcq.schedule @e(%x: !hcq.buffer<4xf32, AMD:0>) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{'hcq.blob' op patch #0 takes the address of a value that is not a placeholder or program: per-run addresses go through hcq.patch_group}}
  hcq.blob %p = [0x1, 0x2] patches [0: addr(%x)] : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that blob patches lie within the data.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.blob' op patch #0 at byte 4 is outside the 8-byte data}}
  hcq.blob %p = [0x1, 0x2] patches [4: addr(%s)] : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a blob patch's address lies within its buffer.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.blob' op word #0 address offset 16 is outside the 8-byte buffer}}
  hcq.blob %p = [0x1, 0x2] patches [0: addr(%s + 16)] : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a blob patch's part is full, lo or hi (part 3 here), as the
// generic form is read.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{patch table entry 0 has part 3}}
  "hcq.blob"(%p, %s) <{data = array<i32: 1, 2>, patches = array<i64: 3302829850624, 4294967296, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>) -> ()
}

// -----

// Tests that a blob patch is never a pair: a blob's 64-bit patch is one
// word at a byte offset.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.blob' op patch #0 is a pair of stream words, not one patch}}
  "hcq.blob"(%p, %s) <{data = array<i32: 1, 2>, patches = array<i64: 72057598332895232, 4294967296, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>) -> ()
}

// -----

// Tests that a blob patch names an operand the blob has (generic form: the
// patches are [at | (kind | part << 8) << 32, ref | lanes << 32, offset,
// or_bits]; ref 1 of one operand).
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.blob' op word #0 refers to operands [1, 2) but there are 1}}
  "hcq.blob"(%p, %s) <{data = array<i32: 1, 2>, patches = array<i64: 4294967296, 4294967297, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>) -> ()
}

// -----

// Tests that the inputs table is an inputs placeholder.
hcq.schedule @e(%x: !hcq.buffer<4xf32, AMD:0>) {
  %p = hcq.placeholder offtbl slot 1 : !hcq.buffer<4xi64, CPU:0>
  // expected-error @+1 {{'hcq.inputs' op table must be a 'inputs' placeholder of i64}}
  hcq.inputs %p = [%x] lanes [0] : !hcq.buffer<4xi64, CPU:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that every input names its lane.
hcq.schedule @e(%x: !hcq.buffer<4xf32, AMD:0>) {
  %t = hcq.placeholder inputs slot 1 : !hcq.buffer<4xi64, CPU:0>
  // expected-error @+1 {{'hcq.inputs' op has 1 inputs but 2 lanes}}
  hcq.inputs %t = [%x] lanes [0, 0] : !hcq.buffer<4xi64, CPU:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that the inputs fit the table's slots.
hcq.schedule @e(%x: !hcq.buffer<4xf32, AMD:0>) {
  %t = hcq.placeholder inputs slot 1 : !hcq.buffer<1xi64, CPU:0>
  // expected-error @+1 {{'hcq.inputs' op fills 2 slots of a table that has 1}}
  hcq.inputs %t = [%x, %x] lanes [0, 0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that table inputs are schedule inputs.
hcq.schedule @e() {
  %t = hcq.placeholder inputs slot 1 : !hcq.buffer<1xi64, CPU:0>
  %a = hcq.alloc : !hcq.buffer<4xf32, AMD:0>
  // expected-error @+1 {{'hcq.inputs' op input #0 must be an argument of the schedule}}
  hcq.inputs %t = [%a] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that a table slot names an existing lane.
hcq.schedule @e(%x: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  %t = hcq.placeholder inputs slot 1 : !hcq.buffer<1xi64, CPU:0>
  // expected-error @+1 {{'hcq.inputs' op slot 0 names lane 2 of an input with 2 lanes}}
  hcq.inputs %t = [%x] lanes [2] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>
}

// -----

// Tests that patch groups read an offset table.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi64, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op offsets must be a 'offtbl' placeholder of i32}}
  hcq.patch_group %p offsets %o[0, 1] i32 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi64, CPU:0>, i32
}

// -----

// Tests that patch groups write into a placeholder.
hcq.schedule @e(%x: !hcq.buffer<8xi8, AMD:0>, %n: i32) {
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op target must be an hcq.placeholder}}
  hcq.patch_group %x offsets %o[0, 1] i32 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that a patch group has a positive length.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op property 'count' failed to satisfy constraint: a positive 64-bit integer}}
  hcq.patch_group %p offsets %o[0, 0] i32 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that a patch group starts inside the offset table.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op property 'start' failed to satisfy constraint: a non-negative 64-bit integer}}
  hcq.patch_group %p offsets %o[-1, 1] i32 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that a patch group stays within the offset table.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op entries [1, 3) are outside the offset table's 2}}
  hcq.patch_group %p offsets %o[1, 2] i32 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that an address patch reads the inputs table.
hcq.schedule @e(%x: !hcq.buffer<4xi64, CPU:0>) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op an address patch's source must be a 'inputs' placeholder of i64}}
  hcq.patch_group %p offsets %o[0, 1] i32 lo(%x) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<4xi64, CPU:0>
}

// -----

// Tests that a patch group's variable source is an integer, f32 or f64.
hcq.schedule @e(%x: !hcq.buffer<4xi64, CPU:0>) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  %f = arith.constant 1.0 : f16
  // expected-error @+1 {{'hcq.patch_group' op word #0 is a variable but its operand has type 'f16'}}
  hcq.patch_group %p offsets %o[0, 1] i32 var(%f) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, f16
}

// -----

// Tests that an enqueue stays within its command buffer.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{'hcq.enqueue' op size 12 is outside the 8-byte command buffer}}
  hcq.enqueue %p[12] on AMD:0 queue COMPUTE:0 : !hcq.buffer<8xi8, AMD:0>
}

// -----

// Tests that an enqueue targets a device with command queues.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  // expected-error @+1 {{'hcq.enqueue' op device METAL:0 has no command queues (expected AMD or CPU)}}
  hcq.enqueue %p[8] on METAL:0 queue COMPUTE:0 : !hcq.buffer<8xi8, AMD:0>
}

// -----

// Tests that a program names a kernel.
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.program' op 'missing' does not name an hcq.kernel}}
  %p = hcq.program @missing : !hcq.buffer<16xi8, AMD:0>
}

// -----

// Tests that a load word reads a 64-bit placeholder.
hcq.schedule @s(%b: !hcq.buffer<1xi64, CPU:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 loads from a value that is not a 64-bit placeholder}}
    hcq.cmds cmdbuf i32 [load.lo(%b)] : !hcq.buffer<1xi64, CPU:0>
  }
}

// -----

// Tests that a load word takes no shift.
hcq.schedule @s() {
  %t = hcq.placeholder timeline_value device : !hcq.buffer<1xi64, CPU:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 is a load and takes no shift}}
    "hcq.cmds"(%t) <{tag = 7 : i32, word_bits = 64 : i32, words = array<i32: 0, 0>, symbols = array<i64: 2251812698587136, 4294967296, 0, 0>}> : (!hcq.buffer<1xi64, CPU:0>) -> ()
  }
}

// -----

// Tests that a per-lane word has one operand per lane of its submit.
hcq.schedule @s() {
  %a = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:0>
  %b = hcq.placeholder signal slot 1 : !hcq.buffer<1xi64, AMD:1>
  hcq.submit on [AMD:0, AMD:1, AMD:2] queue COMPUTE:0 {
    // expected-error @+1 {{'hcq.cmds' op word #0 has 2 lanes but the submit has 3}}
    hcq.cmds cmdbuf i32 [lo([%a, %b])] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
  }
}

// -----

// Tests that every lane of a per-lane blob patch is link-time.
hcq.schedule @e(%x: !hcq.buffer<1xi64, AMD:1>) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, [AMD:0, AMD:1]>
  %s = hcq.placeholder signal slot 2 : !hcq.buffer<1xi64, AMD:0>
  // expected-error @+1 {{'hcq.blob' op patch #0 takes the address of a value that is not a placeholder or program}}
  hcq.blob %p = [0x1, 0x2] patches [0: addr([%s, %x])] : !hcq.buffer<8xi8, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
}

// -----

// Tests that a patch writes as many bits as its word has.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  %t = hcq.placeholder inputs slot 3 : !hcq.buffer<4xi64, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op writes a 32-bit half word as 64 bits}}
  hcq.patch_group %p offsets %o[0, 1] i64 lo(%t) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<4xi64, CPU:0>
}

// -----

// Tests that a patch width is 32 or 64 bits.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op property 'bits' failed to satisfy constraint: 32 or 64}}
  "hcq.patch_group"(%p, %o, %n) <{start = 0 : i64, count = 1 : i64, bits = 16 : i32, word = array<i64: 8589934592, 4294967296, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32) -> ()
}

// -----

// Tests that constants do not go in patch groups.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op a constant belongs in the blob, not in a patch group}}
  "hcq.patch_group"(%p, %o, %n) <{start = 0 : i64, count = 1 : i64, bits = 32 : i32, word = array<i64: 0, 8589934591, 5, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32) -> ()
}

// -----

// Tests that an address patch's word names its source alone: printing and
// the executable's conversion read a word's operands by its ref, and there
// is one.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  %t = hcq.placeholder inputs slot 3 : !hcq.buffer<4xi64, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op word refers to operands [5, 6) but there is 1 (its source)}}
  "hcq.patch_group"(%p, %o, %t) <{start = 0 : i64, count = 1 : i64, bits = 32 : i32, word = array<i64: 1103806595072, 4294967301, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<4xi64, CPU:0>) -> ()
}

// -----

// Tests that a patch group's word shifts by less than 64.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  %t = hcq.placeholder inputs slot 3 : !hcq.buffer<4xi64, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op word shifts by 70, not below 64}}
  "hcq.patch_group"(%p, %o, %t) <{start = 0 : i64, count = 1 : i64, bits = 32 : i32, word = array<i64: 19704352176340992, 4294967296, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<4xi64, CPU:0>) -> ()
}

// -----

// Tests that a patch group's word, in the generic form, is one symbol entry
// at 0 (a pair here).
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{word must be one entry at 0, not a pair}}
  "hcq.patch_group"(%p, %o, %n) <{start = 0 : i64, count = 1 : i64, bits = 32 : i32, word = array<i64: 72057602627862528, 4294967296, 0, 0>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32) -> ()
}

// -----

// Tests that a patch group's word, in the generic form, is four integers.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{word holds 2 integers, not 4 per entry}}
  "hcq.patch_group"(%p, %o, %n) <{start = 0 : i64, count = 1 : i64, bits = 32 : i32, word = array<i64: 8589934592, 4294967296>}> : (!hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32) -> ()
}

// -----

// Tests that a push stays within its source.
hcq.schedule @e() {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  // expected-error @+1 {{'hcq.push' op size 256 is outside the 128-byte source}}
  hcq.push %cb[256] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
}

// -----

// Tests that the cpu mode is for CPU devices.
hcq.schedule @e() {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  // expected-error @+1 {{'hcq.push' op mode 'cpu' does not fit devices of this kind}}
  hcq.push %cb[16] cpu on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
}

// -----

// Tests that pm4 pushes go to compute queues.
hcq.schedule @e() {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  // expected-error @+1 {{'hcq.push' op mode 'pm4' is for compute queues}}
  hcq.push %cb[16] pm4 on AMD:0 queue COPY:0 : !hcq.buffer<128xi8, AMD:0>
}

// -----

// Tests that sdma pushes go to copy queues.
hcq.schedule @e() {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  // expected-error @+1 {{'hcq.push' op mode 'sdma' is for copy queues}}
  hcq.push %cb[16] sdma on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
}

// -----

// Tests that a per-lane blob names a lane of its target.
hcq.schedule @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, [AMD:0, AMD:1]>
  // expected-error @+1 {{'hcq.blob' op lane 2 of a target with 2 lanes}}
  hcq.blob %p = [0x1] : !hcq.buffer<8xi8, [AMD:0, AMD:1]> {lane = 2 : i32}
}

// -----

// Tests that a device's placeholder has no slot: its memory is one per
// device for the whole process.
hcq.schedule @e() {
  // expected-error @+1 {{'hcq.placeholder' op 'timeline_signal' placeholders are the device's and have no slot, got slot 3}}
  %t = "hcq.placeholder"() <{tag = 1 : i32, slot = 3 : i64}> : () -> !hcq.buffer<1xi64, AMD:0>
}

// -----

// Tests that a kernel scalar is a bound variable or a constant: a value
// computed in the schedule has no value when the executable is built.
hcq.kernel @k cpu () vars 1 symbol "k" library "libk.so"
hcq.schedule @e(%n: i32) {
  %m = arith.addi %n, %n : i32
  // expected-error @+1 {{'hcq.launch' op scalar #0 is neither an argument of the schedule (a bound variable) nor a constant: compute it before the schedule and pass it as an argument}}
  hcq.launch @k() vars(%m : i32) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that a code object resource must be bytes.
// expected-error @+1 {{'hcq.kernel' op amd kernel 'code_object' resource must be a tensor<Nxi8>, got 'tensor<2xi32>'}}
hcq.kernel @k amd (write f32) symbol "k" code_object dense_resource<words> : tensor<2xi32>

{-#
  dialect_resources: {
    builtin: {
      words: "0x040000007F454C4602010100"
    }
  }
#-}

// -----

// Tests that a code object resource the file does not hold is reported by
// name, and its bytes (had it any) are never echoed.
// expected-error @+1 {{'hcq.kernel' op amd kernel 'code_object' names the resource 'nowhere', which the file does not hold}}
hcq.kernel @k amd (write f32) symbol "k" code_object dense_resource<nowhere> : tensor<8xi8>

// -----

// Tests that a code object resource holds an ELF file.
// expected-error @+1 {{'hcq.kernel' op amd kernel 'code_object' is not an ELF file (bad magic)}}
hcq.kernel @k amd (write f32) symbol "k" code_object dense_resource<notelf> : tensor<4xi8>

{-#
  dialect_resources: {
    builtin: {
      notelf: "0x0400000001020304"
    }
  }
#-}

// -----

// Tests that a CPU kernel's launch has local size [1, 1, 1]: the CPU device
// calls it once per workgroup and passes no workgroup size, so any other
// local size would silently compute one work-item per workgroup.
hcq.kernel @k cpu (write f32) symbol "k" library "libk.so"
hcq.schedule @e(%a: !hcq.buffer<64xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.launch' op launches the cpu kernel @k with local size [64, 1, 1]: a CPU kernel is called once per workgroup and gets no workgroup size, so its local size must be [1, 1, 1] (put the work-items in global)}}
  hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [64, 1, 1]
}

// -----

// Tests that an argument's hcq.access is one of the kernel signature's words.
// expected-error @+1 {{argument #0's 'hcq.access' must be "read", "write" or "readwrite", got "sometimes"}}
hcq.schedule @bad_access(%a: !hcq.buffer<4xf32, CPU:0> {hcq.access = "sometimes"}) {
}

// -----

// Tests that only a buffer argument has an hcq.access.
// expected-error @+1 {{argument #0 has 'hcq.access' but is not a buffer}}
hcq.schedule @variable_access(%n: i32 {hcq.access = "read"}) {
}

// -----

// Tests that an AMD target names a chip the encoder knows.
// expected-error @+1 {{unknown AMD chip 'gfx803' (expected gfx1100, gfx1101, gfx1102 or gfx942)}}
hcq.schedule @s(%n: i32) targets [#hcq.amd_target<chip = "gfx803">] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that an AMD target's indirect buffers hold more than the longest
// packet and fit the INDIRECT_BUFFER size field.
// expected-error @+1 {{indirect_buffer_dwords 63 is not in [64, 1048575]}}
hcq.schedule @s(%n: i32) targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 63>] {
  hcq.host_call "h"(%n : i32)
}

// -----

// expected-error @+1 {{indirect_buffer_dwords 1048576 is not in [64, 1048575]}}
hcq.schedule @s(%n: i32) targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 1048576>] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that a schedule names one target per device kind, naming both.
// expected-error @+1 {{'hcq.schedule' op 'targets' names two targets for AMD devices: #hcq.amd_target<chip = "gfx1100"> and #hcq.amd_target<chip = "gfx942">}}
hcq.schedule @s(%n: i32) targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target, #hcq.amd_target<chip = "gfx942">] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that an executable names one target per device kind too.
// expected-error @+1 {{'hcq.executable' op 'targets' names two targets for CPU devices: #hcq.cpu_target and #hcq.cpu_target}}
hcq.executable @e(%n: i32) targets [#hcq.cpu_target, #hcq.cpu_target] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that the targets are target attributes.
// expected-error @+1 {{'hcq.schedule' op 'targets' holds 5 : i64, which is not a target (a TargetAttrInterface such as #hcq.amd_target or #hcq.cpu_target)}}
hcq.schedule @s(%n: i32) targets [#hcq.cpu_target, 5] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that the host target, which gpu.modules compile for, is not a
// target of a schedule.
// expected-error @+1 {{'hcq.schedule' op 'targets' holds #hcq.host_target, which is not a target (a TargetAttrInterface such as #hcq.amd_target or #hcq.cpu_target)}}
hcq.schedule @s(%n: i32) targets [#hcq.host_target] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Tests that the generic form's targets are checked as the custom form's.
// expected-error @+1 {{'hcq.executable' op 'targets' holds "gfx1100", which is not a target (a TargetAttrInterface such as #hcq.amd_target or #hcq.cpu_target)}}
"hcq.executable"() <{function_type = () -> (), sym_name = "e", targets = ["gfx1100"]}> ({
  "hcq.host_call"() <{callee = "h"}> : () -> ()
}) : () -> ()

// -----

// Tests that targets, when named, name at least one.
// expected-error @+1 {{'hcq.schedule' op 'targets' must name at least one target (leave it out to name none)}}
hcq.schedule @s(%n: i32) targets [] {
  hcq.host_call "h"(%n : i32)
}

// -----

// Size arithmetic (issue 39): every size the verifiers compute from IR is
// computed with overflow checks, so no wrapped size passes a bound.

// Tests that (size arithmetic) a buffer whose byte size overflows int64 is
// refused: 2^62 f32 elements are 2^64 bytes, which would wrap to 0.
// expected-error @+1 {{buffer of 4611686018427387904 elements of 'f32' has a byte size that does not fit a signed 64-bit integer (at most 2305843009213693951 elements)}}
func.func private @f(!hcq.buffer<4611686018427387904xf32, CPU:0>)

// -----

// Tests that (size arithmetic) the largest f32 buffer whose byte size fits
// is still accepted, and one element more is refused.
func.func private @fits(!hcq.buffer<2305843009213693951xf32, CPU:0>)
// expected-error @+1 {{buffer of 2305843009213693952 elements of 'f32' has a byte size that does not fit a signed 64-bit integer}}
func.func private @g(!hcq.buffer<2305843009213693952xf32, CPU:0>)

// -----

// Tests that (size arithmetic) an hcq.alloc of a buffer whose byte size
// overflows is refused at the type.
hcq.schedule @s() {
  // expected-error @+1 {{buffer of 1152921504606846977 elements of 'f64' has a byte size that does not fit a signed 64-bit integer}}
  %a = hcq.alloc : !hcq.buffer<1152921504606846977xf64, CPU:0>
}

// -----

// Tests that (size arithmetic) a zero-width element type, which would make
// a zero-byte buffer, is refused.
// expected-error @+1 {{buffer element type must be an integer or float of whole bytes, got 'i0'}}
func.func private @f(!hcq.buffer<4xi0, CPU:0>)

// -----

// Tests that (size arithmetic) a view whose byte offset overflows is
// refused rather than wrapped into the source.
hcq.schedule @s(%b: !hcq.buffer<16xf32, CPU:0>) {
  // expected-error @+1 {{'hcq.view' op view of 16 bytes at element 4611686018427387904 ends past 2^63 bytes, outside the source's 64 bytes}}
  %v = hcq.view %b[4611686018427387904] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that (size arithmetic) a copy range whose end overflows is refused
// rather than wrapped into the buffer.
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>, %b: !hcq.buffer<4xf32, AMD:0>) {
  // expected-error @+1 {{'hcq.copy' op source range of 16 bytes at 9223372036854775800 ends past 2^63 bytes, outside the 16-byte buffer}}
  hcq.copy %b[0, 16], %a[9223372036854775800, 16] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that (size arithmetic) a patch group whose entry range overflows is
// refused.
hcq.schedule @e(%n: i32) {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  %o = hcq.placeholder offtbl slot 2 : !hcq.buffer<4xi32, CPU:0>
  // expected-error @+1 {{'hcq.patch_group' op 9223372036854775807 entries from 1 end past 2^63, outside the offset table's 2}}
  hcq.patch_group %p offsets %o[1, 9223372036854775807] i32 var(%n) : !hcq.buffer<8xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, i32
}

// -----

// Tests that (size arithmetic) a grid dimension above 32 bits is refused:
// AMD's DISPATCH_DIRECT takes 32-bit dimensions and would run a truncated
// grid (here 0 workgroups).
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op global size 4294967296 is more than the 4294967295 a dimension can have}}
  hcq.launch @k() global [4294967296, 1, 1] local [1, 1, 1]
}

// -----

// Tests that (size arithmetic) the largest 32-bit grid dimension is
// accepted.
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  hcq.launch @k() global [4294967295, 4294967295, 4294967295] local [1, 1, 1]
}
// expected-error @+2 {{'hcq.launch' op global size 4294967296 is more than the 4294967295 a dimension can have}}
hcq.schedule @t() {
  hcq.launch @k() global [1, 1, 4294967296] local [1, 1, 1]
}

// -----

// Tests that (size arithmetic) a workgroup dimension above the hardware's
// 1024 work-items is refused.
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op local size 1025 is more than the 1024 a dimension can have}}
  hcq.launch @k() global [1, 1, 1] local [1, 1025, 1]
}

// -----

// Tests that (size arithmetic) a workgroup whose work-items multiply past
// 1024 is refused, though each dimension is within it; huge dimensions
// whose product wraps are refused by the per-dimension bound first.
hcq.kernel @k cpu () symbol "k" library "libk.so"
hcq.schedule @s() {
  // expected-error @+1 {{'hcq.launch' op local size [64, 32, 1] is 2048 work-items per workgroup, more than the 1024 a workgroup can have}}
  hcq.launch @k() global [1, 1, 1] local [64, 32, 1]
}
// expected-error @+2 {{'hcq.launch' op local size 2097152 is more than the 1024 a dimension can have}}
hcq.schedule @t() {
  hcq.launch @k() global [1, 1, 1] local [2097152, 2097152, 4194304]
}

// -----

// Tests that (size arithmetic) a code object resource whose declared size
// differs from its blob is refused: readers size the code object by the
// type and read the blob.
// expected-error @+1 {{'hcq.kernel' op amd kernel 'code_object' resource 'short' holds 4 bytes but is declared as 'tensor<64xi8>'}}
hcq.kernel @k amd (write f32) symbol "k" code_object dense_resource<short> : tensor<64xi8>

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000007F454C46"
    }
  }
#-}

// -----

// Tests that (size arithmetic) an index scalar is refused at the launch: the
// kernel arguments take a scalar's bits, and an index has no fixed width
// (the AMD encoder asked it for one).
hcq.kernel @k cpu () vars 1 symbol "k" library "libk.so"
hcq.schedule @e() {
  %c = arith.constant 3 : index
  // expected-error @+1 {{'hcq.launch' op scalar #0 is 'index': hcq kernel scalars are integers of at most 64 bits, f32 or f64 (an index has no fixed width: pass it as i32 or i64)}}
  hcq.launch @k() vars(%c : index) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that (size arithmetic) a scalar wider than the 8 bytes a kernel
// argument gives it is refused, not truncated.
hcq.kernel @k cpu () vars 1 symbol "k" library "libk.so"
hcq.schedule @e() {
  %c = arith.constant 3 : i128
  // expected-error @+1 {{'hcq.launch' op scalar #0 is 'i128': hcq kernel scalars are integers of at most 64 bits, f32 or f64}}
  hcq.launch @k() vars(%c : i128) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that the discardable 'hcq.targets' of older hcq is refused by name,
// not ignored: targets are the schedule's own attribute now.
// expected-error @+1 {{'hcq.targets' is no longer read: a schedule or executable names its targets as `targets [...]` after its signature (its inherent 'targets' attribute)}}
hcq.schedule @s(%n: i32) attributes {hcq.targets = [#hcq.amd_target<chip = "gfx1100">]} {
}
