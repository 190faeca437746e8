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

// Tests that a schedule nested deeper than hcq-pipeline compiles is refused:
// left uncompiled, its calls would pass for host work.
module {
  module {
    module {
      module {
        module {
          // expected-error @+1 {{'hcq.schedule' op is nested in 5 modules; hcq-pipeline compiles schedules nested in at most 4}}
          hcq.schedule @deep(%n: i32) {
            hcq.host_call "h"(%n : i32)
          }
        }
      }
    }
  }
}
