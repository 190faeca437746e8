// RUN: hcq-opt %s -split-input-file --hcq-batch-deps | FileCheck %s
// RUN: hcq-opt %s -split-input-file --hcq-batch-deps="batch-size=1" | FileCheck %s --check-prefix=SPLIT
// RUN: hcq-opt %s -split-input-file --hcq-batch-deps="profile=true" | FileCheck %s --check-prefix=PROFILE

hcq.kernel @write cpu (write f32) symbol "w" library "libk.so"
hcq.kernel @read cpu (read f32) symbol "r" library "libk.so"
hcq.kernel @read2 cpu (read f32, read f32) symbol "r2" library "libk.so"

// Tests read-after-write across queues: the copy waits for the kernel's
// signal; the producers someone waits on (the kernel, and the copy, which the
// finalizer waits on) store tag + 1; the first submit of each queue starts
// with a barrier and a wait for the device timeline.
// CHECK-LABEL: hcq.schedule @raw
// CHECK-DAG: %[[SIG:.*]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[TL:.*]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[TLV:.*]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[EP:.*]] = hcq.placeholder epoch slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[CSIG:.*]] = hcq.placeholder signal slot 3 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK: hcq.fence %[[TL]] reaches %[[EP]]
// CHECK-NEXT: hcq.reset %[[SIG]], %[[CSIG]]
// CHECK-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %[[TL]] >= [%[[TLV]] : !hcq.buffer<1xi64, AMD:0>] - 1
// CHECK-NEXT:   hcq.launch @write
// CHECK-NEXT:   hcq.store %[[SIG]] = 1
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %[[TL]] >= [%[[TLV]] : !hcq.buffer<1xi64, AMD:0>] - 1
// CHECK-NEXT:   hcq.wait %[[SIG]] >= 1
// CHECK-NEXT:   hcq.copy
// CHECK-NEXT:   hcq.store %[[CSIG]] = 2
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT:   hcq.wait %[[CSIG]] >= 2
// CHECK-NEXT:   hcq.store %[[TL]] = [%[[TLV]] : !hcq.buffer<1xi64, AMD:0>]
// CHECK-NEXT: }
// CHECK-NEXT: hcq.finalize %[[TLV]], %[[EP]]
// CHECK-NEXT: }
hcq.schedule @raw(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %b[0, 64], %a[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
}

// Tests write-after-read: the copy overwriting what the kernel reads waits.
// CHECK-LABEL: hcq.schedule @war
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK:   hcq.launch @read
// CHECK-NEXT:   hcq.store %[[SIG:.*]] = 1
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK:   hcq.wait %[[SIG]] >= 1
// CHECK-NEXT:   hcq.copy
hcq.schedule @war(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @read(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %a[0, 64], %b[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
}

// Tests write-after-write: the kernel overwriting what the copy wrote waits.
// CHECK-LABEL: hcq.schedule @waw
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK:   hcq.copy
// CHECK-NEXT:   hcq.store %[[SIG:.*]] = 1
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK:   hcq.wait %[[SIG]] >= 1
// CHECK-NEXT:   hcq.launch @write
hcq.schedule @waw(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:0>) {
  hcq.copy %a[0, 64], %b[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that two reads of one buffer on different queues do not wait, so the
// kernel stores no signal.
// CHECK-LABEL: hcq.schedule @read_read
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}}] - 1
// CHECK-NEXT:   hcq.launch @read
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:0 queue COPY:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}}] - 1
// CHECK-NEXT:   hcq.copy
hcq.schedule @read_read(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @read(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %b[0, 64], %a[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
}

// Tests byte ranges: the kernel writes bytes [0, 32) of %a through a view; the
// first copy reads [32, 64) and does not wait, the second reads [28, 60) and
// does.
// CHECK-LABEL: hcq.schedule @views
// CHECK: hcq.launch @write
// CHECK-NEXT:   hcq.store %[[SIG:.*]] = 1
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}}] - 1
// CHECK-NEXT:   hcq.copy %{{.*}}[0, 32], %{{.*}}[32, 32]
// CHECK-NEXT:   hcq.wait %[[SIG]] >= 1
// CHECK-NEXT:   hcq.copy %{{.*}}[32, 32], %{{.*}}[28, 32]
hcq.schedule @views(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:0>) {
  %lo = hcq.view %a[0] : !hcq.buffer<16xf32, AMD:0> -> !hcq.buffer<8xf32, AMD:0>
  hcq.launch @write(%lo : !hcq.buffer<8xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %b[0, 32], %a[32, 32] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
  hcq.copy %b[32, 32], %a[28, 32] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
}

// Tests that calls on one (device, queue) do not wait on each other (FIFO):
// no wait, and so no signal store, anywhere.
// CHECK-LABEL: hcq.schedule @fifo
// CHECK-NOT: hcq.store %{{.*}} = {{[0-9]}}
// CHECK-NOT: hcq.wait %{{.*}} >= {{[0-9]}}
// CHECK: hcq.finalize
hcq.schedule @fifo(%a: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @read(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that only the latest wait per (device, queue, lane) is kept: the
// kernel depends on both copies and waits only for the second.
// CHECK-LABEL: hcq.schedule @latest
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK:   hcq.copy
// CHECK-NEXT:   hcq.copy
// CHECK-NEXT:   hcq.store %[[SIG:.*]] = 2
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}}] - 1
// CHECK-NEXT:   hcq.wait %[[SIG]] >= 2
// CHECK-NEXT:   hcq.launch @read2
hcq.schedule @latest(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:0>, %c: !hcq.buffer<16xf32, AMD:0>) {
  hcq.copy %a[0, 64], %c[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
  hcq.copy %b[0, 64], %c[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>
  hcq.launch @read2(%a, %b : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests multi-device lanes: a copy of %a (AMD:0) into both lanes of %m is a
// broadcast, run on both devices (each lane pulling %a, so every lane is
// written); lane 1, reading AMD:0's memory, waits for AMD:0's timeline and
// lane 0 on AMD:0's sentinel signal. The two-lane kernel waits per lane,
// each on its own lane's copy.
// CHECK-LABEL: hcq.schedule @lanes
// CHECK-DAG: %[[S0:.*]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[S1:.*]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-DAG: %[[SENT:.*]] = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[TL:.*]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK: hcq.submit on [AMD:0, AMD:1] queue COPY:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}} : !hcq.buffer<1xi64, [AMD:0, AMD:1]>] - 1
// CHECK-NEXT:   hcq.wait %[[SENT]], %[[TL]] >= [%{{.*}} : !hcq.buffer<1xi64, AMD:0>] - 1
// CHECK-NEXT:   hcq.copy %{{.*}}[0, 64], %{{.*}}[0, 64] : !hcq.buffer<16xf32, [AMD:0, AMD:1]>, !hcq.buffer<16xf32, AMD:0>
// CHECK: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}} : !hcq.buffer<1xi64, [AMD:0, AMD:1]>] - 1
// CHECK-NEXT:   hcq.wait %[[S0]], %[[S1]] >= 1 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT:   hcq.launch @read
hcq.schedule @lanes(%a: !hcq.buffer<16xf32, AMD:0>, %m: !hcq.buffer<16xf32, [AMD:0, AMD:1]>) {
  hcq.copy %m[0, 64], %a[0, 64] : !hcq.buffer<16xf32, [AMD:0, AMD:1]>, !hcq.buffer<16xf32, AMD:0>
  hcq.launch @read(%m : !hcq.buffer<16xf32, [AMD:0, AMD:1]>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that a call runs a lane per lane of its widest buffers, so that it
// touches every lane of each: this launch runs on [CPU:0, CPU:1], not on
// AMD:0, which a non-CPU device would otherwise win with one lane, leaving
// lane 1 of %m unread.
// CHECK-LABEL: hcq.schedule @widest
// CHECK: hcq.submit on [CPU:0, CPU:1] queue COMPUTE:0 {
// CHECK: hcq.launch @read2
hcq.schedule @widest(%a: !hcq.buffer<16xf32, AMD:0>, %m: !hcq.buffer<16xf32, [CPU:0, CPU:1]>) {
  hcq.launch @read2(%a, %m : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, [CPU:0, CPU:1]>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that each lane waits on its own producer: lane 0 on AMD:0's copy
// queue, lane 1 on AMD:1's, in one wait.
// CHECK-LABEL: hcq.schedule @two_producers
// CHECK-DAG: %[[S0:.*]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[S1:.*]] = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK: hcq.wait %[[S0]], %[[S1]] >= 1 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:1>
// CHECK-NEXT: hcq.launch @read
hcq.schedule @two_producers(%a: !hcq.buffer<16xf32, [AMD:0, AMD:1]>, %m: !hcq.buffer<16xf32, [AMD:0, AMD:1]>) {
  hcq.copy %m[0, 64], %a[0, 64] : !hcq.buffer<16xf32, [AMD:0, AMD:1]>, !hcq.buffer<16xf32, [AMD:0, AMD:1]>
  hcq.launch @read(%m : !hcq.buffer<16xf32, [AMD:0, AMD:1]>) global [1, 1, 1] local [1, 1, 1]
}

// Tests one fence, reset and finalizer per device group, in the order fences,
// resets, submits, finalizers; multi-queue work with CPU keeps schedule order
// (no merging); the CPU finalizer has nothing left to wait for.
// CHECK-LABEL: hcq.schedule @groups
// CHECK: hcq.fence %{{.*}} reaches %{{.*}} : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.fence %{{.*}} reaches %{{.*}} : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.reset %{{.*}}, %{{.*}} : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.reset %{{.*}} : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK: hcq.finalize %{{.*}}, %{{.*}} : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NEXT:   hcq.store
// CHECK-NEXT: }
// CHECK-NEXT: hcq.finalize %{{.*}}, %{{.*}} : !hcq.buffer<1xi64, CPU:0>, !hcq.buffer<1xi64, CPU:0>
hcq.schedule @groups(%a: !hcq.buffer<16xf32, AMD:0>, %h: !hcq.buffer<16xf32, CPU:0>) {
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %h[0, 64], %a[0, 64] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, AMD:0>
  hcq.launch @write(%h : !hcq.buffer<16xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that a host call and a copy to a device without queues end the batch
// and stay in place, between the batches around them; a copy from the CPU to
// AMD is enqueued on AMD.
// CHECK-LABEL: hcq.schedule @boundaries
// CHECK: hcq.launch @write
// CHECK: hcq.finalize
// CHECK-NEXT: hcq.host_call "log"()
// CHECK-NEXT: hcq.copy %{{.*}}[0, 64], %{{.*}}[0, 64] : !hcq.buffer<16xf32, DISK:0>, !hcq.buffer<16xf32, CPU:0>
// CHECK-NEXT: hcq.fence
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK: hcq.copy %{{.*}}[0, 64], %{{.*}}[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, CPU:0>
// CHECK: hcq.finalize %{{.*}} : !hcq.buffer<1xi64, AMD:0>
// CHECK-NEXT: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK: hcq.finalize %{{.*}} : !hcq.buffer<1xi64, CPU:0>
// CHECK-NEXT: }
hcq.schedule @boundaries(%a: !hcq.buffer<16xf32, AMD:0>, %h: !hcq.buffer<16xf32, CPU:0>, %d: !hcq.buffer<16xf32, DISK:0>) {
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.host_call "log"()
  hcq.copy %d[0, 64], %h[0, 64] : !hcq.buffer<16xf32, DISK:0>, !hcq.buffer<16xf32, CPU:0>
  hcq.copy %a[0, 64], %h[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, CPU:0>
}

// Tests that a kernel goes on the first non-CPU device of its buffers, even
// when a CPU buffer comes first, and a kernel on CPU buffers only on CPU.
// CHECK-LABEL: hcq.schedule @kernel_device
// CHECK: hcq.submit on AMD:1 queue COMPUTE:0 {
// CHECK: hcq.launch @read2(%{{.*}}, %{{.*}} : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, AMD:1>)
// CHECK: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK: hcq.launch @read2(%{{.*}}, %{{.*}} : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>)
hcq.schedule @kernel_device(%h: !hcq.buffer<16xf32, CPU:0>, %a: !hcq.buffer<16xf32, AMD:1>) {
  hcq.launch @read2(%h, %a : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, AMD:1>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @read2(%h, %h : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests merging: same-queue submits merge in order, and a first submit on a
// queue closes the open groups on that queue that share a device: the
// two-lane kernel closes AMD:0's group, and the last kernel the two-lane one.
// CHECK-LABEL: hcq.schedule @merge
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK:   hcq.launch @write(%[[A:[^ ]*]] :
// CHECK-NEXT:   hcq.launch @read(%[[A]] :
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// CHECK:   hcq.launch @read(%[[M:[^ ]*]] :
// CHECK-NEXT: }
// CHECK-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-NEXT:   hcq.launch @write(%[[A]] :
// CHECK-NEXT: }
// SPLIT-LABEL: hcq.schedule @merge
// SPLIT: hcq.submit on AMD:0 queue COMPUTE:0 {
// SPLIT-NEXT:   hcq.barrier
// SPLIT-NEXT:   hcq.wait
// SPLIT-NEXT:   hcq.launch @write
// SPLIT-NEXT: }
// SPLIT-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// SPLIT-NEXT:   hcq.launch @read
// SPLIT-NEXT: }
hcq.schedule @merge(%a: !hcq.buffer<16xf32, AMD:0>, %m: !hcq.buffer<16xf32, [AMD:0, AMD:1]>) {
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @read(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @read(%m : !hcq.buffer<16xf32, [AMD:0, AMD:1]>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that with profiling each call is bracketed by timestamps of its own,
// and an hcq.profile after the batch names each pair after its call (the
// kernel, and its rank among the schedule's calls of it: write#0) and queue.
// PROFILE-LABEL: hcq.schedule @profiled
// PROFILE-DAG: %[[T0:.*]] = hcq.placeholder timestamp slot [[S0:[0-9]+]] volatile : !hcq.buffer<1xi64, AMD:0>
// PROFILE-DAG: %[[T1:.*]] = hcq.placeholder timestamp slot [[S1:[0-9]+]] volatile : !hcq.buffer<1xi64, AMD:0>
// PROFILE: hcq.timestamp %[[T0]]
// PROFILE-NEXT: hcq.launch @write
// PROFILE-NEXT: hcq.timestamp %[[T1]]
// PROFILE: hcq.timestamp %[[T2:[^ ]*]]
// PROFILE-NEXT: hcq.launch @read
// PROFILE-NEXT: hcq.timestamp %[[T3:[^ ]*]]
// PROFILE: hcq.finalize
// PROFILE-NEXT: hcq.profile "write#0" %[[T0]], %[[T1]] queue COMPUTE:0 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
// PROFILE-NEXT: hcq.profile "read#0" %[[T2]], %[[T3]] queue COMPUTE:0
// PROFILE-NEXT: }
// CHECK-LABEL: hcq.schedule @profiled
// CHECK-NOT: hcq.timestamp
// CHECK: hcq.finalize
// CHECK-NOT: hcq.profile
// CHECK: }
hcq.schedule @profiled(%a: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @write(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @read(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
}

// -----

hcq.kernel @noop cpu (read f32) symbol "noop" library "libk.so"

// Tests the batch-size limit: it doubles each time it is hit, so seven
// same-queue submits with batch-size=2 merge into groups of 2, 4 and 1.
// SPLIT-LABEL: hcq.schedule @limit
// RUN: hcq-opt %s -split-input-file --hcq-batch-deps="batch-size=2" | FileCheck %s --check-prefix=LIMIT
// LIMIT-LABEL: hcq.schedule @limit
// LIMIT: hcq.submit on AMD:0 queue COMPUTE:0 {
// LIMIT-NEXT:   hcq.barrier
// LIMIT-NEXT:   hcq.wait
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [1, 1, 1]
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [2, 1, 1]
// LIMIT-NEXT: }
// LIMIT-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [3, 1, 1]
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [4, 1, 1]
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [5, 1, 1]
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [6, 1, 1]
// LIMIT-NEXT: }
// LIMIT-NEXT: hcq.submit on AMD:0 queue COMPUTE:0 {
// LIMIT-NEXT:   hcq.launch @noop(%{{.*}}) global [7, 1, 1]
// LIMIT-NEXT: }
// CHECK-LABEL: hcq.schedule @limit
// CHECK: hcq.submit on AMD:0 queue COMPUTE:0 {
// CHECK-COUNT-7: hcq.launch @noop
// CHECK-NEXT: }
hcq.schedule @limit(%a: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [2, 1, 1] local [1, 1, 1]
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [3, 1, 1] local [1, 1, 1]
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [4, 1, 1] local [1, 1, 1]
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [5, 1, 1] local [1, 1, 1]
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [6, 1, 1] local [1, 1, 1]
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [7, 1, 1] local [1, 1, 1]
}

// Tests that CPU work on two queues keeps the schedule order: compute, copy,
// compute stay three submits in that order.
// CHECK-LABEL: hcq.schedule @cpu_order
// CHECK: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK: hcq.submit on CPU:0 queue COPY:0 {
// CHECK: hcq.submit on CPU:0 queue COMPUTE:0 {
// CHECK-NOT: hcq.barrier
// CHECK: hcq.launch @noop(%{{.*}}) global [3, 1, 1]
hcq.schedule @cpu_order(%a: !hcq.buffer<16xf32, CPU:0>, %b: !hcq.buffer<16xf32, CPU:0>) {
  hcq.launch @noop(%a : !hcq.buffer<16xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %b[0, 64], %a[0, 64] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>
  hcq.launch @noop(%a : !hcq.buffer<16xf32, CPU:0>) global [3, 1, 1] local [1, 1, 1]
}

// Tests that with `devices=CPU` an AMD kernel is not enqueueable and stays.
// RUN: hcq-opt %s -split-input-file --hcq-batch-deps="devices=CPU" | FileCheck %s --check-prefix=CPUONLY
// CPUONLY-LABEL: hcq.schedule @cpu_only
// CPUONLY-NEXT: hcq.launch @noop(%{{.*}} : !hcq.buffer<16xf32, AMD:0>)
// CPUONLY-NEXT: }
hcq.schedule @cpu_only(%a: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @noop(%a : !hcq.buffer<16xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
}

// Tests that a queue touching another device's memory waits, the first time
// in the batch, for that device's timeline too (and only the first time):
// the copies on AMD:0 write AMD:1's memory, which another executable may be
// reading on AMD:1; only AMD:1's timeline orders after that. The second
// copy on the same queue to the same device needs no second wait.
// CHECK-LABEL: hcq.schedule @foreign
// CHECK-DAG: %[[TL0:.*]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[TLV0:.*]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK-DAG: %[[TL1:.*]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK-DAG: %[[TLV1:.*]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:1>
// CHECK: hcq.submit on AMD:0 queue COPY:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %[[TL0]] >= [%[[TLV0]] : !hcq.buffer<1xi64, AMD:0>] - 1
// CHECK-NEXT:   hcq.wait %[[TL1]] >= [%[[TLV1]] : !hcq.buffer<1xi64, AMD:1>] - 1
// CHECK-NEXT:   hcq.copy
// CHECK-NOT:    hcq.wait %[[TL1]]
// CHECK:        hcq.copy
// CHECK-NOT:    hcq.wait %[[TL1]]
// CHECK:      hcq.finalize
hcq.schedule @foreign(%a: !hcq.buffer<16xf32, AMD:0>, %b: !hcq.buffer<16xf32, AMD:1>, %c: !hcq.buffer<16xf32, AMD:1>) {
  hcq.copy %b[0, 64], %a[0, 64] : !hcq.buffer<16xf32, AMD:1>, !hcq.buffer<16xf32, AMD:0>
  hcq.copy %c[0, 64], %a[0, 64] : !hcq.buffer<16xf32, AMD:1>, !hcq.buffer<16xf32, AMD:0>
}

// Tests that in a multi-device call only the lanes touching another
// device's memory wait for its timeline; the others wait on their sentinel:
// lane 1 reads y's AMD:2 lane, lane 0 its own AMD:0 lane.
// CHECK-LABEL: hcq.schedule @foreign_lane
// CHECK-DAG: %[[TL2:.*]] = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:2>
// CHECK-DAG: %[[TLV2:.*]] = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:2>
// CHECK-DAG: %[[SEN0:.*]] = hcq.placeholder sentinel_signal device volatile : !hcq.buffer<1xi64, AMD:0>
// CHECK: hcq.submit on [AMD:0, AMD:1] queue COMPUTE:0 {
// CHECK-NEXT:   hcq.barrier
// CHECK-NEXT:   hcq.wait %{{.*}} >= [%{{.*}} : !hcq.buffer<1xi64, [AMD:0, AMD:1]>] - 1
// CHECK-NEXT:   hcq.wait %[[SEN0]], %[[TL2]] >= [%[[TLV2]] : !hcq.buffer<1xi64, AMD:2>] - 1
// CHECK-NEXT:   hcq.launch @read_two
hcq.kernel @read_two cpu (read f32, read f32) symbol "r2" library "libk.so"
hcq.schedule @foreign_lane(%x: !hcq.buffer<16xf32, [AMD:0, AMD:1]>, %y: !hcq.buffer<16xf32, [AMD:0, AMD:2]>) {
  hcq.launch @read_two(%x, %y : !hcq.buffer<16xf32, [AMD:0, AMD:1]>, !hcq.buffer<16xf32, [AMD:0, AMD:2]>) global [1, 1, 1] local [1, 1, 1]
}

// -----

// Tests that each schedule argument records how the schedule uses it: from
// the kernels' signatures, a copy's source (read) and destination (write),
// a host call's buffers (either), and nothing for an argument no call
// touches or a variable; through views to their base.
// CHECK-LABEL: hcq.schedule @access(
// CHECK-SAME: %in: !hcq.buffer<64xf32, CPU:0> {hcq.access = "read"}, %out: !hcq.buffer<64xf32, CPU:0> {hcq.access = "write"}, %both: !hcq.buffer<64xf32, CPU:0> {hcq.access = "readwrite"}, %copied: !hcq.buffer<64xf32, CPU:0> {hcq.access = "write"}, %host: !hcq.buffer<4xf32, CPU:0> {hcq.access = "readwrite"}, %unused: !hcq.buffer<4xf32, CPU:0>, %n: i32) {
hcq.kernel @copy_k cpu (write f32, read f32) symbol "c" library "libk.so"
hcq.kernel @scale_k cpu (readwrite f32) vars 1 symbol "s" library "libk.so"
hcq.schedule @access(%in: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %both: !hcq.buffer<64xf32, CPU:0>, %copied: !hcq.buffer<64xf32, CPU:0>, %host: !hcq.buffer<4xf32, CPU:0>, %unused: !hcq.buffer<4xf32, CPU:0>, %n: i32) {
  %v = hcq.view %out[32] : !hcq.buffer<64xf32, CPU:0> -> !hcq.buffer<32xf32, CPU:0>
  hcq.launch @copy_k(%v, %in : !hcq.buffer<32xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @scale_k(%both : !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [64, 1, 1] local [1, 1, 1]
  hcq.copy %copied[0, 256], %both[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
  hcq.host_call "inspect"(%host : !hcq.buffer<4xf32, CPU:0>)
}
