// RUN: hcq-opt %s -split-input-file --hcq-build-executable -verify-diagnostics

// Tests that a schedule must be lowered first.
hcq.schedule @s() {
  %c = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, CPU:0>
  // expected-error @+1 {{'hcq.enqueue' op is not lowered yet: run hcq-seal and hcq-lower-submit before hcq-build-executable}}
  hcq.enqueue %c[64] on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
}

// -----

// Tests that a module without any hcq.schedule (nothing for --hcq-pipeline
// to compile) is warned about instead of passing silently.
// expected-warning @below {{no hcq.schedule in the module: no executable was built}}
module {
  func.func @not_a_schedule() {
    return
  }
}

// -----

// Tests that a kernel library given by a path that does not exist is warned
// about, once, naming its kernels, when the executable is built, not first
// when it is run; a bare name (looked for at run time) is not.
// expected-warning @+1 {{library '/nonexistent-hcq-folder/libk.so' of @missing @also_missing does not exist: the runtime opens a library given by a path as written when it loads the executable (a bare name is looked for in its library search folders, hcq-run --library-path, and LD_LIBRARY_PATH)}}
hcq.kernel @missing cpu (readwrite f32) symbol "k" library "/nonexistent-hcq-folder/libk.so"
hcq.kernel @also_missing cpu (readwrite f32) symbol "k2" library "/nonexistent-hcq-folder/libk.so"
hcq.kernel @bare cpu (readwrite f32) symbol "k" library "libk.so"
hcq.schedule @s(%n: i32) {
  hcq.host_call "h"(%n : i32)
}
