// RUN: hcq-opt %s -split-input-file -verify-diagnostics --hcq-attach-targets --hcq-compile-schedules

// Tests that a schedule no module nesting reaches (inside a gpu.module) is
// refused before any schedule is compiled, naming the op it is in.
module attributes {gpu.container_module} {
  gpu.module @g {
    // expected-error @+1 {{'hcq.schedule' op is inside 'gpu.module': hcq-compile-schedules compiles schedules in modules (at any depth) only}}
    hcq.schedule @s(%n: i32) {
    }
  }
}
