// hcq.copy between device sets, end to end (docs/ir.md): every schedule of
// Inputs/copy-lanes.mlir compiled and run by hcq-run on CPU devices and the
// emulated AMD device, with copy queues (the default), and without them on
// the CPU (copy-queues=AMD), on AMD (copy-queues=CPU) or anywhere
// (copy-queues=), so that each copy runs on a copy queue, as the builtin
// copy kernel or through staging. Every lane of each output is checked:
// --input and --expected_output give each lane its own elements (lane 0's,
// then lane 1's), so a lane copied into the wrong lane, or not at all, fails.
// DEFINE: %{run} = hcq-run %S/Inputs/copy-lanes.mlir --amd=emulated --print 0

// Tests lane i into lane i: a source on [CPU:0, CPU:1] into [CPU:1, CPU:0]
// (lane 0, on CPU:1, gets CPU:0's bytes), on AMD, and between CPU and AMD
// both ways.
// RUN: %{run} --schedule=cpu_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=cpu_lanes --pipeline-options=copy-queues=AMD --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=amd_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=amd_lanes --pipeline-options=copy-queues=CPU --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=cpu_to_amd_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=cpu_to_amd_lanes --pipeline-options=copy-queues= --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=amd_to_cpu_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=amd_to_cpu_lanes --pipeline-options=copy-queues= --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8

// Tests one lane into two (a broadcast): every destination lane gets the
// source, from a copy queue (which used to write lane 0 only) and as a
// kernel copy, from CPU:1 into [CPU:0, CPU:1], AMD:1 into [AMD:0, AMD:1],
// CPU into AMD and AMD into CPU.
// RUN: %{run} --schedule=cpu_broadcast --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=cpu_broadcast --pipeline-options=copy-queues=AMD --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=amd_broadcast --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=amd_broadcast --pipeline-options=copy-queues=CPU --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=cpu_to_amd_broadcast --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=cpu_to_amd_broadcast --pipeline-options=copy-queues=CPU --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=amd_to_cpu_broadcast --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=amd_to_cpu_broadcast --pipeline-options=copy-queues=AMD --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4
// RUN: %{run} --schedule=amd_to_cpu_broadcast --pipeline-options=copy-queues= --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4

// Tests staging (DISK is outside the HCQ devices): [AMD:0, AMD:1] through
// two staging lanes into [DISK:0, DISK:1] and back into [AMD:1, AMD:0], each
// lane its own; AMD:1 into both DISK lanes and DISK:0 into both AMD lanes
// through CPU:0; with and without AMD copy queues.
// RUN: %{run} --schedule=staged_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=staged_lanes --pipeline-options=copy-queues=CPU --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,8 --expected_output=2x4xf32=1,2,3,4,5,6,7,8
// RUN: %{run} --schedule=staged_broadcast --input=4xf32=1,2,3,4 --input=4xf32=0 --input=4xf32=5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4 --expected_output=2x4xf32=5,6,7,8,5,6,7,8
// RUN: %{run} --schedule=staged_broadcast --pipeline-options=copy-queues=CPU --input=4xf32=1,2,3,4 --input=4xf32=0 --input=4xf32=5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,1,2,3,4 --expected_output=2x4xf32=5,6,7,8,5,6,7,8

// Tests that a lane's mismatch fails, naming the lane and its device, and
// that a value of neither one lane's nor every lane's elements is refused
// before anything runs, saying what each takes.
// RUN: not %{run} --schedule=cpu_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --expected_output=2x4xf32=1,2,3,4,5,6,7,9 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: output 0 (%dst: buffer 4xf32, written) lane 1 (CPU:0) is not as expected: element 3 is 8, expected 9
// RUN: not %{run} --schedule=cpu_lanes --input=3x4xf32=0 --input=4xf32=0 2>&1 | FileCheck %s --check-prefix=INCOUNT
// INCOUNT: error: argument 0 (%src: buffer 4xf32, read): --input '3x4xf32=0' has 12 elements, the argument 4 (or 8, 4 for each of its 2 lanes)
// RUN: not %{run} --schedule=cpu_lanes --input=4xf32=0 --input=4xf32=0 --expected_output=3x4xf32=0 2>&1 | FileCheck %s --check-prefix=OUTCOUNT
// OUTCOUNT: error: --expected_output '3x4xf32=0' for output 0 (argument 1, %dst: buffer 4xf32, written) has 12 elements, the output 4 on 2 lanes (give one, for every element, all, or all of every lane: 8)

// Tests that --output writes each lane's own bytes, lane after lane.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %{run} --schedule=cpu_lanes --input=2x4xf32=1,2,3,4,5,6,7,8 --input=4xf32=0 --output=@%t/dst.npy
// RUN: %python -c "import struct,sys; d=open(sys.argv[1],'rb').read(); print(struct.unpack('<8f', d[-32:]))" %t/dst.npy | FileCheck %s --check-prefix=NPY
// NPY: (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)

// Tests that the verifier refuses several lanes into one and unequal lane
// counts, naming both device tuples, before anything runs.
// RUN: not hcq-run %S/Inputs/copy-lanes-invalid.mlir 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: error: 'hcq.copy' op copies 4 lanes of [CPU:0, CPU:1, CPU:2, CPU:3] into 1 lane of [CPU:0]: which lane lands is ambiguous
