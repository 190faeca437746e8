// RUN: hcq-opt %s -split-input-file --hcq-lower-submit | FileCheck %s

// Tests that an AMD compute enqueue pushes a 16-byte INDIRECT_BUFFER packet:
// header 0xc0023f00, the command buffer's address patched at link time, its
// size in dwords with VALID (bit 23), into the queue's ring and pointers.
// CHECK-LABEL: hcq.schedule @compute
// CHECK-DAG: %[[RING:.*]] = hcq.placeholder ring slot 0 volatile : !hcq.buffer<1048576xi8, AMD:0>
// CHECK-DAG: %[[PUT:.*]] = hcq.placeholder ring_put slot 0 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[WPTR:.*]] = hcq.placeholder ring_wptr slot 0 volatile
// CHECK-DAG: %[[RPTR:.*]] = hcq.placeholder ring_rptr slot 0 volatile
// CHECK-DAG: %[[DB:.*]] = hcq.placeholder doorbell slot 0 volatile
// CHECK-DAG: %[[IB:.*]] = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, AMD:0>
// CHECK-DAG: %[[CB:.*]] = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, AMD:0>
// CHECK: hcq.blob %[[IB]] = [0xc0023f00, 0xbebebebe, 0xbebebebe, 0x00800030, 0xbfbfbfbf, {{.*}}] patches [4: lo(%[[CB]]), 8: hi(%[[CB]])]
// CHECK-NEXT: hcq.push %[[IB]][16] pm4 ring(%[[RING]], %[[PUT]], %[[WPTR]], %[[RPTR]], %[[DB]]) on AMD:0 queue COMPUTE:0
// CHECK-NOT: hcq.enqueue
hcq.schedule @compute() {
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, AMD:0>
  hcq.enqueue %cb[192] on AMD:0 queue COMPUTE:0 : !hcq.buffer<256xi8, AMD:0>
}

// -----

// Tests that an AMD copy enqueue pushes the command buffer itself, and CPU
// enqueues push their entries, each queue with its own ring (slot: kind << 8
// | index).
// CHECK-LABEL: hcq.schedule @copy_and_cpu
// CHECK-DAG: %[[SRING:.*]] = hcq.placeholder ring slot 256 volatile : !hcq.buffer<1048576xi8, AMD:0>
// CHECK-DAG: %[[CRING:.*]] = hcq.placeholder ring slot 0 volatile : !hcq.buffer<1048576xi8, CPU:0>
// CHECK-DAG: %[[C2RING:.*]] = hcq.placeholder ring slot 257 volatile : !hcq.buffer<1048576xi8, CPU:0>
// CHECK: hcq.push %[[SDMA:.*]][100] sdma ring(%[[SRING]], {{.*}}) on AMD:0 queue COPY:0
// CHECK-NEXT: hcq.push %[[CPU:.*]][128] cpu ring(%[[CRING]], {{.*}}) on CPU:0 queue COMPUTE:0
// CHECK-NEXT: hcq.push %[[CPU]][64] cpu ring(%[[CRING]], {{.*}}) on CPU:0 queue COMPUTE:0
// CHECK-NEXT: hcq.push %{{.*}}[64] cpu ring(%[[C2RING]], {{.*}}) on CPU:0 queue COPY:1
hcq.schedule @copy_and_cpu() {
  %s = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  %c = hcq.placeholder cmdbuf slot 2 : !hcq.buffer<128xi8, CPU:0>
  %d = hcq.placeholder cmdbuf slot 3 : !hcq.buffer<128xi8, CPU:0>
  hcq.enqueue %s[100] on AMD:0 queue COPY:0 : !hcq.buffer<128xi8, AMD:0>
  hcq.enqueue %c[128] on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
  hcq.enqueue %c[64] on CPU:0 queue COMPUTE:0 : !hcq.buffer<128xi8, CPU:0>
  hcq.enqueue %d[64] on CPU:0 queue COPY:1 : !hcq.buffer<128xi8, CPU:0>
}
