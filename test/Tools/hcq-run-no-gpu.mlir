// hcq-run --amd=hardware on a machine without an AMD GPU driver (no
// /dev/kfd, as on every machine CI runs on) fails at once, saying why;
// test/KFDSim runs the same device against the simulated driver.
// REQUIRES: no-kfd
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | hcq-translate --hcq-to-executable -o %t/mlp.hcqx

// Tests that opening AMD:0 names /dev/kfd and what it needs.
// RUN: not hcq-run %t/mlp.hcqx --amd=hardware --arg f32:256:arange --arg f32:4096:fill=1 --arg f32:4096:fill=1 --arg f32:256:fill=0 2>&1 | FileCheck %s
// CHECK: error: AMD:0: cannot open /dev/kfd: No such file or directory (no AMD GPU driver here; --amd=hardware needs the amdgpu kernel driver and read-write access to /dev/kfd, usually membership of the render group)
