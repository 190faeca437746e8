// RUN: hcq-opt %s -split-input-file --hcq-attach-targets | FileCheck %s
// RUN: hcq-opt %s -split-input-file --hcq-attach-targets=amd=gfx942 | FileCheck %s --check-prefix=GFX9

// Tests that every schedule without targets gets the AMD target of the
// option and the CPU target, in nested modules too.
// CHECK-LABEL: hcq.schedule @top(%n: i32) targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target]
// CHECK: hcq.schedule @nested(%n: i32) targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target]
// GFX9-LABEL: hcq.schedule @top(%n: i32) targets [#hcq.amd_target<chip = "gfx942">, #hcq.cpu_target]
module {
  hcq.schedule @top(%n: i32) {
    hcq.host_call "h"(%n : i32)
  }
  module @inner {
    hcq.schedule @nested(%n: i32) {
      hcq.host_call "h"(%n : i32)
    }
  }
}

// -----

// Tests that a schedule naming its own targets keeps them.
// CHECK-LABEL: hcq.schedule @mine(%n: i32) targets [#hcq.amd_target<chip = "gfx1101">]
// GFX9-LABEL: hcq.schedule @mine(%n: i32) targets [#hcq.amd_target<chip = "gfx1101">]
hcq.schedule @mine(%n: i32) targets [#hcq.amd_target<chip = "gfx1101">] {
  hcq.host_call "h"(%n : i32)
}
