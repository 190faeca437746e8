// Tests that a builtin copy on AMD devices in a schedule that names no AMD
// target is refused, naming the pass that attaches one.
// RUN: hcq-opt %s --hcq-materialize-builtins -verify-diagnostics
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
// expected-error @+1 {{'hcq.schedule' op launches a builtin copy on AMD devices but names no AMD target in its 'targets': run hcq-attach-targets}}
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
  hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
}
