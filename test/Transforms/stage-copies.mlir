// RUN: hcq-opt %s -split-input-file --hcq-stage-copies="staging-size=64 staging-slots=2" | FileCheck %s
// RUN: hcq-opt %s -split-input-file --hcq-stage-copies="staging-size=64 staging-slots=2 copy-queues=AMD" | FileCheck %s --check-prefix=KERNEL
// RUN: hcq-opt %s -split-input-file --hcq-stage-copies="staging-size=64 staging-slots=2 copy-queues=" | FileCheck %s --check-prefix=NOQUEUE

// Tests that a copy from AMD to a device without queues is split into chunks
// of staging-size / staging-slots bytes through the CPU staging buffer,
// alternating slots, src -> staging then staging -> dst for each chunk; the
// last chunk is the remainder.
// CHECK-LABEL: hcq.schedule @amd_to_disk
// CHECK-SAME: (%[[SRC:.*]]: !hcq.buffer<25xf32, AMD:0>, %[[DST:.*]]: !hcq.buffer<25xf32, DISK:0>)
// CHECK: %[[ST:.*]] = hcq.placeholder staging slot 0 : !hcq.buffer<64xi8, CPU:0>
// CHECK-NEXT: hcq.copy %[[ST]][0, 32], %[[SRC]][0, 32]
// CHECK-NEXT: hcq.copy %[[DST]][0, 32], %[[ST]][0, 32]
// CHECK-NEXT: hcq.copy %[[ST]][32, 32], %[[SRC]][32, 32]
// CHECK-NEXT: hcq.copy %[[DST]][32, 32], %[[ST]][32, 32]
// CHECK-NEXT: hcq.copy %[[ST]][0, 32], %[[SRC]][64, 32]
// CHECK-NEXT: hcq.copy %[[DST]][64, 32], %[[ST]][0, 32]
// CHECK-NEXT: hcq.copy %[[ST]][32, 4], %[[SRC]][96, 4]
// CHECK-NEXT: hcq.copy %[[DST]][96, 4], %[[ST]][32, 4]
// CHECK-NOT: hcq.copy
hcq.schedule @amd_to_disk(%src: !hcq.buffer<25xf32, AMD:0>, %dst: !hcq.buffer<25xf32, DISK:0>) {
  hcq.copy %dst[0, 100], %src[0, 100] : !hcq.buffer<25xf32, DISK:0>, !hcq.buffer<25xf32, AMD:0>
}

// -----

// Tests the other direction, with offsets on both sides kept per chunk.
// CHECK-LABEL: hcq.schedule @disk_to_amd
// CHECK-SAME: (%[[SRC:.*]]: !hcq.buffer<32xi32, DISK:0>, %[[DST:.*]]: !hcq.buffer<32xf32, AMD:0>)
// CHECK: %[[ST:.*]] = hcq.placeholder staging slot 0
// CHECK-NEXT: hcq.copy %[[ST]][0, 32], %[[SRC]][8, 32]
// CHECK-NEXT: hcq.copy %[[DST]][16, 32], %[[ST]][0, 32]
// CHECK-NEXT: hcq.copy %[[ST]][32, 8], %[[SRC]][40, 8]
// CHECK-NEXT: hcq.copy %[[DST]][48, 8], %[[ST]][32, 8]
// CHECK-NOT: hcq.copy
hcq.schedule @disk_to_amd(%src: !hcq.buffer<32xi32, DISK:0>, %dst: !hcq.buffer<32xf32, AMD:0>) {
  hcq.copy %dst[16, 40], %src[8, 40] : !hcq.buffer<32xf32, AMD:0>, !hcq.buffer<32xi32, DISK:0>
}

// -----

// Tests that chunks are whole elements: 64 / 2 = 32 bytes holds two 12-byte
// elements, so chunks and slots are 24 bytes.
// CHECK-LABEL: hcq.schedule @chunk_rounding
// CHECK: hcq.copy %{{.*}}[0, 24], %{{.*}}[0, 24]
// CHECK-NEXT: hcq.copy %{{.*}}[0, 24], %{{.*}}[0, 24]
// CHECK-NEXT: hcq.copy %{{.*}}[24, 24], %{{.*}}[24, 24]
// CHECK-NEXT: hcq.copy %{{.*}}[24, 24], %{{.*}}[24, 24]
// CHECK-NOT: hcq.copy
hcq.schedule @chunk_rounding(%src: !hcq.buffer<4xi96, AMD:0>, %dst: !hcq.buffer<4xi96, NV:0>) {
  hcq.copy %dst[0, 48], %src[0, 48] : !hcq.buffer<4xi96, NV:0>, !hcq.buffer<4xi96, AMD:0>
}

// -----

// Tests that copies between queue devices, and between the CPU and a device
// without queues, are not staged: only non-CPU queue devices need it.
// CHECK-LABEL: hcq.schedule @no_staging
// CHECK-NOT: hcq.placeholder staging
// CHECK: hcq.copy %{{.*}}[0, 16], %{{.*}}[0, 16] : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, AMD:0>
// CHECK-NEXT: hcq.copy %{{.*}}[0, 16], %{{.*}}[0, 16] : !hcq.buffer<4xf32, DISK:0>, !hcq.buffer<4xf32, CPU:0>
// CHECK-NEXT: hcq.copy %{{.*}}[0, 16], %{{.*}}[0, 16] : !hcq.buffer<4xf32, AMD:1>, !hcq.buffer<4xf32, AMD:0>
hcq.schedule @no_staging(%amd: !hcq.buffer<4xf32, AMD:0>, %cpu: !hcq.buffer<4xf32, CPU:0>, %disk: !hcq.buffer<4xf32, DISK:0>, %amd1: !hcq.buffer<4xf32, AMD:1>) {
  hcq.copy %cpu[0, 16], %amd[0, 16] : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, AMD:0>
  hcq.copy %disk[0, 16], %cpu[0, 16] : !hcq.buffer<4xf32, DISK:0>, !hcq.buffer<4xf32, CPU:0>
  hcq.copy %amd1[0, 16], %amd[0, 16] : !hcq.buffer<4xf32, AMD:1>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that a copy enqueued on a device without a copy queue becomes a launch
// of the builtin copy kernel, one thread per element, on views of its ranges;
// copies on devices with a copy queue stay. CPU to AMD is enqueued on AMD.
// CHECK-LABEL: hcq.schedule @kernel_copy
// CHECK-NOT: hcq.launch
// KERNEL: hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
// KERNEL-LABEL: hcq.schedule @kernel_copy
// KERNEL-SAME: (%[[A:.*]]: !hcq.buffer<16xf32, CPU:0>, %[[B:.*]]: !hcq.buffer<16xf32, CPU:0>, %[[G:.*]]: !hcq.buffer<16xf32, AMD:0>)
// KERNEL: %[[DV:.*]] = hcq.view %[[B]][4] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<8xf32, CPU:0>
// KERNEL-NEXT: %[[SV:.*]] = hcq.view %[[A]][0] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<8xf32, CPU:0>
// KERNEL-NEXT: hcq.launch @hcq_copy_f32_f32(%[[DV]], %[[SV]] : !hcq.buffer<8xf32, CPU:0>, !hcq.buffer<8xf32, CPU:0>) global [8, 1, 1] local [1, 1, 1]
// KERNEL-NEXT: hcq.launch @hcq_copy_f32_f32(%[[A]], %[[B]] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>) global [16, 1, 1] local [1, 1, 1]
// KERNEL-NEXT: hcq.copy %[[G]][0, 64], %[[A]][0, 64]
// KERNEL-NEXT: }
hcq.schedule @kernel_copy(%a: !hcq.buffer<16xf32, CPU:0>, %b: !hcq.buffer<16xf32, CPU:0>, %g: !hcq.buffer<16xf32, AMD:0>) {
  hcq.copy %b[16, 32], %a[0, 32] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>
  hcq.copy %a[0, 64], %b[0, 64] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>
  hcq.copy %g[0, 64], %a[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, CPU:0>
}

// -----

// Tests that (size arithmetic) a kernel copy of more elements than a grid
// dimension can have (2^32 - 1, hcq.launch's limit) is split into launches
// of at most that many, each on views of its part: never one launch whose
// grid the verifier refuses or an encoder truncates.
// KERNEL-LABEL: hcq.schedule @big_kernel_copy
// KERNEL-SAME: (%[[A:.*]]: !hcq.buffer<4294967298xi8, CPU:0>, %[[B:.*]]: !hcq.buffer<4294967298xi8, CPU:0>)
// KERNEL-NEXT: %[[D0:.*]] = hcq.view %[[B]][1] : !hcq.buffer<4294967298xi8, CPU:0> -> !hcq.buffer<4294967295xi8, CPU:0>
// KERNEL-NEXT: %[[S0:.*]] = hcq.view %[[A]][0] : !hcq.buffer<4294967298xi8, CPU:0> -> !hcq.buffer<4294967295xi8, CPU:0>
// KERNEL-NEXT: hcq.launch @hcq_copy_i8_i8(%[[D0]], %[[S0]] : {{.*}}) global [4294967295, 1, 1] local [1, 1, 1]
// KERNEL-NEXT: %[[D1:.*]] = hcq.view %[[B]][4294967296] : !hcq.buffer<4294967298xi8, CPU:0> -> !hcq.buffer<2xi8, CPU:0>
// KERNEL-NEXT: %[[S1:.*]] = hcq.view %[[A]][4294967295] : !hcq.buffer<4294967298xi8, CPU:0> -> !hcq.buffer<2xi8, CPU:0>
// KERNEL-NEXT: hcq.launch @hcq_copy_i8_i8(%[[D1]], %[[S1]] : {{.*}}) global [2, 1, 1] local [1, 1, 1]
// KERNEL-NEXT: }
hcq.schedule @big_kernel_copy(%a: !hcq.buffer<4294967298xi8, CPU:0>, %b: !hcq.buffer<4294967298xi8, CPU:0>) {
  hcq.copy %b[1, 4294967297], %a[0, 4294967297] : !hcq.buffer<4294967298xi8, CPU:0>, !hcq.buffer<4294967298xi8, CPU:0>
}

// -----

// Tests that a kernel copy between element sizes, or of a range that is not
// whole elements, copies bytes; and that staging then kernel copies compose
// when no device has a copy queue: both chunk copies become kernels on AMD.
// NOQUEUE-LABEL: hcq.schedule @staged_kernel_copy
// NOQUEUE-SAME: (%[[SRC:.*]]: !hcq.buffer<10xf32, AMD:0>, %[[DST:.*]]: !hcq.buffer<10xf32, DISK:0>)
// NOQUEUE: %[[ST:.*]] = hcq.placeholder staging slot 0 : !hcq.buffer<64xi8, CPU:0>
// NOQUEUE: %[[SV:.*]] = hcq.view %[[ST]][0] : !hcq.buffer<64xi8, CPU:0> -> !hcq.buffer<32xi8, CPU:0>
// NOQUEUE-NEXT: %[[GV:.*]] = hcq.view %[[SRC]][0] : !hcq.buffer<10xf32, AMD:0> -> !hcq.buffer<32xi8, AMD:0>
// NOQUEUE-NEXT: hcq.launch @hcq_copy_i8_i8(%[[SV]], %[[GV]] : !hcq.buffer<32xi8, CPU:0>, !hcq.buffer<32xi8, AMD:0>) global [32, 1, 1] local [1, 1, 1]
// NOQUEUE-NEXT: hcq.copy %[[DST]][0, 32], %[[ST]][0, 32]
// NOQUEUE: hcq.launch @hcq_copy_i8_i8
// NOQUEUE-NEXT: hcq.copy %[[DST]][32, 8], %[[ST]][32, 8]
hcq.schedule @staged_kernel_copy(%src: !hcq.buffer<10xf32, AMD:0>, %dst: !hcq.buffer<10xf32, DISK:0>) {
  hcq.copy %dst[0, 40], %src[0, 40] : !hcq.buffer<10xf32, DISK:0>, !hcq.buffer<10xf32, AMD:0>
}

// -----

// Tests that a kernel copy of an unaligned range views bytes of its buffers.
// KERNEL-LABEL: hcq.schedule @unaligned
// KERNEL-SAME: (%[[A:.*]]: !hcq.buffer<4xf32, CPU:0>, %[[B:.*]]: !hcq.buffer<4xf32, CPU:0>)
// KERNEL: %[[BB:.*]] = hcq.view %[[B]][0] : !hcq.buffer<4xf32, CPU:0> -> !hcq.buffer<16xi8, CPU:0>
// KERNEL-NEXT: %[[BV:.*]] = hcq.view %[[BB]][2] : !hcq.buffer<16xi8, CPU:0> -> !hcq.buffer<6xi8, CPU:0>
// KERNEL-NEXT: %[[AV:.*]] = hcq.view %[[A]][0] : !hcq.buffer<4xf32, CPU:0> -> !hcq.buffer<6xi8, CPU:0>
// KERNEL-NEXT: hcq.launch @hcq_copy_i8_i8(%[[BV]], %[[AV]] : {{.*}}) global [6, 1, 1] local [1, 1, 1]
hcq.schedule @unaligned(%a: !hcq.buffer<4xf32, CPU:0>, %b: !hcq.buffer<4xf32, CPU:0>) {
  hcq.copy %b[2, 6], %a[0, 6] : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a copy of two lanes is staged lane by lane, through a staging
// buffer on two CPU devices in a slot of its own (slot 1: it must share no
// memory with the one-lane staging buffer, slot 0 on CPU:0, which the copy
// of one lane uses).
// CHECK-LABEL: hcq.schedule @staged_lanes
// CHECK-SAME: (%[[SRC:.*]]: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %[[DST:.*]]: !hcq.buffer<4xf32, [DISK:0, DISK:1]>, %[[ONE:.*]]: !hcq.buffer<4xf32, AMD:0>, %[[DISK:.*]]: !hcq.buffer<4xf32, DISK:0>)
// CHECK-DAG: %[[ST1:.*]] = hcq.placeholder staging slot 0 : !hcq.buffer<64xi8, CPU:0>
// CHECK-DAG: %[[ST2:.*]] = hcq.placeholder staging slot 1 : !hcq.buffer<64xi8, [CPU:0, CPU:1]>
// CHECK: hcq.copy %[[ST2]][0, 16], %[[SRC]][0, 16] : !hcq.buffer<64xi8, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>
// CHECK-NEXT: hcq.copy %[[DST]][0, 16], %[[ST2]][0, 16] : !hcq.buffer<4xf32, [DISK:0, DISK:1]>, !hcq.buffer<64xi8, [CPU:0, CPU:1]>
// CHECK-NEXT: hcq.copy %[[ST1]][0, 16], %[[ONE]][0, 16] : !hcq.buffer<64xi8, CPU:0>, !hcq.buffer<4xf32, AMD:0>
// CHECK-NEXT: hcq.copy %[[DISK]][0, 16], %[[ST1]][0, 16]
hcq.schedule @staged_lanes(%src: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %dst: !hcq.buffer<4xf32, [DISK:0, DISK:1]>, %one: !hcq.buffer<4xf32, AMD:0>, %disk: !hcq.buffer<4xf32, DISK:0>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [DISK:0, DISK:1]>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>
  hcq.copy %disk[0, 16], %one[0, 16] : !hcq.buffer<4xf32, DISK:0>, !hcq.buffer<4xf32, AMD:0>
}

// -----

// Tests that a broadcast is staged through the one-lane staging buffer and
// broadcast from it, in both directions.
// CHECK-LABEL: hcq.schedule @staged_broadcast
// CHECK-SAME: (%[[SRC:.*]]: !hcq.buffer<4xf32, AMD:1>, %[[DST:.*]]: !hcq.buffer<4xf32, [DISK:0, DISK:1]>, %[[DISK:.*]]: !hcq.buffer<4xf32, DISK:0>, %[[GPUS:.*]]: !hcq.buffer<4xf32, [AMD:0, AMD:1]>)
// CHECK-NEXT: %[[ST:.*]] = hcq.placeholder staging slot 0 : !hcq.buffer<64xi8, CPU:0>
// CHECK-NEXT: hcq.copy %[[ST]][0, 16], %[[SRC]][0, 16] : !hcq.buffer<64xi8, CPU:0>, !hcq.buffer<4xf32, AMD:1>
// CHECK-NEXT: hcq.copy %[[DST]][0, 16], %[[ST]][0, 16] : !hcq.buffer<4xf32, [DISK:0, DISK:1]>, !hcq.buffer<64xi8, CPU:0>
// CHECK-NEXT: hcq.copy %[[ST]][0, 16], %[[DISK]][0, 16] : !hcq.buffer<64xi8, CPU:0>, !hcq.buffer<4xf32, DISK:0>
// CHECK-NEXT: hcq.copy %[[GPUS]][0, 16], %[[ST]][0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<64xi8, CPU:0>
// CHECK-NOT: hcq.placeholder
hcq.schedule @staged_broadcast(%src: !hcq.buffer<4xf32, AMD:1>, %dst: !hcq.buffer<4xf32, [DISK:0, DISK:1]>, %disk: !hcq.buffer<4xf32, DISK:0>, %gpus: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [DISK:0, DISK:1]>, !hcq.buffer<4xf32, AMD:1>
  hcq.copy %gpus[0, 16], %disk[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, DISK:0>
}

// -----

// Tests that a broadcast is placed on the destination's devices: from the
// CPU into two AMD lanes it stays a copy when AMD has a copy queue
// (copy-queues=AMD) and is a kernel copy on AMD when it has none.
// CHECK-LABEL: hcq.schedule @kernel_broadcast
// CHECK-NOT: hcq.launch
// KERNEL-LABEL: hcq.schedule @kernel_broadcast
// KERNEL-NOT: hcq.launch
// KERNEL: hcq.copy %{{.*}}[0, 16], %{{.*}}[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, CPU:0>
// NOQUEUE-LABEL: hcq.schedule @kernel_broadcast
// NOQUEUE-NEXT: hcq.launch @hcq_copy_f32_f32(%{{.*}}, %{{.*}} : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, CPU:0>)
hcq.schedule @kernel_broadcast(%c: !hcq.buffer<4xf32, CPU:0>, %gs: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  hcq.copy %gs[0, 16], %c[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, CPU:0>
}

// -----

// Tests that a broadcast from AMD into lanes on CPU devices goes through the
// CPU:0 staging buffer (it runs on the destination's devices, and a CPU
// queue cannot be expected to read GPU memory): pushed there by AMD, then
// broadcast from host memory, as a kernel copy on the CPU when it has no
// copy queue (copy-queues=AMD). Between element sizes it goes by bytes.
// CHECK-LABEL: hcq.schedule @broadcast_to_cpu
// CHECK-SAME: (%[[G:.*]]: !hcq.buffer<4xf32, AMD:0>, %[[CS:.*]]: !hcq.buffer<4xf32, [CPU:0, CPU:1]>, %[[BS:.*]]: !hcq.buffer<16xi8, [AMD:1, CPU:1]>)
// CHECK-NEXT: %[[ST:.*]] = hcq.placeholder staging slot 0 : !hcq.buffer<64xi8, CPU:0>
// CHECK-NEXT: hcq.copy %[[ST]][0, 16], %[[G]][0, 16] : !hcq.buffer<64xi8, CPU:0>, !hcq.buffer<4xf32, AMD:0>
// CHECK-NEXT: hcq.copy %[[CS]][0, 16], %[[ST]][0, 16] : !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<64xi8, CPU:0>
// CHECK-NEXT: hcq.copy %[[ST]][0, 16], %[[G]][0, 16]
// CHECK-NEXT: hcq.copy %[[BS]][0, 16], %[[ST]][0, 16] : !hcq.buffer<16xi8, [AMD:1, CPU:1]>, !hcq.buffer<64xi8, CPU:0>
// KERNEL-LABEL: hcq.schedule @broadcast_to_cpu
// KERNEL: hcq.copy %[[ST:.*]][0, 16], %{{.*}}[0, 16] : !hcq.buffer<64xi8, CPU:0>, !hcq.buffer<4xf32, AMD:0>
// KERNEL: hcq.launch @hcq_copy_i8_i8(%{{.*}}, %{{.*}} : !hcq.buffer<16xi8, [CPU:0, CPU:1]>, !hcq.buffer<16xi8, CPU:0>)
hcq.schedule @broadcast_to_cpu(%g: !hcq.buffer<4xf32, AMD:0>, %cs: !hcq.buffer<4xf32, [CPU:0, CPU:1]>, %bs: !hcq.buffer<16xi8, [AMD:1, CPU:1]>) {
  hcq.copy %cs[0, 16], %g[0, 16] : !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, AMD:0>
  hcq.copy %bs[0, 16], %g[0, 16] : !hcq.buffer<16xi8, [AMD:1, CPU:1]>, !hcq.buffer<4xf32, AMD:0>
}
