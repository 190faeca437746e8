// RUN: hcq-opt %s -split-input-file --hcq-attach-targets --hcq-lower-submit | FileCheck %s

// Tests that an AMD compute enqueue pushes a 16-byte INDIRECT_BUFFER packet:
// header 0xc0023f00, the command buffer's address patched at link time, its
// size in dwords with VALID (bit 23), onto the device queue (whose ring,
// pointers and doorbell are the runtime's: no placeholders for them).
// CHECK-LABEL: hcq.schedule @compute
// CHECK-NOT: hcq.placeholder ring
// CHECK-DAG: %[[IB:.*]] = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, AMD:0>
// CHECK: hcq.blob %[[IB]] = [0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800030, 0xbfbfbfbf, {{.*}}] patches [4: addr(%[[CB]])]
// CHECK-NEXT: hcq.push %[[IB]][16] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
// CHECK-NOT: hcq.enqueue
hcq.schedule @compute() {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, AMD:0>
  hcq.enqueue %cb[192] on AMD:0 queue COMPUTE:0 : !hcq.buffer<256xi8, AMD:0>
}

// -----

// Tests that a compute command buffer longer than the target's
// indirect_buffer_dwords is pushed as one INDIRECT_BUFFER per that many
// dwords, each at its offset in the buffer (here 150 dwords in pieces of 64:
// 64, 64 and 22).
// CHECK-LABEL: hcq.schedule @split
// CHECK-DAG: %[[IB:.*]] = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<1024xi8, AMD:0>
// CHECK: hcq.blob %[[IB]] = [0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800040, 0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800040, 0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800016, 0xbfbfbfbf, {{.*}}] patches [4: addr(%[[CB]]), 20: addr(%[[CB]] + 256), 36: addr(%[[CB]] + 512)]
// CHECK-NEXT: hcq.push %[[IB]][48] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
hcq.schedule @split() targets [#hcq.amd_target<chip = "gfx1100", indirect_buffer_dwords = 64>] {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<1024xi8, AMD:0>
  hcq.enqueue %cb[600] on AMD:0 queue COMPUTE:0 : !hcq.buffer<1024xi8, AMD:0>
}

// -----

// Tests that an AMD copy enqueue pushes the command buffer itself, and CPU
// enqueues push their entries, each onto the device queue it names.
// CHECK-LABEL: hcq.schedule @copy_and_cpu
// CHECK-DAG: %[[S:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[C:.*]] = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, CPU:0>
// CHECK-DAG: %[[D:.*]] = hcq.placeholder cmdbuf slot 3 : !hcq.buffer<128xi8, CPU:0>
// CHECK: hcq.push %[[S]][100] sdma on AMD:0 queue COPY:0
// CHECK-NEXT: hcq.push %[[C]][128] cpu on CPU:0 queue COMPUTE:0
// CHECK-NEXT: hcq.push %[[C]][64] cpu on CPU:0 queue COMPUTE:0
// CHECK-NEXT: hcq.push %[[D]][64] cpu on CPU:0 queue COPY:1
hcq.schedule @copy_and_cpu() {
  %s = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  %c = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, CPU:0>
  %d = hcq.placeholder cmdbuf slot 3 : !hcq.buffer<128xi8, CPU:0>
  hcq.enqueue %s[100] on AMD:0 queue COPY:0 : !hcq.buffer<128xi8, AMD:0>
  hcq.enqueue %c[128] on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
  hcq.enqueue %c[64] on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
  hcq.enqueue %d[64] on CPU:0 queue COPY:1 : !hcq.buffer<128xi8, CPU:0>
}
