// How a stream's words are stored: the generic form shows the symbols table
// (HCQ/Dialect/Words.h), the custom form every word, and the two (and
// bytecode) round-trip.
// RUN: hcq-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: hcq-opt %s --mlir-print-op-generic | hcq-opt | FileCheck %s
// RUN: hcq-opt %s --emit-bytecode | hcq-opt | FileCheck %s

// Tests that an address's or load's lo half followed by its hi half in one
// segment is one table entry, a pair (metadata bit 24, part full, the hi
// half's OR bits in the entry's high 32), printed back as the two halves;
// halves in different segments, or of different addresses, are two entries.
// GENERIC-LABEL: hcq.schedule
// GENERIC: "hcq.cmds"(%arg0) <{segments = array<i32: 2, 3>, symbols = array<i64: 72057598332895232, 4294967296, 0, 0, 1103806595074, 4294967296, 0, 0, 2203318222851, 4294967296, 0, 0>, tag = 8 : i32, word_bits = 32 : i32, words = array<i32: 0, 0, 0, 0>}>
// GENERIC: "hcq.cmds"(%arg0, %0, %1) <{segments = array<i32>, symbols = array<i64: 74309398146580480, 4294967296, 8, -9223372036854775808, 72057606922829826, 4294967297, -1, 0, 1103806595076, 4294967296, 0, 0, 2203318222853, 4294967296, 4, 0, 1103806595078, 4294967298, 0, 0>, tag = 7 : i32, word_bits = 32 : i32, words = array<i32: 0, 0, 0, 0, 0, 0, 0>}>
// CHECK-LABEL: hcq.schedule @pairs
// CHECK: %[[K:.*]] = hcq.cmds kernargs i32 [lo(%[[B:.*]]), hi(%[[B]])] [lo(%[[B]])] [hi(%[[B]])]
// CHECK: hcq.cmds cmdbuf i32 [lo(%[[B]] + 8 >> 8), hi(%[[B]] + 8 >> 8) | 0x80000000, load.lo(%[[T:.*]] - 1), load.hi(%[[T]] - 1), lo(%[[B]]), hi(%[[B]] + 4), lo(%[[K]])]
hcq.schedule @pairs(%b: !hcq.buffer<4xf32, AMD:0>) {
  %t = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    %k = hcq.cmds kernargs i32 [lo(%b), hi(%b)] [lo(%b)] [hi(%b)] : !hcq.buffer<4xf32, AMD:0>
    hcq.cmds cmdbuf i32 [lo(%b + 8 >> 8), hi(%b + 8 >> 8) | 0x80000000, load.lo(%t - 1), load.hi(%t - 1), lo(%b), hi(%b + 4), lo(%k)] : !hcq.buffer<4xf32, AMD:0>, !hcq.buffer<1xi64, AMD:0>, !hcq.linear
  }
}
