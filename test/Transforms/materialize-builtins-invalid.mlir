// Tests that an unknown target is named when the pass manager is set up,
// before anything runs.
// RUN: not hcq-opt %s --hcq-materialize-builtins=target=gfx803 2>&1 | FileCheck %s
// CHECK: <unknown>:0: error: hcq-materialize-builtins: unknown AMD target 'gfx803' (expected gfx1100, gfx1101, gfx1102 or gfx942)
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
