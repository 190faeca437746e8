// Tests the whole pipeline so far on the bundled MLP example: two AMD GPUs,
// host input and output, copies between the devices. Every line is checked.
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | FileCheck %s
// CHECK-LABEL: module {
// CHECK-NEXT: hcq.kernel @matmul amd (write f32, read f32, read f32) symbol "matmul" code_object "{{[^"]+}}"
// CHECK-NEXT: hcq.kernel @relu amd (readwrite f32) symbol "relu" code_object "{{[^"]+}}"
// CHECK-LABEL: hcq.schedule @mlp(
// CHECK-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:1>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>) {
// CHECK-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder host_function slot 1 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder host_function slot 2 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V2:[a-z0-9]+]] = hcq.program @matmul : !hcq.buffer<12288xi8, AMD:0>
// CHECK-NEXT: %[[V3:[a-z0-9]+]] = hcq.program @relu : !hcq.buffer<12288xi8, AMD:0>
// CHECK-NEXT: %[[V4:[a-z0-9]+]] = hcq.program @matmul : !hcq.buffer<12288xi8, AMD:1>
// CHECK-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder epoch slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V11:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V12:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V13:[a-z0-9]+]] = hcq.placeholder sentinel_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V15:[a-z0-9]+]] = hcq.placeholder epoch slot 4 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V17:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V18:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V19:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V20:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V21:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V22:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V23:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V24:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: %[[V25:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.fence %[[V9]] reaches %[[V8]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.fence %[[V16]] reaches %[[V15]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.reset %[[V11]], %[[V12]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT: %[[V26:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[V23]]), hi(%[[V23]]), lo(%[[V22]]), hi(%[[V22]]), lo(%[[ARG1]]), hi(%[[ARG1]])] : !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<4096xf32, AMD:0>
// CHECK-NEXT: %[[V27:[a-z0-9]+]] = hcq.cmds kernargs i32 [lo(%[[V23]]), hi(%[[V23]])] : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, lo(%[[V18]]), hi(%[[V18]]), load.lo(%[[V19]] - 1), 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, lo(%[[V5]]), hi(%[[V5]]), 0x00000001, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, lo(%[[V2]] + 6400 >> 8), hi(%[[V2]] + 6400 >> 8), 0xc0027600, 0x00000212, 0xe0bf0001, 0x0000019c, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V26]]), hi(%[[V26]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000004, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, lo(%[[V3]] + 7424 >> 8), hi(%[[V3]] + 7424 >> 8), 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000010, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V27]]), hi(%[[V27]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000004, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x22000000, lo(%[[V6]]), hi(%[[V6]]), 0x00000003, 0x00000000, 0x00000000] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<12288xi8, AMD:0>, !hcq.linear, !hcq.buffer<12288xi8, AMD:0>, !hcq.linear, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// CHECK-NEXT: hcq.cmds cmdbuf i32 [0xd0000008, lo(%[[V18]]), hi(%[[V18]]), load.lo(%[[V19]] - 1), 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, lo(%[[ARG0]]), hi(%[[ARG0]]), lo(%[[V22]]), hi(%[[V22]]), 0x00030005, lo(%[[V5]]), hi(%[[V5]]), 0x00000001, 0x00000006, 0x00000000, 0xd0000008, lo(%[[V6]]), hi(%[[V6]]), 0x00000003, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, lo(%[[V23]]), hi(%[[V23]]), lo(%[[V24]]), hi(%[[V24]]), 0x00030005, lo(%[[V5]]), hi(%[[V5]]), 0x00000004, 0x00000006, 0x00000000] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xf32, CPU:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:1 queue COMPUTE:0 {
// CHECK-NEXT: %[[V26]] = hcq.cmds kernargs i32 [lo(%[[V25]]), hi(%[[V25]]), lo(%[[V24]]), hi(%[[V24]]), lo(%[[ARG2]]), hi(%[[ARG2]])] : !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<4096xf32, AMD:1>
// CHECK-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, lo(%[[V20]]), hi(%[[V20]]), load.lo(%[[V21]] - 1), 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, lo(%[[V5]]), hi(%[[V5]]), 0x00000004, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, lo(%[[V4]] + 6400 >> 8), hi(%[[V4]] + 6400 >> 8), 0xc0027600, 0x00000212, 0xe0bf0001, 0x0000019c, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, lo(%[[V26]]), hi(%[[V26]]), 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000004, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x22000000, lo(%[[V7]]), hi(%[[V7]]), 0x00000005, 0x00000000, 0x00000000] : !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<12288xi8, AMD:1>, !hcq.linear, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:1 queue COPY:0 {
// CHECK-NEXT: hcq.cmds cmdbuf i32 [0xd0000008, lo(%[[V20]]), hi(%[[V20]]), load.lo(%[[V21]] - 1), 0xffffffff, 0x0fff0004, 0xd0000008, lo(%[[V7]]), hi(%[[V7]]), 0x00000005, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, lo(%[[V25]]), hi(%[[V25]]), lo(%[[ARG3]]), hi(%[[ARG3]]), 0x00030005, lo(%[[V14]]), hi(%[[V14]]), 0x00000006, 0x00000006, 0x00000000] : !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, CPU:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// CHECK-NEXT: hcq.cmds cmdbuf i32 [0xc0053c00, 0x00000015, lo(%[[V5]]), hi(%[[V5]]), 0x00000004, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, lo([%[[V13]], %[[V14]]]), hi([%[[V13]], %[[V14]]]), 0x00000006, 0xffffffff, 0x00000004, 0xc0064900, 0x0070f514, 0x22000000, lo(%[[V9]]), hi(%[[V9]]), load.lo(%[[V10]]), load.hi(%[[V10]]), 0x00000000] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.finalize %[[V10]], %[[V8]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NEXT: hcq.cmds cmdbuf i64 [addr(%[[V0]]), addr(%[[V5]]), 0x0000000000000001, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V0]]), addr(%[[V14]]), 0x0000000000000006, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, addr(%[[V1]]), addr(%[[V16]]), load(%[[V17]]), 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: hcq.finalize %[[V17]], %[[V15]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: }
