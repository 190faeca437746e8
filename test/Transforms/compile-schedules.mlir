// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-compile-schedules | FileCheck %s
// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-compile-schedules="batch-size=1" | FileCheck %s --check-prefix=ONE

// Tests that every schedule is compiled (batched, encoded, sealed, its
// submits lowered to pushes), at the top and six modules deep alike, and
// that the options reach hcq-batch-deps: the two launches are one push (then
// the push that signals the timeline) by default, two with batch-size=1.
// CHECK-LABEL: module @m1
// CHECK: hcq.schedule @deep
// CHECK-NOT: hcq.launch
// CHECK-COUNT-2: hcq.push
// CHECK-NOT: hcq.push
// CHECK: hcq.schedule @top
// CHECK-NOT: hcq.launch
// CHECK-COUNT-2: hcq.push
// CHECK-NOT: hcq.push
// CHECK-LABEL: module @empty
// ONE-LABEL: module @m1
// ONE: hcq.schedule @deep
// ONE-COUNT-3: hcq.push
// ONE-NOT: hcq.push
// ONE: hcq.schedule @top
// ONE-COUNT-3: hcq.push
// ONE-NOT: hcq.push
// ONE-LABEL: module @empty
module {
  module @m1 {
    module {
      module {
        module {
          module {
            module {
              hcq.kernel @k cpu (readwrite f32) symbol "k" library "libk.so"
              hcq.schedule @deep(%a: !hcq.buffer<64xf32, CPU:0>) {
                hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
                hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
              }
            }
          }
        }
      }
    }
  }
  hcq.kernel @k cpu (readwrite f32) symbol "k" library "libk.so"
  hcq.schedule @top(%a: !hcq.buffer<64xf32, CPU:0>) {
    hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
    hcq.launch @k(%a : !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  }
}

// -----

// Tests that a module with no schedule is left as it is.
// CHECK-NEXT: hcq.kernel @k
module @empty {
  hcq.kernel @k cpu (readwrite f32) symbol "k" library "libk.so"
}
