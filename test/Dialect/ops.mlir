// Round trip of every op: custom form printed, parsed and printed again gives
// the same text; the generic form parses back to the same custom form.
// RUN: hcq-opt %s -split-input-file > %t.1
// RUN: hcq-opt %t.1 -split-input-file > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.1
// RUN: hcq-opt %s -split-input-file --mlir-print-op-generic > %t.g
// RUN: hcq-opt %t.g -split-input-file --mlir-print-op-generic | diff %t.g -
// RUN: hcq-opt %t.g -split-input-file | FileCheck %s
// RUN: hcq-opt %t.1 -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=NAMES
// RUN: hcq-opt %s -split-input-file --mlir-print-elementsattrs-with-hex-if-larger=4 > %t.h
// RUN: FileCheck %s --check-prefix=HEX < %t.h
// RUN: hcq-opt %t.h -split-input-file | diff %t.1 -

// Tests that kernels of every target keep their signature and code.
// CHECK-LABEL: hcq.kernel @vadd
// CHECK-SAME: cpu (write f32, read f32, read f32) vars 1 symbol "vadd_f32" library "libkernels.so"
hcq.kernel @vadd cpu (write f32, read f32, read f32) vars 1 symbol "vadd_f32" library "libkernels.so"
// CHECK: hcq.kernel @copy builtin (write f16, read f16) symbol "copy"
hcq.kernel @copy builtin (write f16, read f16) symbol "copy"
// CHECK: hcq.kernel @gpu amd (readwrite i32) code_object "\7FELF\02\01\01"
hcq.kernel @gpu amd (readwrite i32) code_object "\7FELF\02\01\01"
// CHECK: hcq.kernel @noop cpu () symbol "noop" library "libkernels.so"
hcq.kernel @noop cpu () symbol "noop" library "libkernels.so"

// -----

// Tests that a schedule keeps its inputs, allocs, views, launches, copies and
// host calls, with multi-device buffers.
hcq.kernel @vadd cpu (write f32, read f32, read f32) vars 1 symbol "vadd_f32" library "libkernels.so"
hcq.kernel @noop cpu () symbol "noop" library "libkernels.so"
// CHECK-LABEL: hcq.schedule @schedule
// CHECK-SAME: (%[[A:.*]]: !hcq.buffer<64xf32, AMD:0>, %[[M:.*]]: !hcq.buffer<64xf32, [AMD:0, AMD:1]>, %[[N:.*]]: i32)
hcq.schedule @schedule(%a: !hcq.buffer<64xf32, AMD:0>, %m: !hcq.buffer<64xf32, [AMD:0, AMD:1]>, %n: i32) {
  // CHECK: %[[C:.*]] = hcq.alloc : !hcq.buffer<64xf32, AMD:0>
  %c = hcq.alloc : !hcq.buffer<64xf32, AMD:0>
  // CHECK: %[[V:.*]] = hcq.view %[[C]][8] : !hcq.buffer<64xf32, AMD:0> -> !hcq.buffer<8xf32, AMD:0>
  %v = hcq.view %c[8] : !hcq.buffer<64xf32, AMD:0> -> !hcq.buffer<8xf32, AMD:0>
  // CHECK: hcq.view %[[C]][60] : !hcq.buffer<64xf32, AMD:0> -> !hcq.buffer<16xi8, AMD:0>
  %bytes = hcq.view %c[60] : !hcq.buffer<64xf32, AMD:0> -> !hcq.buffer<16xi8, AMD:0>
  // CHECK: hcq.launch @vadd(%[[C]], %[[A]], %[[A]] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%[[N]] : i32) global [2, 1, 1] local [1, 1, 1]
  hcq.launch @vadd(%c, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [2, 1, 1] local [1, 1, 1]
  // CHECK: hcq.launch @noop() global [1, 1, 1] local [1, 1, 1]
  hcq.launch @noop() global [1, 1, 1] local [1, 1, 1]
  // CHECK: hcq.copy %[[M]][0, 256], %[[C]][0, 256] : !hcq.buffer<64xf32, [AMD:0, AMD:1]>, !hcq.buffer<64xf32, AMD:0>
  hcq.copy %m[0, 256], %c[0, 256] : !hcq.buffer<64xf32, [AMD:0, AMD:1]>, !hcq.buffer<64xf32, AMD:0>
  // CHECK: hcq.host_call "print"(%[[V]], %[[N]] : !hcq.buffer<8xf32, AMD:0>, i32)
  hcq.host_call "print"(%v, %n : !hcq.buffer<8xf32, AMD:0>, i32)
  // CHECK: hcq.host_call "sync"()
  hcq.host_call "sync"()
}

// -----

// Tests that submits and the host ops of batch-deps keep their operands:
// per-lane signals, a value read from a placeholder, and the host plan.
// CHECK-LABEL: hcq.schedule @submits
hcq.schedule @submits() {
  // CHECK: %[[S:.*]] = hcq.placeholder signal slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  %s = hcq.placeholder signal slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  // CHECK: %[[SEN:.*]] = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:1>
  %sentinel = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:1>
  // CHECK: %[[P:.*]] = hcq.placeholder signal slot 4 volatile : !hcq.buffer<1xi64, AMD:0>
  %p = hcq.placeholder signal slot 4 volatile : !hcq.buffer<1xi64, AMD:0>
  // CHECK: %[[TL:.*]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  %tl = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  // CHECK: %[[TLV:.*]] = hcq.placeholder timeline_value device : !hcq.buffer<1xi64, CPU:0>
  %tlv = hcq.placeholder timeline_value device : !hcq.buffer<1xi64, CPU:0>
  // CHECK: %[[EP:.*]] = hcq.placeholder epoch slot 9 : !hcq.buffer<1xi64, CPU:0>
  %ep = hcq.placeholder epoch slot 9 : !hcq.buffer<1xi64, CPU:0>
  // CHECK: %[[TS:.*]] = hcq.placeholder timestamp slot 11 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  %ts = hcq.placeholder timestamp slot 11 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  // CHECK: hcq.fence %[[TL]] reaches %[[EP]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, CPU:0>
  hcq.fence %tl reaches %ep : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, CPU:0>
  // CHECK: hcq.reset %[[S]], %[[P]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, AMD:0>
  hcq.reset %s, %p : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, AMD:0>
  // CHECK: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
  hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
    // CHECK-NEXT: hcq.barrier
    hcq.barrier
    // CHECK-NEXT: hcq.wait %[[TL]] >= [%[[TLV]] : !hcq.buffer<1xi64, CPU:0>] - 1 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    hcq.wait %tl >= [%tlv : !hcq.buffer<1xi64, CPU:0>] - 1 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    // CHECK-NEXT: hcq.wait %[[P]], %[[SEN]] >= 2 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
    hcq.wait %p, %sentinel >= 2 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
    // CHECK-NEXT: hcq.timestamp %[[TS]] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    hcq.timestamp %ts : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    // CHECK-NEXT: hcq.store %[[S]] = 1 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    hcq.store %s = 1 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    // CHECK-NEXT: hcq.store %[[TL]] = [%[[TLV]] : !hcq.buffer<1xi64, CPU:0>] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    hcq.store %tl = [%tlv : !hcq.buffer<1xi64, CPU:0>] : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
    // CHECK-NEXT: hcq.wait %[[P]] >= [%[[TLV]] : !hcq.buffer<1xi64, CPU:0>] + 2 : !hcq.buffer<1xi64, AMD:0>
    hcq.wait %p >= [%tlv : !hcq.buffer<1xi64, CPU:0>] + 2 : !hcq.buffer<1xi64, AMD:0>
  }
  // CHECK: hcq.submit on CPU:0 queue SUBMIT:0 {
  // CHECK-NEXT: }
  hcq.submit on CPU:0 queue SUBMIT:0 {
  }
  // CHECK: hcq.finalize %[[TLV]], %[[EP]] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.finalize %tlv, %ep : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  // CHECK: hcq.profile "vadd" %[[TS]], %[[TS]] queue COMPUTE:0 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  hcq.profile "vadd" %ts, %ts queue COMPUTE:0 : !hcq.buffer<1xi64, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
}

// -----

// Tests that command words of every kind print back as written: constants in
// hex, addresses with offset, half and shift, variables, indirect streams.
// CHECK-LABEL: hcq.schedule @words
hcq.kernel @k amd () code_object "\7FELF"
hcq.schedule @words(%x: !hcq.buffer<16xf32, AMD:0>, %n: i32) {
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %prog = hcq.placeholder program slot 2 : !hcq.buffer<256xi8, AMD:0>
  %tlv = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, CPU:0>
  %scratch = hcq.placeholder scratch device : !hcq.buffer<64xi8, AMD:0>
  %fn = hcq.placeholder host_function slot 1 : !hcq.buffer<1xi8, CPU:0>
  // CHECK: hcq.program @k : !hcq.buffer<6144xi8, AMD:0>
  %kprog = hcq.program @k : !hcq.buffer<6144xi8, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // CHECK: %[[K:.*]] = hcq.cmds kernargs i64 [addr(%{{.*}}), addr(%{{.*}} + 8), var(%{{.*}}), 0x0000000000000007] : !hcq.buffer<16xf32, AMD:0>, i32
    %k = hcq.cmds kernargs i64 [addr(%x), addr(%x + 8), var(%n), 7] : !hcq.buffer<16xf32, AMD:0>, i32
    // Segments, an empty one in the middle and at the end too.
    // CHECK: hcq.cmds kernargs i32 [0x00000001, lo(%{{.*}})] [] [0x00000002] [] : !hcq.buffer<16xf32, AMD:0>
    %ks = hcq.cmds kernargs i32 [1, lo(%x)] [] [2] [] : !hcq.buffer<16xf32, AMD:0>
    // CHECK: hcq.cmds cmdbuf i32 [0xc0023f00, lo(%[[K]]), hi(%[[K]]), lo(%{{.*}} + 256 >> 8), 0x00000000, var(%{{.*}})] : !hcq.linear, !hcq.buffer<256xi8, AMD:0>, i32
    hcq.cmds cmdbuf i32 [0xc0023f00, lo(%k), hi(%k), lo(%prog + 256 >> 8), 0, var(%n)] : !hcq.linear, !hcq.buffer<256xi8, AMD:0>, i32
    // CHECK: hcq.cmds cmdbuf i32 [0xffffffff]
    // CHECK-NOT: :
    hcq.cmds cmdbuf i32 [0xffffffff]
    // CHECK: hcq.cmds cmdbuf i32 [load.lo(%[[TLV:.*]] - 1), load.hi(%[[TLV]]), hi(%[[SC:.*]]) | 0x80000000, lo(%[[PR:.*]] + 256 >> 8)] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<64xi8, AMD:0>, !hcq.buffer<6144xi8, AMD:0>
    hcq.cmds cmdbuf i32 [load.lo(%tlv - 1), load.hi(%tlv + 0), hi(%scratch) | 0x80000000, lo(%kprog + 256 >> 8)] : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<64xi8, AMD:0>, !hcq.buffer<6144xi8, AMD:0>
  }
  %s1 = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
  hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
    // CHECK: hcq.cmds cmdbuf i32 [lo([%[[SA:.*]], %[[SB:.*]]] + 8), hi([%[[SA]], %[[SB]]] + 8), lo(%[[SA]])] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:0>
    hcq.cmds cmdbuf i32 [lo([%s, %s1] + 8), hi([%s, %s1] + 8), lo(%s)] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<1xi64, AMD:0>
  }
  hcq.submit on CPU:0 queue COMPUTE:0 {
    // CHECK: hcq.cmds cmdbuf i64 [addr(%[[FN:.*]]), load(%[[TLV]] + 2), var(%{{.*}}) | 0x0000000100000000] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>, i32
    hcq.cmds cmdbuf i64 [addr(%fn), load(%tlv + 2), var(%n) | 0x100000000] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<1xi64, CPU:0>, i32
  }
}

// -----

// Tests that sealed schedules keep their blobs with link patches, the inputs
// and offset tables, run-time patch groups, enqueues and pushes.
// CHECK-LABEL: hcq.schedule @exe
hcq.schedule @exe(%x: !hcq.buffer<16xf32, [AMD:0, AMD:1]>, %n: i32) {
  // CHECK: %[[CB:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
  %s = hcq.placeholder signal slot 3 volatile : !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  // CHECK: %[[IN:.*]] = hcq.placeholder inputs slot 4 : !hcq.buffer<2xi64, CPU:0>
  %in = hcq.placeholder inputs slot 4 : !hcq.buffer<2xi64, CPU:0>
  // CHECK: %[[OFF:.*]] = hcq.placeholder offtbl slot 5 : !hcq.buffer<4xi32, CPU:0>
  %off = hcq.placeholder offtbl slot 5 : !hcq.buffer<4xi32, CPU:0>
  // Data longer than MLIR's elements-in-hex limit print as one hex string
  // (8 digits a word), shorter data as a list.
  // HEX-LABEL: hcq.schedule @exe
  // HEX: hcq.blob %{{.*}} = hex "c0053c00bebebebebebebebebebebebebebebebebfbfbfbf" patches [4: lo(
  // HEX: hcq.blob %{{.*}} = [0x00000004, 0x00000000, 0x0000000c, 0x00000000] :
  // CHECK: hcq.blob %[[CB]] = [0xc0053c00, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf] patches [4: lo(%[[S:.*]]), 8: hi(%[[S]]), 12: addr(%[[S]])] : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  hcq.blob %cb = [0xc0053c00, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf] patches [4: lo(%s), 8: hi(%s), 12: addr(%s + 0)] : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<1xi64, [AMD:0, AMD:1]>
  // CHECK: hcq.blob %[[OFF]] = [0x00000004, 0x00000000, 0x0000000c, 0x00000000] : !hcq.buffer<4xi32, CPU:0>
  hcq.blob %off = [4, 0, 12, 0] : !hcq.buffer<4xi32, CPU:0>
  // Every digit in every position of a dword, printed most significant
  // first: four dwords at a time, then one alone.
  // HEX: hcq.blob %{{.*}} = hex "0123456789abcdeffedcba98765432100f1e2d3c" :
  hcq.blob %cb = [0x01234567, 0x89abcdef, 0xfedcba98, 0x76543210, 0x0f1e2d3c] : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
  // A linked blob of one lane keeps its lane (a property spelled in the
  // attribute dictionary).
  // CHECK: hcq.blob %[[CB]] = [0x00000001] : !hcq.buffer<256xi8, [AMD:0, AMD:1]> {lane = 1 : i32}
  hcq.blob %cb = [1] : !hcq.buffer<256xi8, [AMD:0, AMD:1]> {lane = 1 : i32}
  // CHECK: hcq.inputs %[[IN]] = [%{{.*}}, %{{.*}}] lanes [0, 1] : !hcq.buffer<2xi64, CPU:0>, !hcq.buffer<16xf32, [AMD:0, AMD:1]>, !hcq.buffer<16xf32, [AMD:0, AMD:1]>
  hcq.inputs %in = [%x, %x] lanes [0, 1] : !hcq.buffer<2xi64, CPU:0>, !hcq.buffer<16xf32, [AMD:0, AMD:1]>, !hcq.buffer<16xf32, [AMD:0, AMD:1]>
  // CHECK: hcq.patch_group %[[CB]] offsets %[[OFF]][0, 1] i32 lo(%[[IN]] + 8) : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
  hcq.patch_group %cb offsets %off[0, 1] i32 lo(%in + 8) : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
  // CHECK: hcq.patch_group %[[CB]] offsets %[[OFF]][1, 1] i32 var(%{{.*}}) : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, i32
  hcq.patch_group %cb offsets %off[1, 1] i32 var(%n) : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, i32
  %tlv = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, CPU:0>
  // CHECK: hcq.patch_group %[[CB]] offsets %[[OFF]][0, 2] i64 load(%{{.*}} - 1) : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.patch_group %cb offsets %off[0, 2] i64 load(%tlv - 1) : !hcq.buffer<256xi8, [AMD:0, AMD:1]>, !hcq.buffer<4xi32, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  // CHECK: hcq.enqueue %[[CB]][16] on [AMD:0, AMD:1] queue COMPUTE:0 : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
  hcq.enqueue %cb[16] on [AMD:0, AMD:1] queue COMPUTE:0 : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
  // CHECK: hcq.push %[[CB]][16] pm4 on [AMD:0, AMD:1] queue COMPUTE:0 : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
  hcq.push %cb[16] pm4 on [AMD:0, AMD:1] queue COMPUTE:0 : !hcq.buffer<256xi8, [AMD:0, AMD:1]>
}

// -----

// Tests that the standalone attribute forms round-trip and that a device
// without an index means index 0.
// CHECK-LABEL: func.func @attrs
// CHECK-SAME: hcq.d = #hcq.device<NV:2>
// CHECK-SAME: hcq.q = #hcq.queue<COPY:1>
// CHECK-SAME: hcq.t = #hcq.devices<[CPU:0, DISK:0]>
func.func @attrs() attributes {hcq.d = #hcq.device<NV:2>, hcq.q = #hcq.queue<COPY:1>, hcq.t = #hcq.devices<[CPU, DISK:0]>} {
  return
}

// -----

// Tests that executables keep their link-time memory and submitter calls, and
// submitters their host bodies.
// CHECK-LABEL: hcq.submitter @sub
// CHECK-SAME: (%[[S:.*]]: !hcq.buffer<1xi64, CPU:0>, %[[E:.*]]: !hcq.buffer<1xi64, CPU:0>)
// CHECK-NEXT: hcq.fence %[[S]] reaches %[[E]]
// CHECK-NEXT: hcq.reset %[[S]]
// CHECK-NEXT: hcq.finalize %[[S]], %[[E]]
hcq.submitter @sub(%s: !hcq.buffer<1xi64, CPU:0>, %e: !hcq.buffer<1xi64, CPU:0>) {
  hcq.fence %s reaches %e : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
  hcq.reset %s : !hcq.buffer<1xi64, CPU:0>
  hcq.finalize %s, %e : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
}
// CHECK-LABEL: hcq.executable @exe
// CHECK: hcq.call @sub(%{{.*}}, %{{.*}} : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>)
// CHECK-NEXT: hcq.host_call "log"()
hcq.executable @exe() {
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  %e = hcq.placeholder epoch slot 2 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.call @sub(%s, %e : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>)
  hcq.host_call "log"()
}

// -----

// Tests that an amd kernel's code object may be a resource blob that several
// kernels share, kept in the file's resource section.
// CHECK-LABEL: hcq.kernel @from_blob_a amd (write f32) symbol "a" code_object dense_resource<code> : tensor<8xi8>
// CHECK-NEXT: hcq.kernel @from_blob_b amd (write f32) symbol "b" code_object dense_resource<code> : tensor<8xi8>
// CHECK: code: "0x080000007F454C4602010100"
hcq.kernel @from_blob_a amd (write f32) symbol "a" code_object dense_resource<code> : tensor<8xi8>
hcq.kernel @from_blob_b amd (write f32) symbol "b" code_object dense_resource<code> : tensor<8xi8>

{-#
  dialect_resources: {
    builtin: {
      code: "0x080000007F454C4602010100"
    }
  }
#-}

// -----

// Tests that arguments keep the names they were written with (the printer
// gives them back, through the generic form too), and that a numeric name,
// which the printer cannot give back, is left to the printer: printed as
// %arg0 and parsed again, it is still no name.
// NAMES: arg_names = ["x", "row_count", ""]{{.*}}sym_name = "names"
// CHECK-LABEL: hcq.schedule @names(
// CHECK-SAME: %x: !hcq.buffer<4xf32, CPU:0>, %row_count: i32, %arg0: i32) attributes {note} {
// CHECK-NEXT: hcq.launch @k(%x : !hcq.buffer<4xf32, CPU:0>) vars(%row_count : i32)
hcq.kernel @k cpu (readwrite f32) vars 1 symbol "k" library "k.so"
hcq.schedule @names(%x: !hcq.buffer<4xf32, CPU:0>, %row_count: i32, %0: i32) attributes {note} {
  hcq.launch @k(%x : !hcq.buffer<4xf32, CPU:0>) vars(%row_count : i32) global [4, 1, 1] local [1, 1, 1]
}

// -----

// Tests that hcq.blob and hcq.cmds still show the printer's alias walk the
// attributes they carry (the walk skips their words): an attribute in their
// dictionary prints as an alias defined at the top.
// CHECK: #[[MAP:.*]] = affine_map<(d0) -> (d0)>
// CHECK: #[[MAP1:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: hcq.schedule @aliases
hcq.schedule @aliases(%x: !hcq.buffer<16xf32, AMD:0>) {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, AMD:0>
  %s = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
  // CHECK: hcq.blob %{{.*}} = [0x00000001, 0x00000000] patches [4: lo(%{{.*}})] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0> {note = #[[MAP]]}
  hcq.blob %cb = [1, 0] patches [4: lo(%s)] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0> {note = affine_map<(d0) -> (d0)>}
  hcq.submit on AMD:0 queue COMPUTE:0 {
    // CHECK: hcq.cmds cmdbuf i32 [lo(%{{.*}})] : !hcq.buffer<16xf32, AMD:0> {note = #[[MAP1]]}
    hcq.cmds cmdbuf i32 [lo(%x)] : !hcq.buffer<16xf32, AMD:0> {note = affine_map<(d0, d1) -> (d1)>}
  }
}

// -----

// Tests that a schedule's and an executable's targets are an inherent
// attribute (a property in the generic form) printed after the signature,
// before the other attributes, however they were written.
// NAMES: sym_name = "targeted", targets = [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 64>, #hcq.cpu_target]}> ({
// NAMES: sym_name = "targeted_exe", targets = [#hcq.cpu_target]}> ({
// CHECK-LABEL: hcq.schedule @targeted(
// CHECK-SAME: %n: i32) targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 64>, #hcq.cpu_target] attributes {note} {
hcq.schedule @targeted(%n: i32) targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 64>, #hcq.cpu_target] attributes {note} {
  hcq.host_call "h"(%n : i32)
}
// CHECK-LABEL: hcq.executable @targeted_exe() targets [#hcq.cpu_target] {
hcq.executable @targeted_exe() attributes {targets = [#hcq.cpu_target]} {
  hcq.host_call "log"()
}

// -----

// Tests that blob data in the hex form parse word by word, 8 digits a word
// in either case, and print back as a list when short.
// CHECK-LABEL: hcq.executable @hex_data
hcq.executable @hex_data() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<16xi8, AMD:0>
  // CHECK: hcq.blob %{{.*}} = [0xc0053c00, 0x00000001, 0xbebebebe] :
  hcq.blob %p = hex "C0053c0000000001BEBEBEBE" : !hcq.buffer<16xi8, AMD:0>
}
