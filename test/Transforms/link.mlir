// Tests that the whole pipeline, linked against the deterministic address map,
// gives exactly these bytes for a two-kernel, one-copy schedule on CPU,
// gfx1100 and gfx942: every word of every linked command buffer (the blobs),
// and their meaning through the disassembler, which follows each push (for
// PM4, the INDIRECT_BUFFER into its command buffer). 0xbe bytes are the
// run-time words the patch groups write every run. Blob data print as lists
// of words however long (not in hex), so every word shows.
//
// RUN: split-file %s %t
// RUN: hcq-opt %t/cpu.mlir --hcq-pipeline --hcq-link | FileCheck %s --check-prefix=HOSTIR
// RUN: hcq-opt %t/cpu.mlir --hcq-pipeline --hcq-link --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=HOSTDIS
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/k11
// RUN: %embed %inputs/kernels-gfx1100.co scale "(readwrite f32)" --symbol scale --vars 1 >> %t/k11
// RUN: %embed %inputs/kernels-gfx942.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/k9
// RUN: %embed %inputs/kernels-gfx942.co scale "(readwrite f32)" --symbol scale --vars 1 >> %t/k9
// RUN: cat %t/k11 %t/amd.mlir | hcq-opt --hcq-pipeline=target=gfx1100 --hcq-link --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s --check-prefix=GFX11
// RUN: cat %t/k11 %t/amd.mlir | hcq-opt --hcq-pipeline=target=gfx1100 --hcq-link --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=DIS11
// RUN: cat %t/k9 %t/amd.mlir | hcq-opt --hcq-pipeline=target=gfx942 --hcq-link --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s --check-prefix=GFX9
// RUN: cat %t/k9 %t/amd.mlir | hcq-opt --hcq-pipeline=target=gfx942 --hcq-link --hcq-print-packets -o /dev/null | FileCheck %s --check-prefix=DIS9

// CPU, one batch on a compute and a copy queue.
// HOSTIR-LABEL: hcq.executable @two_kernels_one_copy(
// HOSTIR-SAME: %a: !hcq.buffer<64xf32, CPU:0> {hcq.access = "read"}, %b: !hcq.buffer<64xf32, CPU:0> {hcq.access = "read"}, %out: !hcq.buffer<64xf32, CPU:0> {hcq.access = "write"}, %n: i32) targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target] {
// HOSTIR-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 5 {hcq.addresses = array<i64: 4294968320>} : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder kernargs slot 6 {hcq.addresses = array<i64: 4294969088>} : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder inputs slot 7 {hcq.addresses = array<i64: 4294969344>} : !hcq.buffer<2xi64, CPU:0>
// HOSTIR-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder offtbl slot 8 {hcq.addresses = array<i64: 4294968576>} : !hcq.buffer<8xi32, CPU:0>
// HOSTIR-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 9 {hcq.addresses = array<i64: 4294970112>} : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder kernargs slot 10 {hcq.addresses = array<i64: 4294969600>} : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder offtbl slot 11 {hcq.addresses = array<i64: 4294969856>} : !hcq.buffer<2xi32, CPU:0>
// HOSTIR-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 12 {hcq.addresses = array<i64: 4294970368>} : !hcq.buffer<256xi8, CPU:0>
// HOSTIR-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder inputs slot 13 {hcq.addresses = array<i64: 4294970880>} : !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder offtbl slot 14 {hcq.addresses = array<i64: 4294970624>} : !hcq.buffer<4xi32, CPU:0>
// HOSTIR-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 15 {hcq.addresses = array<i64: 4294971136>} : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: %[[V11:[a-z0-9]+]] = hcq.placeholder offtbl slot 16 {hcq.addresses = array<i64: 4294971392>} : !hcq.buffer<2xi32, CPU:0>
// HOSTIR-NEXT: %[[V12:[a-z0-9]+]] = hcq.placeholder host_function slot 1 {hcq.addresses = array<i64: 138538465100032>} : !hcq.buffer<1xi8, CPU:0>
// HOSTIR-NEXT: %[[V13:[a-z0-9]+]] = hcq.program @vadd {hcq.addresses = array<i64: 139637976727552>} : !hcq.buffer<1xi8, CPU:0>
// HOSTIR-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder host_function slot 0 {hcq.addresses = array<i64: 138538465099776>} : !hcq.buffer<1xi8, CPU:0>
// HOSTIR-NEXT: %[[V15:[a-z0-9]+]] = hcq.program @scale {hcq.addresses = array<i64: 139637976731648>} : !hcq.buffer<1xi8, CPU:0>
// HOSTIR-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder host_function slot 2 {hcq.addresses = array<i64: 138538465100288>} : !hcq.buffer<1xi8, CPU:0>
// HOSTIR-NEXT: %[[V17:[a-z0-9]+]] = hcq.placeholder host_function slot 4 {hcq.addresses = array<i64: 138538465100800>} : !hcq.buffer<1xi8, CPU:0>
// HOSTIR-NEXT: %[[V18:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile {hcq.addresses = array<i64: 4294967808>} : !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: %[[V19:[a-z0-9]+]] = hcq.placeholder epoch slot 2 volatile {hcq.addresses = array<i64: 4294967552>} : !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: %[[V20:[a-z0-9]+]] = hcq.placeholder timeline_signal device volatile {hcq.addresses = array<i64: 4294967296>} : !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: %[[V21:[a-z0-9]+]] = hcq.placeholder timeline_value device volatile {hcq.addresses = array<i64: 4294968832>} : !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: %[[V22:[a-z0-9]+]] = hcq.placeholder signal slot 3 volatile {hcq.addresses = array<i64: 4294968064>} : !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: %[[V23:[a-z0-9]+]] = hcq.alloc {hcq.addresses = array<i64: 4294971648>} : !hcq.buffer<64xf32, CPU:0>
// HOSTIR-NEXT: hcq.call @hcq_submitter_0(%[[V20]], %[[V19]], %[[V18]], %[[V22]], %[[V0]], %[[V3]], %[[V21]], %[[V1]], %[[V2]], %n, %[[V5]], %[[V6]], %[[V4]], %[[V7]], %[[V9]], %[[V8]], %[[V10]], %[[V11]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<2xi64, CPU:0>, i32, !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>, !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>)
// HOSTIR-NEXT: hcq.blob %[[V0]] = [0x00000100, 0x00007e00, 0x00000000, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00007e00, 0x00000000, 0x00007f00, 0x00000700, 0x00000001, 0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000] : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V1]] = [0x00001100, 0x00000001, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.inputs %[[V2]] = [%a, %b] lanes [0, 0] : !hcq.buffer<2xi64, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V3]] = [0x00000010, 0x00000000, 0x00000008, 0x00000000, 0x00000010, 0x00000001, 0x00000018, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V4]] = [0x00000000, 0x00007e00, 0x00001000, 0x00007f00, 0x00000900, 0x00000001, 0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000200, 0x00007e00, 0x00000200, 0x00000001, 0x00000002, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000] : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V5]] = [0x00001100, 0x00000001, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V6]] = [0x00000008, 0x00000000] : !hcq.buffer<2xi32, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V7]] = [0x00000100, 0x00007e00, 0x00000000, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000100, 0x00007e00, 0x00000200, 0x00000001, 0x00000002, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000400, 0x00007e00, 0xbebebebe, 0xbebebebe, 0x00001100, 0x00000001, 0x00000100, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000200, 0x00007e00, 0x00000300, 0x00000001, 0x00000003, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000] : !hcq.buffer<256xi8, CPU:0>
// HOSTIR-NEXT: hcq.inputs %[[V8]] = [%out] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<64xf32, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V9]] = [0x00000010, 0x00000000, 0x00000088, 0x00000000] : !hcq.buffer<4xi32, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V10]] = [0x00000100, 0x00007e00, 0x00000300, 0x00000001, 0x00000003, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000200, 0x00007e00, 0x00000000, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000] : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.blob %[[V11]] = [0x00000050, 0x00000000] : !hcq.buffer<2xi32, CPU:0>
// HOSTIR-NEXT: }
// HOSTIR-NEXT: hcq.submitter @hcq_submitter_0(%[[ARG0:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG4:[a-z0-9]+]]: !hcq.buffer<128xi8, CPU:0>, %[[ARG5:[a-z0-9]+]]: !hcq.buffer<8xi32, CPU:0>, %[[ARG6:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG7:[a-z0-9]+]]: !hcq.buffer<128xi8, CPU:0>, %[[ARG8:[a-z0-9]+]]: !hcq.buffer<2xi64, CPU:0>, %[[ARG9:[a-z0-9]+]]: i32, %[[ARG10:[a-z0-9]+]]: !hcq.buffer<128xi8, CPU:0>, %[[ARG11:[a-z0-9]+]]: !hcq.buffer<2xi32, CPU:0>, %[[ARG12:[a-z0-9]+]]: !hcq.buffer<128xi8, CPU:0>, %[[ARG13:[a-z0-9]+]]: !hcq.buffer<256xi8, CPU:0>, %[[ARG14:[a-z0-9]+]]: !hcq.buffer<4xi32, CPU:0>, %[[ARG15:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG16:[a-z0-9]+]]: !hcq.buffer<128xi8, CPU:0>, %[[ARG17:[a-z0-9]+]]: !hcq.buffer<2xi32, CPU:0>) {
// HOSTIR-NEXT: hcq.fence %[[ARG0]] reaches %[[ARG1]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: hcq.reset %[[ARG2]], %[[ARG3]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG4]] offsets %[[ARG5]][0, 1] i64 load(%[[ARG6]] - 1) : !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][1, 2] i64 addr(%[[ARG8]]) : !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][3, 1] i64 var(%[[ARG9]]) : !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<8xi32, CPU:0>, i32
// HOSTIR-NEXT: hcq.push %[[ARG4]][128] cpu on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG10]] offsets %[[ARG11]][0, 1] i64 var(%[[ARG9]]) : !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>, i32
// HOSTIR-NEXT: hcq.push %[[ARG12]][128] cpu on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG13]] offsets %[[ARG14]][0, 1] i64 load(%[[ARG6]] - 1) : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG13]] offsets %[[ARG14]][1, 1] i64 addr(%[[ARG15]]) : !hcq.buffer<256xi8, CPU:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: hcq.push %[[ARG13]][256] cpu on CPU:0 queue COPY:0 : !hcq.buffer<256xi8, CPU:0>
// HOSTIR-NEXT: hcq.patch_group %[[ARG16]] offsets %[[ARG17]][0, 1] i64 load(%[[ARG6]]) : !hcq.buffer<128xi8, CPU:0>, !hcq.buffer<2xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: hcq.push %[[ARG16]][128] cpu on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
// HOSTIR-NEXT: hcq.finalize %[[ARG6]], %[[ARG1]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// HOSTIR-NEXT: }
// HOSTIR-NEXT: }

// HOSTDIS-LABEL: // hcq.executable @two_kernels_one_copy
// HOSTDIS-NEXT: // push on CPU:0 queue COMPUTE:0, cpu, 128 bytes
// HOSTDIS-NEXT:    0: wait signal=0x0000000100000000 value=0xbebebebebebebebe
// HOSTDIS-NEXT:    1: launch kernel=0x00007f0000000000 kernargs=0x0000000100000700 x=0x0000000000000001 y=0x0000000000000001 z=0x0000000000000001
// HOSTDIS-NEXT: // push on CPU:0 queue COMPUTE:0, cpu, 128 bytes
// HOSTDIS-NEXT:    0: launch kernel=0x00007f0000001000 kernargs=0x0000000100000900 x=0x0000000000000001 y=0x0000000000000001 z=0x0000000000000001
// HOSTDIS-NEXT:    1: signal signal=0x0000000100000200 value=0x0000000000000002
// HOSTDIS-NEXT: // push on CPU:0 queue COPY:0, cpu, 256 bytes
// HOSTDIS-NEXT:    0: wait signal=0x0000000100000000 value=0xbebebebebebebebe
// HOSTDIS-NEXT:    1: wait signal=0x0000000100000200 value=0x0000000000000002
// HOSTDIS-NEXT:    2: copy dst=0xbebebebebebebebe src=0x0000000100001100 bytes=0x0000000000000100
// HOSTDIS-NEXT:    3: signal signal=0x0000000100000300 value=0x0000000000000003
// HOSTDIS-NEXT: // push on CPU:0 queue COMPUTE:0, cpu, 128 bytes
// HOSTDIS-NEXT:    0: wait signal=0x0000000100000300 value=0x0000000000000003
// HOSTDIS-NEXT:    1: signal signal=0x0000000100000000 value=0xbebebebebebebebe

// gfx1100: both kernels come from one code object, loaded once.
// GFX11-LABEL: hcq.executable @two_kernels_one_copy(
// GFX11-SAME: %a: !hcq.buffer<64xf32, AMD:0> {hcq.access = "read"}, %b: !hcq.buffer<64xf32, AMD:0> {hcq.access = "read"}, %out: !hcq.buffer<64xf32, AMD:0> {hcq.access = "write"}, %n: i32) targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target] {
// GFX11-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 13 {hcq.addresses = array<i64: 4294970368>} : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 14 {hcq.addresses = array<i64: 4294971904>} : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 4 {hcq.addresses = array<i64: 4294968320>} : !hcq.buffer<1024xi8, AMD:0>
// GFX11-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder kernargs slot 5 {hcq.addresses = array<i64: 4294969856>} : !hcq.buffer<256xi8, AMD:0>
// GFX11-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder inputs slot 6 {hcq.addresses = array<i64: 4294970112>} : !hcq.buffer<2xi64, CPU:0>
// GFX11-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder offtbl slot 7 {hcq.addresses = array<i64: 4294969344>} : !hcq.buffer<16xi32, CPU:0>
// GFX11-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 8 {hcq.addresses = array<i64: 4294970624>} : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder inputs slot 9 {hcq.addresses = array<i64: 4294971136>} : !hcq.buffer<1xi64, CPU:0>
// GFX11-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder offtbl slot 10 {hcq.addresses = array<i64: 4294970880>} : !hcq.buffer<8xi32, CPU:0>
// GFX11-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 11 {hcq.addresses = array<i64: 4294971392>} : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder offtbl slot 12 {hcq.addresses = array<i64: 4294971648>} : !hcq.buffer<4xi32, CPU:0>
// GFX11-NEXT: %[[V11:[a-z0-9]+]] = hcq.program @vadd {hcq.addresses = array<i64: 4294972160>} : !hcq.buffer<16384xi8, AMD:0>
// GFX11-NEXT: %[[V12:[a-z0-9]+]] = hcq.program @scale {hcq.addresses = array<i64: 4294972160>} : !hcq.buffer<16384xi8, AMD:0>
// GFX11-NEXT: %[[V13:[a-z0-9]+]] = hcq.placeholder event_mailbox device volatile {hcq.addresses = array<i64: 4294988800>} : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder interrupt_event device {hcq.addresses = array<i64: 1>} : !hcq.buffer<1xi8, AMD:0>
// GFX11-NEXT: %[[V15:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile {hcq.addresses = array<i64: 4294967808>} : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder epoch slot 2 volatile {hcq.addresses = array<i64: 4294967552>} : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V17:[a-z0-9]+]] = hcq.placeholder timeline_signal device volatile {hcq.addresses = array<i64: 4294967296>} : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V18:[a-z0-9]+]] = hcq.placeholder timeline_value device volatile {hcq.addresses = array<i64: 4294969600>} : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V19:[a-z0-9]+]] = hcq.placeholder signal slot 3 volatile {hcq.addresses = array<i64: 4294968064>} : !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: %[[V20:[a-z0-9]+]] = hcq.alloc {hcq.addresses = array<i64: 4294988544>} : !hcq.buffer<64xf32, AMD:0>
// GFX11-NEXT: hcq.call @hcq_submitter_0(%[[V17]], %[[V16]], %[[V15]], %[[V19]], %[[V2]], %[[V5]], %[[V18]], %[[V3]], %[[V4]], %n, %[[V0]], %[[V6]], %[[V8]], %[[V7]], %[[V9]], %[[V10]], %[[V1]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<2xi64, CPU:0>, i32, !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<128xi8, AMD:0>)
// GFX11-NEXT: hcq.blob %[[V2]] = [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x0000c3f1, 0xc0053c00, 0x00000015, 0x00000000, 0x00000001, 0xbebebebe, 0xffffffff, 0x00000004, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0x0100002f, 0x00000000, 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000020, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0x00000a00, 0x00000001, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0065800, 0x00000000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x00000000, 0x000003f0, 0xc0027600, 0x0000020c, 0x01000031, 0x00000000, 0xc0027600, 0x00000212, 0xe0bf0000, 0x0000009e, 0xc0017600, 0x00000228, 0x00000010, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0047600, 0x00000240, 0x00000a8c, 0x00000001, 0x00000a80, 0x00000001, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000001, 0x00000001, 0x00008005, 0xc0004600, 0x00000407, 0xc0064900, 0x0070f514, 0x20000000, 0x00000200, 0x00000001, 0x00000002, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<1024xi8, AMD:0>
// GFX11-NEXT: hcq.blob %[[V3]] = [0x00005300, 0x00000001, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0x00005300, 0x00000001, 0xbebebebe, 0x00030000, 0x00010040, 0x00000001, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<256xi8, AMD:0>
// GFX11-NEXT: hcq.inputs %[[V4]] = [%a, %b] lanes [0, 0] : !hcq.buffer<2xi64, CPU:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>
// GFX11-NEXT: hcq.blob %[[V5]] = [0x0000004c, 0x00000000, 0x00000008, 0x00000000, 0x00000010, 0x00000001, 0x0000000c, 0x00000000, 0x00000014, 0x00000001, 0x00000018, 0x00000000, 0x00000088, 0x00000000] : !hcq.buffer<16xi32, CPU:0>
// GFX11-NEXT: hcq.blob %[[V0]] = [0xc0023f00, 0x00000400, 0x00000001, 0x0080008e, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: hcq.blob %[[V6]] = [0xd0000008, 0x00000000, 0x00000001, 0xbebebebe, 0xffffffff, 0x0fff0004, 0xd0000008, 0x00000200, 0x00000001, 0x00000002, 0xffffffff, 0x0fff0004, 0x00000001, 0x000000ff, 0x00000000, 0x00005300, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00030005, 0x00000300, 0x00000001, 0x00000003, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: hcq.inputs %[[V7]] = [%out] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<64xf32, AMD:0>
// GFX11-NEXT: hcq.blob %[[V8]] = [0x0000000c, 0x00000000, 0x00000044, 0x00000000, 0x00000048, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// GFX11-NEXT: hcq.blob %[[V9]] = [0xc0053c00, 0x00000015, 0x00000300, 0x00000001, 0x00000003, 0xffffffff, 0x00000004, 0xc0064900, 0x0070f514, 0x20000000, 0x00000000, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00000000, 0xc0064900, 0x00000514, 0x22000000, 0x00005400, 0x00000001, 0x00000001, 0x00000000, 0x00000001, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: hcq.blob %[[V10]] = [0x00000030, 0x00000000, 0x00000034, 0x00000000] : !hcq.buffer<4xi32, CPU:0>
// GFX11-NEXT: hcq.blob %[[V1]] = [0xc0023f00, 0x00001000, 0x00000001, 0x00800017, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: }
// GFX11-NEXT: hcq.submitter @hcq_submitter_0(%[[ARG0:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG4:[a-z0-9]+]]: !hcq.buffer<1024xi8, AMD:0>, %[[ARG5:[a-z0-9]+]]: !hcq.buffer<16xi32, CPU:0>, %[[ARG6:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG7:[a-z0-9]+]]: !hcq.buffer<256xi8, AMD:0>, %[[ARG8:[a-z0-9]+]]: !hcq.buffer<2xi64, CPU:0>, %[[ARG9:[a-z0-9]+]]: i32, %[[ARG10:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>, %[[ARG11:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>, %[[ARG12:[a-z0-9]+]]: !hcq.buffer<8xi32, CPU:0>, %[[ARG13:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG14:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>, %[[ARG15:[a-z0-9]+]]: !hcq.buffer<4xi32, CPU:0>, %[[ARG16:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>) {
// GFX11-NEXT: hcq.fence %[[ARG0]] reaches %[[ARG1]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.reset %[[ARG2]], %[[ARG3]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.patch_group %[[ARG4]] offsets %[[ARG5]][0, 1] i32 load.lo(%[[ARG6]] - 1) : !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][1, 2] i32 lo(%[[ARG8]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
// GFX11-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][3, 2] i32 hi(%[[ARG8]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
// GFX11-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][5, 2] i32 var(%[[ARG9]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, i32
// GFX11-NEXT: hcq.push %[[ARG10]][16] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: hcq.patch_group %[[ARG11]] offsets %[[ARG12]][0, 1] i32 load.lo(%[[ARG6]] - 1) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.patch_group %[[ARG11]] offsets %[[ARG12]][1, 1] i32 lo(%[[ARG13]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// GFX11-NEXT: hcq.patch_group %[[ARG11]] offsets %[[ARG12]][2, 1] i32 hi(%[[ARG13]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// GFX11-NEXT: hcq.push %[[ARG11]][92] sdma on AMD:0 queue COPY:0 : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: hcq.patch_group %[[ARG14]] offsets %[[ARG15]][0, 1] i32 load.lo(%[[ARG6]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.patch_group %[[ARG14]] offsets %[[ARG15]][1, 1] i32 load.hi(%[[ARG6]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: hcq.push %[[ARG16]][16] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
// GFX11-NEXT: hcq.finalize %[[ARG6]], %[[ARG1]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// GFX11-NEXT: }
// GFX11-NEXT: }

// DIS11-LABEL: // hcq.executable @two_kernels_one_copy
// DIS11-NEXT: // push on AMD:0 queue COMPUTE:0, pm4, 16 bytes
// DIS11-NEXT:    0: INDIRECT_BUFFER addr=0x0000000100000400 dwords=142 valid
// DIS11-NEXT: // indirect buffer at 0x0000000100000400
// DIS11-NEXT:    0: WAIT_REG_MEM reg function=5 operation=1 reg=0x00000e26 reg_done=0x00000e27 ref=0xffffffff mask=0xffffffff poll=0x00000004
// DIS11-NEXT:    7: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x0000c3f1
// DIS11-NEXT:   15: WAIT_REG_MEM mem function=5 operation=0 addr=0x0000000100000000 ref=0xbebebebe mask=0xffffffff poll=0x00000004
// DIS11-NEXT:   22: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x000003f0
// DIS11-NEXT:   30: SET_SH_REG COMPUTE_PGM_LO(0x20c) = 0x0100002f 0x00000000
// DIS11-NEXT:   34: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0xe0bf0000 0x0000009e
// DIS11-NEXT:   38: SET_SH_REG COMPUTE_PGM_RSRC3(0x228) = 0x00000020
// DIS11-NEXT:   41: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS11-NEXT:   44: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS11-NEXT:   48: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS11-NEXT:   53: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = 0x00000a00 0x00000001
// DIS11-NEXT:   57: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS11-NEXT:   60: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000040 0x00000001 0x00000001 0x00000000 0x00000000
// DIS11-NEXT:   70: DISPATCH_DIRECT x=0x00000001 y=0x00000001 z=0x00000001 initiator=0x00008005
// DIS11-NEXT:   75: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS11-NEXT:   77: ACQUIRE_MEM size=0xffffffffffffffff base=0x0000000000000000 poll=0x00000000 gcr_cntl=0x000003f0
// DIS11-NEXT:   85: SET_SH_REG COMPUTE_PGM_LO(0x20c) = 0x01000031 0x00000000
// DIS11-NEXT:   89: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0xe0bf0000 0x0000009e
// DIS11-NEXT:   93: SET_SH_REG COMPUTE_PGM_RSRC3(0x228) = 0x00000010
// DIS11-NEXT:   96: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS11-NEXT:   99: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS11-NEXT:  103: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS11-NEXT:  108: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = 0x00000a8c 0x00000001 0x00000a80 0x00000001
// DIS11-NEXT:  114: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS11-NEXT:  117: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000040 0x00000001 0x00000001 0x00000000 0x00000000
// DIS11-NEXT:  127: DISPATCH_DIRECT x=0x00000001 y=0x00000001 z=0x00000001 initiator=0x00008005
// DIS11-NEXT:  132: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS11-NEXT:  134: RELEASE_MEM event=0x14 index=5 cache=0x0070f000 data_sel=1 int_sel=0 addr=0x0000000100000200 data=0x0000000000000002 ctxid=0x00000000
// DIS11-NEXT: // push on AMD:0 queue COPY:0, sdma, 92 bytes
// DIS11-NEXT:    0: POLL_REGMEM mem function=5 addr=0x0000000100000000 value=0xbebebebe mask=0xffffffff interval=4 retry=0xfff
// DIS11-NEXT:    6: POLL_REGMEM mem function=5 addr=0x0000000100000200 value=0x00000002 mask=0xffffffff interval=4 retry=0xfff
// DIS11-NEXT:   12: COPY_LINEAR bytes=256 parameter=0x00000000 src=0x0000000100005300 dst=0xbebebebebebebebe
// DIS11-NEXT:   19: FENCE mtype=3 addr=0x0000000100000300 data=0x00000003
// DIS11-NEXT: // push on AMD:0 queue COMPUTE:0, pm4, 16 bytes
// DIS11-NEXT:    0: INDIRECT_BUFFER addr=0x0000000100001000 dwords=23 valid
// DIS11-NEXT: // indirect buffer at 0x0000000100001000
// DIS11-NEXT:    0: WAIT_REG_MEM mem function=5 operation=0 addr=0x0000000100000300 ref=0x00000003 mask=0xffffffff poll=0x00000004
// DIS11-NEXT:    7: RELEASE_MEM event=0x14 index=5 cache=0x0070f000 data_sel=1 int_sel=0 addr=0x0000000100000000 data=0xbebebebebebebebe ctxid=0x00000000
// DIS11-NEXT:   15: RELEASE_MEM event=0x14 index=5 cache=0x00000000 data_sel=1 int_sel=2 addr=0x0000000100005400 data=0x0000000000000001 ctxid=0x00000001

// gfx942.
// GFX9-LABEL: hcq.executable @two_kernels_one_copy(
// GFX9-SAME: %a: !hcq.buffer<64xf32, AMD:0> {hcq.access = "read"}, %b: !hcq.buffer<64xf32, AMD:0> {hcq.access = "read"}, %out: !hcq.buffer<64xf32, AMD:0> {hcq.access = "write"}, %n: i32) targets [#hcq.amd_target<chip = "gfx942">, #hcq.cpu_target] {
// GFX9-NEXT: %[[V0:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 13 {hcq.addresses = array<i64: 4294970368>} : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: %[[V1:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 14 {hcq.addresses = array<i64: 4294971904>} : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: %[[V2:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 4 {hcq.addresses = array<i64: 4294968320>} : !hcq.buffer<1024xi8, AMD:0>
// GFX9-NEXT: %[[V3:[a-z0-9]+]] = hcq.placeholder kernargs slot 5 {hcq.addresses = array<i64: 4294969856>} : !hcq.buffer<256xi8, AMD:0>
// GFX9-NEXT: %[[V4:[a-z0-9]+]] = hcq.placeholder inputs slot 6 {hcq.addresses = array<i64: 4294970112>} : !hcq.buffer<2xi64, CPU:0>
// GFX9-NEXT: %[[V5:[a-z0-9]+]] = hcq.placeholder offtbl slot 7 {hcq.addresses = array<i64: 4294969344>} : !hcq.buffer<16xi32, CPU:0>
// GFX9-NEXT: %[[V6:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 8 {hcq.addresses = array<i64: 4294970624>} : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: %[[V7:[a-z0-9]+]] = hcq.placeholder inputs slot 9 {hcq.addresses = array<i64: 4294971136>} : !hcq.buffer<1xi64, CPU:0>
// GFX9-NEXT: %[[V8:[a-z0-9]+]] = hcq.placeholder offtbl slot 10 {hcq.addresses = array<i64: 4294970880>} : !hcq.buffer<8xi32, CPU:0>
// GFX9-NEXT: %[[V9:[a-z0-9]+]] = hcq.placeholder cmdbuf slot 11 {hcq.addresses = array<i64: 4294971392>} : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: %[[V10:[a-z0-9]+]] = hcq.placeholder offtbl slot 12 {hcq.addresses = array<i64: 4294971648>} : !hcq.buffer<4xi32, CPU:0>
// GFX9-NEXT: %[[V11:[a-z0-9]+]] = hcq.program @vadd {hcq.addresses = array<i64: 4294972160>} : !hcq.buffer<16384xi8, AMD:0>
// GFX9-NEXT: %[[V12:[a-z0-9]+]] = hcq.program @scale {hcq.addresses = array<i64: 4294972160>} : !hcq.buffer<16384xi8, AMD:0>
// GFX9-NEXT: %[[V13:[a-z0-9]+]] = hcq.placeholder event_mailbox device volatile {hcq.addresses = array<i64: 4294988800>} : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V14:[a-z0-9]+]] = hcq.placeholder interrupt_event device {hcq.addresses = array<i64: 1>} : !hcq.buffer<1xi8, AMD:0>
// GFX9-NEXT: %[[V15:[a-z0-9]+]] = hcq.placeholder signal slot 1 volatile {hcq.addresses = array<i64: 4294967808>} : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V16:[a-z0-9]+]] = hcq.placeholder epoch slot 2 volatile {hcq.addresses = array<i64: 4294967552>} : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V17:[a-z0-9]+]] = hcq.placeholder timeline_signal device volatile {hcq.addresses = array<i64: 4294967296>} : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V18:[a-z0-9]+]] = hcq.placeholder timeline_value device volatile {hcq.addresses = array<i64: 4294969600>} : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V19:[a-z0-9]+]] = hcq.placeholder signal slot 3 volatile {hcq.addresses = array<i64: 4294968064>} : !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: %[[V20:[a-z0-9]+]] = hcq.alloc {hcq.addresses = array<i64: 4294988544>} : !hcq.buffer<64xf32, AMD:0>
// GFX9-NEXT: hcq.call @hcq_submitter_0(%[[V17]], %[[V16]], %[[V15]], %[[V19]], %[[V2]], %[[V5]], %[[V18]], %[[V3]], %[[V4]], %n, %[[V0]], %[[V6]], %[[V8]], %[[V7]], %[[V9]], %[[V10]], %[[V1]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<2xi64, CPU:0>, i32, !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<128xi8, AMD:0>)
// GFX9-NEXT: hcq.blob %[[V2]] = [0xc0053c00, 0x00000045, 0x00000e26, 0x00000e27, 0xffffffff, 0xffffffff, 0x00000004, 0xc0055800, 0x28c40000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0053c00, 0x00000015, 0x00000000, 0x00000001, 0xbebebebe, 0xffffffff, 0x00000004, 0xc0055800, 0x28c40000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0055800, 0x08400000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0027600, 0x0000020c, 0x0100002f, 0x00000000, 0xc0027600, 0x00000212, 0x00af0040, 0x00000084, 0xc0017600, 0x0000022d, 0x00000001, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0027600, 0x00000240, 0x00000a00, 0x00000001, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000001, 0x00000001, 0x00000005, 0xc0004600, 0x00000407, 0xc0055800, 0x08400000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0027600, 0x0000020c, 0x01000030, 0x00000000, 0xc0027600, 0x00000212, 0x00af0040, 0x00000088, 0xc0017600, 0x0000022d, 0x00000000, 0xc0017600, 0x00000218, 0x00000000, 0xc0027600, 0x00000210, 0x00000000, 0x00000000, 0xc0037600, 0x0000021b, 0x00000000, 0x00000000, 0x00000000, 0xc0047600, 0x00000240, 0x00000a8c, 0x00000001, 0x00000a80, 0x00000001, 0xc0017600, 0x00000215, 0x00000000, 0xc0087600, 0x00000204, 0x00000000, 0x00000000, 0x00000000, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0xc0031500, 0x00000001, 0x00000001, 0x00000001, 0x00000005, 0xc0004600, 0x00000407, 0xc0064900, 0x00088514, 0x20000000, 0x00000200, 0x00000001, 0x00000002, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<1024xi8, AMD:0>
// GFX9-NEXT: hcq.blob %[[V3]] = [0x00005300, 0x00000001, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0x00005300, 0x00000001, 0xbebebebe, 0x00030000, 0x00010040, 0x00000001, 0x00000040, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<256xi8, AMD:0>
// GFX9-NEXT: hcq.inputs %[[V4]] = [%a, %b] lanes [0, 0] : !hcq.buffer<2xi64, CPU:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>
// GFX9-NEXT: hcq.blob %[[V5]] = [0x00000048, 0x00000000, 0x00000008, 0x00000000, 0x00000010, 0x00000001, 0x0000000c, 0x00000000, 0x00000014, 0x00000001, 0x00000018, 0x00000000, 0x00000088, 0x00000000] : !hcq.buffer<16xi32, CPU:0>
// GFX9-NEXT: hcq.blob %[[V0]] = [0xc0023f00, 0x00000400, 0x00000001, 0x00800092, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: hcq.blob %[[V6]] = [0xd0000008, 0x00000000, 0x00000001, 0xbebebebe, 0xffffffff, 0x0fff0004, 0xd0000008, 0x00000200, 0x00000001, 0x00000002, 0xffffffff, 0x0fff0004, 0x00000001, 0x000000ff, 0x00000000, 0x00005300, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00000005, 0x00000300, 0x00000001, 0x00000003, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: hcq.inputs %[[V7]] = [%out] lanes [0] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<64xf32, AMD:0>
// GFX9-NEXT: hcq.blob %[[V8]] = [0x0000000c, 0x00000000, 0x00000044, 0x00000000, 0x00000048, 0x00000000] : !hcq.buffer<8xi32, CPU:0>
// GFX9-NEXT: hcq.blob %[[V9]] = [0xc0053c00, 0x00000015, 0x00000300, 0x00000001, 0x00000003, 0xffffffff, 0x00000004, 0xc0055800, 0x28c40000, 0xffffffff, 0xffffffff, 0x00000000, 0x00000000, 0x0000000a, 0xc0064900, 0x00088514, 0x20000000, 0x00000000, 0x00000001, 0xbebebebe, 0xbebebebe, 0x00000000, 0xc0064900, 0x00000514, 0x22000000, 0x00005400, 0x00000001, 0x00000001, 0x00000000, 0x00000001, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: hcq.blob %[[V10]] = [0x0000004c, 0x00000000, 0x00000050, 0x00000000] : !hcq.buffer<4xi32, CPU:0>
// GFX9-NEXT: hcq.blob %[[V1]] = [0xc0023f00, 0x00001000, 0x00000001, 0x0080001e, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: }
// GFX9-NEXT: hcq.submitter @hcq_submitter_0(%[[ARG0:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG1:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG2:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG3:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG4:[a-z0-9]+]]: !hcq.buffer<1024xi8, AMD:0>, %[[ARG5:[a-z0-9]+]]: !hcq.buffer<16xi32, CPU:0>, %[[ARG6:[a-z0-9]+]]: !hcq.buffer<1xi64, AMD:0>, %[[ARG7:[a-z0-9]+]]: !hcq.buffer<256xi8, AMD:0>, %[[ARG8:[a-z0-9]+]]: !hcq.buffer<2xi64, CPU:0>, %[[ARG9:[a-z0-9]+]]: i32, %[[ARG10:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>, %[[ARG11:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>, %[[ARG12:[a-z0-9]+]]: !hcq.buffer<8xi32, CPU:0>, %[[ARG13:[a-z0-9]+]]: !hcq.buffer<1xi64, CPU:0>, %[[ARG14:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>, %[[ARG15:[a-z0-9]+]]: !hcq.buffer<4xi32, CPU:0>, %[[ARG16:[a-z0-9]+]]: !hcq.buffer<128xi8, AMD:0>) {
// GFX9-NEXT: hcq.fence %[[ARG0]] reaches %[[ARG1]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.reset %[[ARG2]], %[[ARG3]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.patch_group %[[ARG4]] offsets %[[ARG5]][0, 1] i32 load.lo(%[[ARG6]] - 1) : !hcq.buffer<1024xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][1, 2] i32 lo(%[[ARG8]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
// GFX9-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][3, 2] i32 hi(%[[ARG8]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
// GFX9-NEXT: hcq.patch_group %[[ARG7]] offsets %[[ARG5]][5, 2] i32 var(%[[ARG9]]) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<16xi32, CPU:0>, i32
// GFX9-NEXT: hcq.push %[[ARG10]][16] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: hcq.patch_group %[[ARG11]] offsets %[[ARG12]][0, 1] i32 load.lo(%[[ARG6]] - 1) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.patch_group %[[ARG11]] offsets %[[ARG12]][1, 1] i32 lo(%[[ARG13]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// GFX9-NEXT: hcq.patch_group %[[ARG11]] offsets %[[ARG12]][2, 1] i32 hi(%[[ARG13]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// GFX9-NEXT: hcq.push %[[ARG11]][92] sdma on AMD:0 queue COPY:0 : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: hcq.patch_group %[[ARG14]] offsets %[[ARG15]][0, 1] i32 load.lo(%[[ARG6]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.patch_group %[[ARG14]] offsets %[[ARG15]][1, 1] i32 load.hi(%[[ARG6]]) : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: hcq.push %[[ARG16]][16] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
// GFX9-NEXT: hcq.finalize %[[ARG6]], %[[ARG1]] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// GFX9-NEXT: }
// GFX9-NEXT: }

// DIS9-LABEL: // hcq.executable @two_kernels_one_copy
// DIS9-NEXT: // push on AMD:0 queue COMPUTE:0, pm4, 16 bytes
// DIS9-NEXT:    0: INDIRECT_BUFFER addr=0x0000000100000400 dwords=146 valid
// DIS9-NEXT: // indirect buffer at 0x0000000100000400
// DIS9-NEXT:    0: WAIT_REG_MEM reg function=5 operation=1 reg=0x00000e26 reg_done=0x00000e27 ref=0xffffffff mask=0xffffffff poll=0x00000004
// DIS9-NEXT:    7: ACQUIRE_MEM coher_cntl=0x28c40000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT:   14: WAIT_REG_MEM mem function=5 operation=0 addr=0x0000000100000000 ref=0xbebebebe mask=0xffffffff poll=0x00000004
// DIS9-NEXT:   21: ACQUIRE_MEM coher_cntl=0x28c40000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT:   28: ACQUIRE_MEM coher_cntl=0x08400000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT:   35: SET_SH_REG COMPUTE_PGM_LO(0x20c) = 0x0100002f 0x00000000
// DIS9-NEXT:   39: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0x00af0040 0x00000084
// DIS9-NEXT:   43: SET_SH_REG COMPUTE_PGM_RSRC3(0x22d) = 0x00000001
// DIS9-NEXT:   46: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS9-NEXT:   49: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS9-NEXT:   53: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS9-NEXT:   58: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = 0x00000a00 0x00000001
// DIS9-NEXT:   62: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS9-NEXT:   65: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000040 0x00000001 0x00000001 0x00000000 0x00000000
// DIS9-NEXT:   75: DISPATCH_DIRECT x=0x00000001 y=0x00000001 z=0x00000001 initiator=0x00000005
// DIS9-NEXT:   80: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS9-NEXT:   82: ACQUIRE_MEM coher_cntl=0x08400000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT:   89: SET_SH_REG COMPUTE_PGM_LO(0x20c) = 0x01000030 0x00000000
// DIS9-NEXT:   93: SET_SH_REG COMPUTE_PGM_RSRC1(0x212) = 0x00af0040 0x00000088
// DIS9-NEXT:   97: SET_SH_REG COMPUTE_PGM_RSRC3(0x22d) = 0x00000000
// DIS9-NEXT:  100: SET_SH_REG COMPUTE_TMPRING_SIZE(0x218) = 0x00000000
// DIS9-NEXT:  103: SET_SH_REG COMPUTE_DISPATCH_SCRATCH_BASE_LO(0x210) = 0x00000000 0x00000000
// DIS9-NEXT:  107: SET_SH_REG COMPUTE_RESTART_X(0x21b) = 0x00000000 0x00000000 0x00000000
// DIS9-NEXT:  112: SET_SH_REG COMPUTE_USER_DATA_0(0x240) = 0x00000a8c 0x00000001 0x00000a80 0x00000001
// DIS9-NEXT:  118: SET_SH_REG COMPUTE_RESOURCE_LIMITS(0x215) = 0x00000000
// DIS9-NEXT:  121: SET_SH_REG COMPUTE_START_X(0x204) = 0x00000000 0x00000000 0x00000000 0x00000040 0x00000001 0x00000001 0x00000000 0x00000000
// DIS9-NEXT:  131: DISPATCH_DIRECT x=0x00000001 y=0x00000001 z=0x00000001 initiator=0x00000005
// DIS9-NEXT:  136: EVENT_WRITE type=7 (CS_PARTIAL_FLUSH) index=4
// DIS9-NEXT:  138: RELEASE_MEM event=0x14 index=5 cache=0x00088000 data_sel=1 int_sel=0 addr=0x0000000100000200 data=0x0000000000000002 ctxid=0x00000000
// DIS9-NEXT: // push on AMD:0 queue COPY:0, sdma, 92 bytes
// DIS9-NEXT:    0: POLL_REGMEM mem function=5 addr=0x0000000100000000 value=0xbebebebe mask=0xffffffff interval=4 retry=0xfff
// DIS9-NEXT:    6: POLL_REGMEM mem function=5 addr=0x0000000100000200 value=0x00000002 mask=0xffffffff interval=4 retry=0xfff
// DIS9-NEXT:   12: COPY_LINEAR bytes=256 parameter=0x00000000 src=0x0000000100005300 dst=0xbebebebebebebebe
// DIS9-NEXT:   19: FENCE addr=0x0000000100000300 data=0x00000003
// DIS9-NEXT: // push on AMD:0 queue COMPUTE:0, pm4, 16 bytes
// DIS9-NEXT:    0: INDIRECT_BUFFER addr=0x0000000100001000 dwords=30 valid
// DIS9-NEXT: // indirect buffer at 0x0000000100001000
// DIS9-NEXT:    0: WAIT_REG_MEM mem function=5 operation=0 addr=0x0000000100000300 ref=0x00000003 mask=0xffffffff poll=0x00000004
// DIS9-NEXT:    7: ACQUIRE_MEM coher_cntl=0x28c40000 size=0xffffffffffffffff base=0x0000000000000000 poll=0x0000000a
// DIS9-NEXT:   14: RELEASE_MEM event=0x14 index=5 cache=0x00088000 data_sel=1 int_sel=0 addr=0x0000000100000000 data=0xbebebebebebebebe ctxid=0x00000000
// DIS9-NEXT:   22: RELEASE_MEM event=0x14 index=5 cache=0x00000000 data_sel=1 int_sel=2 addr=0x0000000100005400 data=0x0000000000000001 ctxid=0x00000001

//--- cpu.mlir
hcq.kernel @vadd cpu (write f32, read f32, read f32) vars 1 symbol "vadd" library "libkernels.so"
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "scale" library "libkernels.so"
hcq.schedule @two_kernels_one_copy(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %n: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @scale(%c : !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %out[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}
//--- amd.mlir
hcq.schedule @two_kernels_one_copy(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>, %out: !hcq.buffer<64xf32, AMD:0>, %n: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, AMD:0>
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  hcq.launch @scale(%c : !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  hcq.copy %out[0, 256], %c[0, 256] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>
}
