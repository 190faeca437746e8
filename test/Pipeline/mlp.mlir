// Tests the whole pipeline so far on the bundled MLP example: two AMD GPUs,
// host input and output, copies between the devices. Every line is checked.
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | FileCheck %s
// CHECK-LABEL: module {
// CHECK-NEXT: hcq.kernel @matmul amd (write f32, read f32, read f32) symbol "matmul" code_object "{{[^"]+}}"
// CHECK-NEXT: hcq.kernel @relu amd (readwrite f32) symbol "relu" code_object "{{[^"]+}}"
// CHECK-LABEL: hcq.schedule @mlp(
// CHECK-SAME: %[[ARG0:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<4096xf32, AMD:1>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<256xf32, CPU:0>) {
// CHECK-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder ring slot 0 volatile : !hcq.buffer<1048576xi8, AMD:0>
// CHECK-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder ring_put slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder ring_wptr slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder ring_rptr slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder doorbell slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 23 : !hcq.buffer<128xi8, AMD:0>
// CHECK-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder ring slot 256 volatile : !hcq.buffer<1048576xi8, AMD:0>
// CHECK-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder ring_put slot 256 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder ring_wptr slot 256 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder ring_rptr slot 256 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder doorbell slot 256 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V11:[a-z0-9]+]] = hcq.placeholder ring slot 0 volatile : !hcq.buffer<1048576xi8, AMD:1>
// CHECK-NEXT: %[[V12:[a-z0-9]+]] = hcq.placeholder ring_put slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V13:[a-z0-9]+]] = hcq.placeholder ring_wptr slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder ring_rptr slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V15:[a-z0-9]+]] = hcq.placeholder doorbell slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 24 : !hcq.buffer<128xi8, AMD:1>
// CHECK-NEXT: %[[V17:[a-z0-9]+]] = hcq.placeholder ring slot 256 volatile : !hcq.buffer<1048576xi8, AMD:1>
// CHECK-NEXT: %[[V18:[a-z0-9]+]] = hcq.placeholder ring_put slot 256 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V19:[a-z0-9]+]] = hcq.placeholder ring_wptr slot 256 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V20:[a-z0-9]+]] = hcq.placeholder ring_rptr slot 256 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V21:[a-z0-9]+]] = hcq.placeholder doorbell slot 256 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V22:[a-z0-9]+]] = hcq.placeholder ring slot 0 volatile : !hcq.buffer<1048576xi8, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V23:[a-z0-9]+]] = hcq.placeholder ring_put slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V24:[a-z0-9]+]] = hcq.placeholder ring_wptr slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V25:[a-z0-9]+]] = hcq.placeholder ring_rptr slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V26:[a-z0-9]+]] = hcq.placeholder doorbell slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V27:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 25 : !hcq.buffer<128xi8, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V28:[a-z0-9]+]] = hcq.placeholder ring slot 0 volatile : !hcq.buffer<1048576xi8, CPU:0>
// CHECK-NEXT: %[[V29:[a-z0-9]+]] = hcq.placeholder ring_put slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V30:[a-z0-9]+]] = hcq.placeholder ring_wptr slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V31:[a-z0-9]+]] = hcq.placeholder ring_rptr slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V32:[a-z0-9]+]] = hcq.placeholder doorbell slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V33:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 5 : !hcq.buffer<1024xi8, AMD:0>
// CHECK-NEXT: %[[V34:[a-z0-9]+]] = hcq.placeholder kernargs slot 6 : !hcq.buffer<256xi8, AMD:0>
// CHECK-NEXT: %[[V35:[a-z0-9]+]] = hcq.placeholder inputs slot 7 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V36:[a-z0-9]+]] = hcq.placeholder offtbl slot 8 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V37:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 9 : !hcq.buffer<256xi8, AMD:0>
// CHECK-NEXT: %[[V38:[a-z0-9]+]] = hcq.placeholder inputs slot 10 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V39:[a-z0-9]+]] = hcq.placeholder offtbl slot 11 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V40:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 12 : !hcq.buffer<512xi8, AMD:1>
// CHECK-NEXT: %[[V41:[a-z0-9]+]] = hcq.placeholder kernargs slot 13 : !hcq.buffer<128xi8, AMD:1>
// CHECK-NEXT: %[[V42:[a-z0-9]+]] = hcq.placeholder inputs slot 14 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V43:[a-z0-9]+]] = hcq.placeholder offtbl slot 15 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V44:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 16 : !hcq.buffer<128xi8, AMD:1>
// CHECK-NEXT: %[[V45:[a-z0-9]+]] = hcq.placeholder inputs slot 17 : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V46:[a-z0-9]+]] = hcq.placeholder offtbl slot 18 : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: %[[V47:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 19 : !hcq.buffer<128xi8, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V48:[a-z0-9]+]] = hcq.placeholder offtbl slot 20 : !hcq.buffer<4xi32, CPU:0>
// CHECK-NEXT: %[[V49:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 21 : !hcq.buffer<256xi8, CPU:0>
// CHECK-NEXT: %[[V50:[a-z0-9]+]] = hcq.placeholder offtbl slot 22 : !hcq.buffer<2xi32, CPU:0>
// CHECK-NEXT: %[[V51:[a-z0-9]+]] = hcq.placeholder host_function slot 1 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V52:[a-z0-9]+]] = hcq.placeholder host_function slot 2 : !hcq.buffer<1xi8, CPU:0>
// CHECK-NEXT: %[[V53:[a-z0-9]+]] = hcq.program @matmul : !hcq.buffer<12288xi8, AMD:0>
// CHECK-NEXT: %[[V54:[a-z0-9]+]] = hcq.program @relu : !hcq.buffer<12288xi8, AMD:0>
// CHECK-NEXT: %[[V55:[a-z0-9]+]] = hcq.program @matmul : !hcq.buffer<12288xi8, AMD:1>
// CHECK-NEXT: %[[V56:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V57:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V58:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V59:[a-z0-9]+]] = hcq.placeholder epoch slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V60:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V61:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V62:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V63:[a-z0-9]+]] = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: %[[V64:[a-z0-9]+]] = hcq.placeholder sentinel_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V65:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V66:[a-z0-9]+]] = hcq.placeholder epoch slot 4 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V67:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V68:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: %[[V69:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V70:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: %[[V71:[a-z0-9]+]] = hcq.placeholder timeline_signal slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V72:[a-z0-9]+]] = hcq.placeholder timeline_value slot 0 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: %[[V73:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V74:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: %[[V75:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: %[[V76:[a-z0-9]+]] = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.fence %[[V60]] reaches %[[V59]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.fence %[[V67]] reaches %[[V66]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.reset %[[V62]], %[[V63]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V33]] = [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000001, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0xbebebebe, 0xbebebebe, 0xc0027600, 0x00000212, 0xe0bf0001, 0x0000019c, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0xbebebebe, 0xbebebebe, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000004, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0xbebebebe, 0xbebebebe, 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000010, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0xbebebebe, 0xbebebebe, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000004, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x22000000, 0xbebebebe, 0xbebebebe, 0x00000003, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [68: lo(%[[V69]]), 72: hi(%[[V69]]), 96: lo(%[[V56]]), 100: hi(%[[V56]]), 156: lo(%[[V53]] + 6400 >> 8), 160: hi(%[[V53]] + 6400 >> 8), 248: lo(%[[V34]]), 252: hi(%[[V34]]), 376: lo(%[[V54]] + 7424 >> 8), 380: hi(%[[V54]] + 7424 >> 8), 468: lo(%[[V34]] + 128), 472: hi(%[[V34]] + 128), 568: lo(%[[V57]]), 572: hi(%[[V57]])] : !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<12288xi8, AMD:0>, !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<12288xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.blob %[[V34]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [0: lo(%[[V74]]), 4: hi(%[[V74]]), 8: lo(%[[V73]]), 12: hi(%[[V73]]), 128: lo(%[[V74]]), 132: hi(%[[V74]])] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>
// CHECK-NEXT: hcq.inputs %[[V35]] = [%[[ARG1]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4096xf32, AMD:0>
// CHECK-NEXT: hcq.blob %[[V36]] = [0x0000004c, 0x00000000, 0x00000010, 0x00000000, 0x00000014, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V33]] offsets %[[V36]][0, 1] i32 load.lo(%[[V70]] - 1) : !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.patch_group %[[V34]] offsets %[[V36]][1, 1] i32 lo(%[[V35]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V34]] offsets %[[V36]][2, 1] i32 hi(%[[V35]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.blob %[[V5]] = [0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800093, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V33]]), 8: hi(%[[V33]])] : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<1024xi8, AMD:0>
// CHECK-NEXT: hcq.push %[[V5]][16] pm4 ring(%[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]]) on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<1048576xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.blob %[[V37]] = [0xd0000008, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00030005, 0xbebebebe, 0xbebebebe, 0x00000001, 0x00000006, 0x00000000, 0xd0000008, 0xbebebebe, 0xbebebebe, 0x00000003, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00030005, 0xbebebebe, 0xbebebebe, 0x00000004, 0x00000006, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V69]]), 8: hi(%[[V69]]), 44: lo(%[[V73]]), 48: hi(%[[V73]]), 56: lo(%[[V56]]), 60: hi(%[[V56]]), 80: lo(%[[V57]]), 84: hi(%[[V57]]), 112: lo(%[[V74]]), 116: hi(%[[V74]]), 120: lo(%[[V75]]), 124: hi(%[[V75]]), 132: lo(%[[V56]]), 136: hi(%[[V56]])] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.inputs %[[V38]] = [%[[ARG0]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<256xf32, CPU:0>
// CHECK-NEXT: hcq.blob %[[V39]] = [0x0000000c, 0x00000000, 0x00000024, 0x00000000, 0x00000028, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V37]] offsets %[[V39]][0, 1] i32 load.lo(%[[V70]] - 1) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.patch_group %[[V37]] offsets %[[V39]][1, 1] i32 lo(%[[V38]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V37]] offsets %[[V39]][2, 1] i32 hi(%[[V38]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.push %[[V37]][152] sdma ring(%[[V6]], %[[V7]], %[[V8]], %[[V9]], %[[V10]]) on AMD:0 queue COPY:0 : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<1048576xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.blob %[[V40]] = [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000004, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0xbebebebe, 0xbebebebe, 0xc0027600, 0x00000212, 0xe0bf0001, 0x0000019c, 0xc0017600, 0x00000228, 0x00000030, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0xbebebebe, 0xbebebebe, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000004, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x22000000, 0xbebebebe, 0xbebebebe, 0x00000005, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [68: lo(%[[V71]]), 72: hi(%[[V71]]), 96: lo(%[[V56]]), 100: hi(%[[V56]]), 156: lo(%[[V55]] + 6400 >> 8), 160: hi(%[[V55]] + 6400 >> 8), 248: lo(%[[V41]]), 252: hi(%[[V41]]), 348: lo(%[[V58]]), 352: hi(%[[V58]])] : !hcq.buffer<512xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<12288xi8, AMD:1>, !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.blob %[[V41]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [0: lo(%[[V76]]), 4: hi(%[[V76]]), 8: lo(%[[V75]]), 12: hi(%[[V75]])] : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:1>
// CHECK-NEXT: hcq.inputs %[[V42]] = [%[[ARG2]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<4096xf32, AMD:1>
// CHECK-NEXT: hcq.blob %[[V43]] = [0x0000004c, 0x00000000, 0x00000010, 0x00000000, 0x00000014, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V40]] offsets %[[V43]][0, 1] i32 load.lo(%[[V72]] - 1) : !hcq.buffer<512xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.patch_group %[[V41]] offsets %[[V43]][1, 1] i32 lo(%[[V42]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V41]] offsets %[[V43]][2, 1] i32 hi(%[[V42]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.blob %[[V16]] = [0xc0023f00, 0xbebebebe, 0xbebebebe, 0x0080005c, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V40]]), 8: hi(%[[V40]])] : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<512xi8, AMD:1>
// CHECK-NEXT: hcq.push %[[V16]][16] pm4 ring(%[[V11]], %[[V12]], %[[V13]], %[[V14]], %[[V15]]) on AMD:1 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<1048576xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.blob %[[V44]] = [0xd0000008, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xffffffff, 0x0fff0004, 0xd0000008, 0xbebebebe, 0xbebebebe, 0x00000005, 0xffffffff, 0x0fff0004, 0x00000001, 0x000003ff, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00030005, 0xbebebebe, 0xbebebebe, 0x00000006, 0x00000006, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V71]]), 8: hi(%[[V71]]), 28: lo(%[[V58]]), 32: hi(%[[V58]]), 60: lo(%[[V76]]), 64: hi(%[[V76]]), 80: lo(%[[V65]]), 84: hi(%[[V65]])] : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.inputs %[[V45]] = [%[[ARG3]]] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<256xf32, CPU:0>
// CHECK-NEXT: hcq.blob %[[V46]] = [0x0000000c, 0x00000000, 0x00000044, 0x00000000, 0x00000048, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V44]] offsets %[[V46]][0, 1] i32 load.lo(%[[V72]] - 1) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.patch_group %[[V44]] offsets %[[V46]][1, 1] i32 lo(%[[V45]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V44]] offsets %[[V46]][2, 1] i32 hi(%[[V45]]) : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.push %[[V44]][100] sdma ring(%[[V17]], %[[V18]], %[[V19]], %[[V20]], %[[V21]]) on AMD:1 queue COPY:0 : !hcq.buffer<128xi8, AMD:1>, !hcq.buffer<1048576xi8, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.blob %[[V47]] = [0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000004, 0xffffffff, 0x00000004, 0xc0053c00, 0x00000015, 0xbebebebe, 0xbebebebe, 0x00000006, 0xffffffff, 0x00000004, 0xc0064900, 0x0070f514, 0x22000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [8: lo(%[[V56]]), 12: hi(%[[V56]]), 36: lo([%[[V64]], %[[V65]]]), 40: hi([%[[V64]], %[[V65]]]), 68: lo(%[[V60]]), 72: hi(%[[V60]])] : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V48]] = [0x0000004c, 0x00000000, 0x00000050, 0x00000000] : !hcq.buffer<4xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V47]] offsets %[[V48]][0, 1] i32 load.lo(%[[V61]]) : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.patch_group %[[V47]] offsets %[[V48]][1, 1] i32 load.hi(%[[V61]]) : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V27]] = [0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800016, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: lo(%[[V47]]), 8: hi(%[[V47]])] : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<128xi8, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.push %[[V27]][16] pm4 ring(%[[V22]], %[[V23]], %[[V24]], %[[V25]], %[[V26]]) on [AMD:0, AMD:1] queue COMPUTE:0 : !hcq.buffer<128xi8, [AMD:0, AMD:1]>, !hcq.buffer<1048576xi8, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.finalize %[[V61]], %[[V59]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.blob %[[V49]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000006, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [0: addr(%[[V51]]), 8: addr(%[[V56]]), 64: addr(%[[V51]]), 72: addr(%[[V65]]), 128: addr(%[[V52]]), 136: addr(%[[V67]])] : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.blob %[[V50]] = [0x00000090, 0x00000000] : !hcq.buffer<2xi32, CPU:0>
// CHECK-NEXT: hcq.patch_group %[[V49]] offsets %[[V50]][0, 1] i64 load(%[[V68]]) : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.push %[[V49]][192] cpu ring(%[[V28]], %[[V29]], %[[V30]], %[[V31]], %[[V32]]) on CPU:0 queue COMPUTE:0 : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<1048576xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.finalize %[[V68]], %[[V66]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
// CHECK-NEXT: }
