// Tests the whole pipeline so far on the bundled MLP example: two AMD GPUs,
// host input and output, copies between the devices. Every line is checked.
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | FileCheck %s
// CHECK-LABEL: module {
// CHECK-NEXT: hcq.kernel @matmul amd (write f32, read f32, read f32) code_object "\7FELF\02\01\01\00"
// CHECK-NEXT: hcq.kernel @relu amd (readwrite f32) code_object "\7FELF\02\01\01\00"
// CHECK-NEXT: hcq.schedule @mlp(%[[ARG0:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:1>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>) {
// CHECK-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder epoch slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder sentinel_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder epoch slot 4 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V11:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V12:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V13:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V15:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V17:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V18:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V19:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: %[[V20:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.fence %[[V4]] reaches %[[V3]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.fence %[[V11]] reaches %[[V10]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.reset %[[V6]], %[[V7]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT: hcq.barrier
// CHECK-NEXT: hcq.wait %[[V13]] >= [%[[V14]] : !hcq.buffer<1xi64, AMD:0>] - 1 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.wait %[[V0]] >= 1 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.launch @matmul(%[[V18]], %[[V17]], %[[ARG1]] : !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<4096xf32, AMD:0>) global [1, 4, 1] local [64, 1, 1]
// CHECK-NEXT: hcq.launch @relu(%[[V18]] : !hcq.buffer<256xf32, AMD:0>) global [4, 1, 1] local [64, 1, 1]
// CHECK-NEXT: hcq.store %[[V1]] = 3 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// CHECK-NEXT: hcq.barrier
// CHECK-NEXT: hcq.wait %[[V13]] >= [%[[V14]] : !hcq.buffer<1xi64, AMD:0>] - 1 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.copy %[[V17]][0, 1024], %[[ARG0]][0, 1024] : !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, CPU:0>
// CHECK-NEXT: hcq.store %[[V0]] = 1 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.wait %[[V1]] >= 3 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.copy %[[V19]][0, 1024], %[[V18]][0, 1024] : !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: hcq.store %[[V0]] = 4 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:1 queue COMPUTE:0 {
// CHECK-NEXT: hcq.barrier
// CHECK-NEXT: hcq.wait %[[V15]] >= [%[[V16]] : !hcq.buffer<1xi64, AMD:1>] - 1 : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.wait %[[V0]] >= 4 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.launch @matmul(%[[V20]], %[[V19]], %[[ARG2]] : !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<4096xf32, AMD:1>) global [1, 4, 1] local [64, 1, 1]
// CHECK-NEXT: hcq.store %[[V2]] = 5 : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:1 queue COPY:0 {
// CHECK-NEXT: hcq.barrier
// CHECK-NEXT: hcq.wait %[[V15]] >= [%[[V16]] : !hcq.buffer<1xi64, AMD:1>] - 1 : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.wait %[[V2]] >= 5 : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.copy %[[ARG3]][0, 1024], %[[V20]][0, 1024] : !hcq.buffer<256xf32, CPU:0>, !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.store %[[V9]] = 6 : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// CHECK-NEXT: hcq.wait %[[V0]] >= 4 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.wait %[[V8]], %[[V9]] >= 6 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.store %[[V4]] = [%[[V5]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.finalize %[[V5]], %[[V3]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NEXT: hcq.wait %[[V0]] >= 1 : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.wait %[[V9]] >= 6 : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.store %[[V11]] = [%[[V12]] : !hcq.buffer<1xi64, CPU:0>] : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.finalize %[[V12]], %[[V10]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: }
