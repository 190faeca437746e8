// Tests that an unknown AMD target is named when the pass manager is set up,
// before anything runs.
// RUN: not hcq-opt %s --hcq-attach-targets=amd=gfx803 2>&1 | FileCheck %s
// CHECK: attach-targets-invalid.mlir:0:0: error: hcq-attach-targets: unknown AMD target 'gfx803' (expected gfx1100, gfx1101, gfx1102 or gfx942)
hcq.schedule @s(%n: i32) {
  hcq.host_call "h"(%n : i32)
}
