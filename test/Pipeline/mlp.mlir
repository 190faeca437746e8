// Tests the whole pipeline so far on the bundled MLP example: two AMD GPUs,
// host input and output, copies between the devices. Every line is checked.
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | FileCheck %s
// CHECK-LABEL: module {
// CHECK-NEXT: hcq.kernel @matmul amd (write f32, read f32, read f32) symbol "matmul" code_object "{{[^"]+}}"
// CHECK-NEXT: hcq.kernel @relu amd (readwrite f32) symbol "relu" code_object "{{[^"]+}}"
// CHECK-LABEL: hcq.schedule @mlp(
// CHECK-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:1>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>) {
// CHECK-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 5 : !hcq.buffer<1024xi8, AMD:0>
// CHECK-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder kernargs slot 6 : !hcq.buffer<256xi8, AMD:0>
// CHECK-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder inputs slot 7 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder offtbl slot 8 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 9 : !hcq.buffer<256xi8, AMD:0>
// CHECK-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder inputs slot 10 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder offtbl slot 11 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 12 : !hcq.buffer<512xi8, AMD:1>
// CHECK-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder kernargs slot 13 : !hcq.buffer<128xi8, AMD:1>
// CHECK-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder inputs slot 14 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder offtbl slot 15 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V11:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 16 : !hcq.buffer<128xi8, AMD:1>
// CHECK-NEXT: %[[V12:[a-z0-9]+]] = hcq.placeholder inputs slot 17 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V13:[a-z0-9]+]] = hcq.placeholder offtbl slot 18 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 19 : !hcq.buffer<128xi8, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V15:[a-z0-9]+]] = hcq.placeholder offtbl slot 20 : !hcq.buffer<4xi32, CPU:0>
// CHECK-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 21 : !hcq.buffer<256xi8, CPU:0>
// CHECK-NEXT: %[[V17:[a-z0-9]+]] = hcq.placeholder offtbl slot 22 : !hcq.buffer<2xi32, CPU:0>
// CHECK-NEXT: %[[V18:[a-z0-9]+]] = hcq.placeholder host_function slot 1 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V19:[a-z0-9]+]] = hcq.placeholder host_function slot 2 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V20:[a-z0-9]+]] = hcq.program @matmul : !hcq.buffer<12288xi8, AMD:0>
// CHECK-NEXT: %[[V21:[a-z0-9]+]] = hcq.program @relu : !hcq.buffer<12288xi8, AMD:0>
// CHECK-NEXT: %[[V22:[a-z0-9]+]] = hcq.program @matmul : !hcq.buffer<12288xi8, AMD:1>
// CHECK-NEXT: %[[V23:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V24:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V25:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V26:[a-z0-9]+]] = hcq.placeholder epoch slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V27:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V28:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V29:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V30:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V31:[a-z0-9]+]] = hcq.placeholder sentinel_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V32:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V33:[a-z0-9]+]] = hcq.placeholder epoch slot 4 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V34:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V35:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V36:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V37:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V38:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V39:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V40:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V41:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V42:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: %[[V43:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.fence %[[V27]] reaches %[[V26]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.fence %[[V34]] reaches %[[V33]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.reset %[[V29]], %[[V30]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V0]] = [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000001, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0xbebebebe, 0xbebebebe, 0xc0027600, 0x00000212, 0xe0bf0001, 0x0000019c, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0xbebebebe, 0xbebebebe, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000004, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0xbebebebe, 0xbebebebe, 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000010, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0xbebebebe, 0xbebebebe, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000004, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x22000000, 0xbebebebe, 0xbebebebe, 0x00000003, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [68: lo(%[[V36]]), 72: hi(%[[V36]]), 96: lo(%[[V23]]), 100: hi(%[[V23]]), 156: lo(%[[V20]] + 6400 >> 8), 160: hi(%[[V20]] + 6400 >> 8), 248: lo(%[[V1]]), 252: hi(%[[V1]]), 376: lo(%[[V21]] + 7424 >> 8), 380: hi(%[[V21]] + 7424 >> 8), 468: lo(%[[V1]] + 128), 472: hi(%[[V1]] + 128), 568: lo(%[[V24]]), 572: hi(%[[V24]])] : !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<12288xi8, AMD:0>, !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<12288xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.blob %[[V1]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [0: lo(%[[V41]]), 4: hi(%[[V41]]), 8: lo(%[[V40]]), 12: hi(%[[V40]]), 128: lo(%[[V41]]), 132: hi(%[[V41]])] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: hcq.inputs %[[V2]] = [%[[ARG1]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4096xf32, AMD:0>
// CHECK-NEXT: hcq.blob %[[V3]] = [0x0000004c, 0x00000000, 0x00000010, 0x00000000, 0x00000014, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V0]] offsets %[[V3]][0, 1] i32 load.lo(%[[V37]] - 1) : !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.patch_group %[[V1]] offsets %[[V3]][1, 1] i32 lo(%[[V2]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V1]] offsets %[[V3]][2, 1] i32 hi(%[[V2]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.enqueue %[[V0]][588] on AMD:0 queue COMPUTE:0 : !hcq.buffer<1024xi8, AMD:0>
// CHECK-NEXT: hcq.blob %[[V4]] = [0xd0000008, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00030005, 0xbebebebe, 0xbebebebe, 0x00000001, 0x00000006, 0x00000000, 0xd0000008, 0xbebebebe, 0xbebebebe, 0x00000003, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00030005, 0xbebebebe, 0xbebebebe, 0x00000004, 0x00000006, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V36]]), 8: hi(%[[V36]]), 44: lo(%[[V40]]), 48: hi(%[[V40]]), 56: lo(%[[V23]]), 60: hi(%[[V23]]), 80: lo(%[[V24]]), 84: hi(%[[V24]]), 112: lo(%[[V41]]), 116: hi(%[[V41]]), 120: lo(%[[V42]]), 124: hi(%[[V42]]), 132: lo(%[[V23]]), 136: hi(%[[V23]])] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.inputs %[[V5]] = [%[[ARG0]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<256xf32, CPU:0>
// CHECK-NEXT: hcq.blob %[[V6]] = [0x0000000c, 0x00000000, 0x00000024, 0x00000000, 0x00000028, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V4]] offsets %[[V6]][0, 1] i32 load.lo(%[[V37]] - 1) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.patch_group %[[V4]] offsets %[[V6]][1, 1] i32 lo(%[[V5]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V4]] offsets %[[V6]][2, 1] i32 hi(%[[V5]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.enqueue %[[V4]][152] on AMD:0 queue COPY:0 : !hcq.buffer<256xi8, AMD:0>
// CHECK-NEXT: hcq.blob %[[V7]] = [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000004, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0xbebebebe, 0xbebebebe, 0xc0027600, 0x00000212, 0xe0bf0001, 0x0000019c, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0xbebebebe, 0xbebebebe, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000004, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x22000000, 0xbebebebe, 0xbebebebe, 0x00000005, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [68: lo(%[[V38]]), 72: hi(%[[V38]]), 96: lo(%[[V23]]), 100: hi(%[[V23]]), 156: lo(%[[V22]] + 6400 >> 8), 160: hi(%[[V22]] + 6400 >> 8), 248: lo(%[[V8]]), 252: hi(%[[V8]]), 348: lo(%[[V25]]), 352: hi(%[[V25]])] : !hcq.buffer<512xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<12288xi8, AMD:1>, !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.blob %[[V8]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [0: lo(%[[V43]]), 4: hi(%[[V43]]), 8: lo(%[[V42]]), 12: hi(%[[V42]])] : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.inputs %[[V9]] = [%[[ARG2]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4096xf32, AMD:1>
// CHECK-NEXT: hcq.blob %[[V10]] = [0x0000004c, 0x00000000, 0x00000010, 0x00000000, 0x00000014, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V7]] offsets %[[V10]][0, 1] i32 load.lo(%[[V39]] - 1) : !hcq.buffer<512xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.patch_group %[[V8]] offsets %[[V10]][1, 1] i32 lo(%[[V9]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V8]] offsets %[[V10]][2, 1] i32 hi(%[[V9]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.enqueue %[[V7]][368] on AMD:1 queue COMPUTE:0 : !hcq.buffer<512xi8, AMD:1>
// CHECK-NEXT: hcq.blob %[[V11]] = [0xd0000008, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x0fff0004, 0xd0000008, 0xbebebebe, 0xbebebebe, 0x00000005, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00030005, 0xbebebebe, 0xbebebebe, 0x00000006, 0x00000006, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V38]]), 8: hi(%[[V38]]), 28: lo(%[[V25]]), 32: hi(%[[V25]]), 60: lo(%[[V43]]), 64: hi(%[[V43]]), 80: lo(%[[V32]]), 84: hi(%[[V32]])] : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.inputs %[[V12]] = [%[[ARG3]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<256xf32, CPU:0>
// CHECK-NEXT: hcq.blob %[[V13]] = [0x0000000c, 0x00000000, 0x00000044, 0x00000000, 0x00000048, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V11]] offsets %[[V13]][0, 1] i32 load.lo(%[[V39]] - 1) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.patch_group %[[V11]] offsets %[[V13]][1, 1] i32 lo(%[[V12]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V11]] offsets %[[V13]][2, 1] i32 hi(%[[V12]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.enqueue %[[V11]][100] on AMD:1 queue COPY:0 : !hcq.buffer<128xi8, AMD:1>
// CHECK-NEXT: hcq.blob %[[V14]] = [0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000004, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000006, 0xffffffff, 0x00000004, 0xc0064900, 0x0070f514, 0x22000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [8: lo(%[[V23]]), 12: hi(%[[V23]]), 36: lo([%[[V31]], %[[V32]]]), 40: hi([%[[V31]], %[[V32]]]), 68: lo(%[[V27]]), 72: hi(%[[V27]])] : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V15]] = [0x0000004c, 0x00000000, 0x00000050, 0x00000000] : !hcq.buffer<4xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V14]] offsets %[[V15]][0, 1] i32 load.lo(%[[V28]]) : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.patch_group %[[V14]] offsets %[[V15]][1, 1] i32 load.hi(%[[V28]]) : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.enqueue %[[V14]][88] on [AMD:0, AMD:1] queue COMPUTE:0 : !hcq.buffer<128xi8, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.finalize %[[V28]], %[[V26]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V16]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000006, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [0: addr(%[[V18]]), 8: addr(%[[V23]]), 64: addr(%[[V18]]), 72: addr(%[[V32]]), 128: addr(%[[V19]]), 136: addr(%[[V34]])] : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.blob %[[V17]] = [0x00000090, 0x00000000] : !hcq.buffer<2xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V16]] offsets %[[V17]][0, 1] i64 load(%[[V35]]) : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.enqueue %[[V16]][192] on CPU:0 queue COMPUTE:0 : !hcq.buffer<256xi8, CPU:0>
// CHECK-NEXT: hcq.finalize %[[V35]], %[[V33]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: }
