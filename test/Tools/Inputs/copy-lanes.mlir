// Copies between device sets, one schedule each, for
// test/Tools/copy-lanes.mlir: lane i into lane i with as many lanes on both
// sides, one lane into every lane (a broadcast), on CPU and AMD devices and
// through staging (a DISK device is outside the HCQ devices).

// Lane i into lane i, the destination's devices in the other order.
hcq.schedule @cpu_lanes(%src: !hcq.buffer<4xf32, [CPU:0, CPU:1]>, %dst: !hcq.buffer<4xf32, [CPU:1, CPU:0]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [CPU:1, CPU:0]>, !hcq.buffer<4xf32, [CPU:0, CPU:1]>
}

// One lane into two, from the second device.
hcq.schedule @cpu_broadcast(%src: !hcq.buffer<4xf32, CPU:1>, %dst: !hcq.buffer<4xf32, [CPU:0, CPU:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, CPU:1>
}

hcq.schedule @amd_lanes(%src: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %dst: !hcq.buffer<4xf32, [AMD:1, AMD:0]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [AMD:1, AMD:0]>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>
}

hcq.schedule @amd_broadcast(%src: !hcq.buffer<4xf32, AMD:1>, %dst: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, AMD:1>
}

hcq.schedule @cpu_to_amd_lanes(%src: !hcq.buffer<4xf32, [CPU:0, CPU:1]>, %dst: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, [CPU:0, CPU:1]>
}

hcq.schedule @amd_to_cpu_lanes(%src: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %dst: !hcq.buffer<4xf32, [CPU:0, CPU:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>
}

hcq.schedule @cpu_to_amd_broadcast(%src: !hcq.buffer<4xf32, CPU:0>, %dst: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, CPU:0>
}

hcq.schedule @amd_to_cpu_broadcast(%src: !hcq.buffer<4xf32, AMD:0>, %dst: !hcq.buffer<4xf32, [CPU:0, CPU:1]>) {
  hcq.copy %dst[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [CPU:0, CPU:1]>, !hcq.buffer<4xf32, AMD:0>
}

// Staged: each AMD lane through its own CPU staging lane to its DISK lane,
// and back.
hcq.schedule @staged_lanes(%src: !hcq.buffer<4xf32, [AMD:0, AMD:1]>, %disk: !hcq.buffer<4xf32, [DISK:0, DISK:1]>, %dst: !hcq.buffer<4xf32, [AMD:1, AMD:0]>) {
  hcq.copy %disk[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [DISK:0, DISK:1]>, !hcq.buffer<4xf32, [AMD:0, AMD:1]>
  hcq.copy %dst[0, 16], %disk[0, 16] : !hcq.buffer<4xf32, [AMD:1, AMD:0]>, !hcq.buffer<4xf32, [DISK:0, DISK:1]>
}

// Staged broadcasts: AMD:1 into both DISK lanes, DISK:0 into both AMD lanes.
hcq.schedule @staged_broadcast(%src: !hcq.buffer<4xf32, AMD:1>, %disk: !hcq.buffer<4xf32, [DISK:0, DISK:1]>, %from: !hcq.buffer<4xf32, DISK:0>, %dst: !hcq.buffer<4xf32, [AMD:0, AMD:1]>) {
  hcq.copy %disk[0, 16], %src[0, 16] : !hcq.buffer<4xf32, [DISK:0, DISK:1]>, !hcq.buffer<4xf32, AMD:1>
  hcq.copy %dst[0, 16], %from[0, 16] : !hcq.buffer<4xf32, [AMD:0, AMD:1]>, !hcq.buffer<4xf32, DISK:0>
}
