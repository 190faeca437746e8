// RUN: hcq-opt %s -split-input-file --hcq-seal | FileCheck %s

// Tests that constants bake into the blob little-endian, other words are
// 0xbe bytes, the blob pads to 128 bytes with 0xbf and its placeholder is the
// next power of two; link-time words become blob patches (an address's lo
// and hi halves one 64-bit patch), run-time words
// patch groups through the inputs and offset tables (one group per value
// form, in order); the submit becomes an enqueue of the command buffer's
// unpadded size.
// CHECK-LABEL: hcq.schedule @words
// CHECK-SAME: (%[[X:.*]]: !hcq.buffer<16xf32, AMD:0>, %[[N:.*]]: i32)
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[IN:.*]] = hcq.placeholder inputs slot 3 : !hcq.buffer<1xi64, CPU:0>
// CHECK-DAG: %[[OFF:.*]] = hcq.placeholder offtbl slot 4 : !hcq.buffer<16xi32, CPU:0>
// CHECK-DAG: %[[S:.*]] = hcq.placeholder signal slot 1
// CHECK-DAG: %[[TLV:.*]] = hcq.placeholder timeline_value device
// CHECK: hcq.blob %[[CB]] = [0x11223344, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x55667788, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf, 0xbfbfbfbf] patches [4: addr(%[[S]] + 8)]
// CHECK-NEXT: hcq.inputs %[[IN]] = [%[[X]]] lanes [0]
// CHECK-NEXT: hcq.blob %[[OFF]] = [0x0000000c, 0x00000000, 0x0000001c, 0x00000000, 0x00000010, 0x00000000, 0x00000014, 0x00000000, 0x00000018, 0x00000000]
// CHECK-NEXT: hcq.patch_group %[[CB]] offsets %[[OFF]][0, 2] i32 lo(%[[IN]] + 4)
// CHECK-NEXT: hcq.patch_group %[[CB]] offsets %[[OFF]][2, 1] i32 hi(%[[IN]] + 4)
// CHECK-NEXT: hcq.patch_group %[[CB]] offsets %[[OFF]][3, 1] i32 var(%[[N]])
// CHECK-NEXT: hcq.patch_group %[[CB]] offsets %[[OFF]][4, 1] i32 load.lo(%[[TLV]] - 1)
// CHECK-NEXT: hcq.enqueue %[[CB]][36] on AMD:0 queue COMPUTE:0
// CHECK-NOT: hcq.submit
hcq.schedule @words(%x: !hcq.buffer<16xf32, AMD:0>, %n: i32) {
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %tlv = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.cmds cmdbuf i32 [0x11223344, lo(%s + 8), hi(%s + 8), lo(%x + 4), hi(%x + 4), var(%n), load.lo(%tlv - 1), lo(%x + 4), 0x55667788] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<16xf32, AMD:0>, i32, !hcq.buffer<1xi64, AMD:0>
  }
}

// -----

// Tests that streams of one tag share a blob, each padded to 128 bytes, and
// that a word taking an indirect stream's address becomes a link-time patch
// of the tag's placeholder at the stream's offset.
// CHECK-LABEL: hcq.schedule @indirect
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[KA:.*]] = hcq.placeholder kernargs slot 2 : !hcq.buffer<256xi8, AMD:0>
// CHECK: hcq.blob %[[CB]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, {{.*}}] patches [0: addr(%[[KA]]), 8: lo(%[[KA]] + 128), 12: hi(%[[KA]] + 136)]
// CHECK-NEXT: hcq.blob %[[KA]] = [0x00000001, 0x00000002, 0xbfbfbfbf, {{(0xbfbfbfbf, )+}}0x00000003, 0xbfbfbfbf, {{.*}}]
// CHECK-NEXT: hcq.enqueue %[[CB]][16] on AMD:0 queue COMPUTE:0
hcq.schedule @indirect() {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    %k0 = hcq.cmds kernargs i32 [0x1, 0x2]
    %k1 = hcq.cmds kernargs i32 [0x3]
    hcq.cmds cmdbuf i32 [lo(%k0), hi(%k0), lo(%k1), hi(%k1 + 8)] : !hcq.linear, !hcq.linear
  }
}

// -----

// Tests that the segments of one stream are laid out as separate streams
// are, each padded to 128 bytes, an empty one taking no room: the blob is
// the one @indirect makes from two streams.
// CHECK-LABEL: hcq.schedule @segments
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[KA:.*]] = hcq.placeholder kernargs slot 2 : !hcq.buffer<256xi8, AMD:0>
// CHECK: hcq.blob %[[CB]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, {{.*}}] patches [0: addr(%[[KA]]), 8: lo(%[[KA]] + 128), 12: hi(%[[KA]] + 136)]
// CHECK-NEXT: hcq.blob %[[KA]] = [0x00000001, 0x00000002, 0xbfbfbfbf, {{(0xbfbfbfbf, )+}}0x00000003, 0xbebebebe, 0xbfbfbfbf, {{.*}}] patches [132: lo(%{{.*}})]
// CHECK-NEXT: hcq.enqueue %[[CB]][16] on AMD:0 queue COMPUTE:0
hcq.schedule @segments() {
  %m = hcq.alloc : !hcq.buffer<4xf32, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    %k = hcq.cmds kernargs i32 [0x1, 0x2] [] [0x3, lo(%m)] : !hcq.buffer<4xf32, AMD:0>
    hcq.cmds cmdbuf i32 [lo(%k), hi(%k), lo(%k + 128), hi(%k + 136)] : !hcq.linear
  }
}

// -----

// Tests that a blob's patches keep their streams' order when the first
// stream's table is rewritten in place: its run-time words leave no entry,
// and the second stream's patches follow the first one's, with no entry
// left over from what the first table held.
// CHECK-LABEL: hcq.schedule @patch_order
// CHECK-SAME: (%[[X:.*]]: !hcq.buffer<4xf32, AMD:0>)
// CHECK-DAG: %[[M:.*]] = hcq.alloc
// CHECK-DAG: %[[KA:.*]] = hcq.placeholder kernargs slot 2 : !hcq.buffer<256xi8, AMD:0>
// CHECK: hcq.blob %[[KA]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbfbfbfbf, {{(0xbfbfbfbf, )+}}0x00000007, 0xbebebebe, 0xbfbfbfbf, {{.*}}] patches [4: lo(%[[M]]), 12: hi(%[[M]]), 132: lo(%[[M]] + 8)] :
// CHECK-NEXT: hcq.inputs {{.*}} = [%[[X]]]
hcq.schedule @patch_order(%x: !hcq.buffer<4xf32, AMD:0>) {
  %m = hcq.alloc : !hcq.buffer<4xf32, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    %k0 = hcq.cmds kernargs i32 [lo(%x), lo(%m), hi(%x), hi(%m)] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<4xf32, AMD:0>
    %k1 = hcq.cmds kernargs i32 [0x7, lo(%m + 8)] : !hcq.buffer<4xf32, AMD:0>
    hcq.cmds cmdbuf i32 [lo(%k0), hi(%k0), lo(%k1), hi(%k1)] : !hcq.linear, !hcq.linear
  }
}

// -----

// Tests 64-bit words: CPU entries with link-time addresses of host functions
// and programs, and a run-time 64-bit input address.
// CHECK-LABEL: hcq.schedule @cpu
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot {{[0-9]+}} : !hcq.buffer<128xi8, CPU:0>
// CHECK-DAG: %[[FN:.*]] = hcq.placeholder host_function slot 4
// CHECK: hcq.blob %[[CB]] = [0xbebebebe, 0xbebebebe, 0xbebebebe, 0xbebebebe, 0x00000007, 0x00000000, {{.*}}] patches [0: addr(%[[FN]])]
// CHECK: hcq.patch_group %[[CB]] offsets %{{.*}}[0, 1] i64 addr(%{{.*}} + 16)
// CHECK-NEXT: hcq.enqueue %[[CB]][64] on CPU:0 queue COPY:0
hcq.schedule @cpu(%a: !hcq.buffer<8xf32, CPU:0>) {
  %fn = hcq.placeholder host_function slot 4 : !hcq.buffer<1xi8, CPU:0>
  hcq.submit on CPU:0 queue COPY:0 {
    hcq.cmds cmdbuf i64 [addr(%fn), addr(%a + 16), 0x7, 0x0, 0x0, 0x0, 0x0, 0x0] : !hcq.buffer<1xi8, CPU:0>, !hcq.buffer<8xf32, CPU:0>
  }
}

// -----

// Tests multi-device submits: per-lane link-time words stay per lane, and an
// input gets a table slot per lane (lane 1 of a two-device input is its own
// memory; a one-device input serves both lanes).
// CHECK-LABEL: hcq.schedule @lanes
// CHECK-SAME: (%[[M:.*]]: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %[[O:.*]]: !hcq.buffer<4xf32, AMD:0>)
// CHECK: patches [0: addr({{\[}}%[[A:[0-9]+]], %[[B:[0-9]+]]])]
// CHECK: hcq.inputs %{{.*}} = [%[[M]], %[[M]], %[[O]], %[[O]]] lanes [0, 1, 0, 0]
// CHECK: hcq.blob %{{.*}} = [0x00000008, 0x00000000, 0x0000000c, 0x00000002]
// CHECK: hcq.enqueue %{{.*}}[16] on [AMD:0, AMD:1] queue COMPUTE:0
hcq.schedule @lanes(%m: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %o: !hcq.buffer<4xf32, AMD:0>) {
  %s0 = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %s1 = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:1>
  hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
    hcq.cmds cmdbuf i32 [lo([%s0, %s1]), hi([%s0, %s1]), lo(%m), lo(%o)] : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, AMD:0>
  }
}

// -----

// Tests that an internal buffer's address is link-time and an empty submit
// disappears.
// CHECK-LABEL: hcq.schedule @alloc
// CHECK: %[[T:.*]] = hcq.alloc
// CHECK: patches [0: addr(%[[T]])]
// CHECK-NOT: hcq.patch_group
// CHECK: hcq.enqueue
// CHECK-NOT: hcq.submit
hcq.schedule @alloc() {
  %t = hcq.alloc : !hcq.buffer<4xf32, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.cmds cmdbuf i32 [lo(%t), hi(%t)] : !hcq.buffer<4xf32, AMD:0>
  }
  hcq.submit on CPU:0 queue SUBMIT:0 {
  }
}
