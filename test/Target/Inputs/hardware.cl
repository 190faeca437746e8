// Kernels for the hardware path's checks (test/KFDSim/hardware.mlir,
// test/Transforms/encode-amd-invalid.mlir); apart from kernels.cl so that
// file's code objects, and the goldens made from them, stay as they are.

// Scratch (private memory): an array indexed by data cannot live in
// registers. out[i] = in[in[i] mod 64], one workgroup of 64.
kernel void gather(global float *out, global const float *in) {
  volatile float tmp[64];
  int i = __builtin_amdgcn_workitem_id_x();
  for (int k = 0; k < 64; ++k)
    tmp[k] = in[k];
  out[i] = tmp[(int)in[i] & 63];
}

// Writes its launch's shape as the hidden kernel arguments give it: the
// workgroup counts (hidden_block_count_*, read through the implicit argument
// pointer) and sizes (hidden_group_size_*, what
// __builtin_amdgcn_workgroup_size_* reads in code object v5).
kernel void shape(global uint *out) {
  const constant uint *implicit =
      (const constant uint *)__builtin_amdgcn_implicitarg_ptr();
  if (__builtin_amdgcn_workitem_id_x() == 0 &&
      __builtin_amdgcn_workgroup_id_x() == 0 &&
      __builtin_amdgcn_workgroup_id_y() == 0 &&
      __builtin_amdgcn_workgroup_id_z() == 0) {
    out[0] = implicit[0];
    out[1] = implicit[1];
    out[2] = implicit[2];
    out[3] = __builtin_amdgcn_workgroup_size_x();
    out[4] = __builtin_amdgcn_workgroup_size_y();
    out[5] = __builtin_amdgcn_workgroup_size_z();
  }
}

// Reads the queue pointer, a hidden argument hcq does not provide.
kernel void queue(global ulong *out) {
  *out = (ulong)__builtin_amdgcn_queue_ptr();
}

// Reads implicit argument byte 88, which code object v5 gives the multigrid
// sync argument: a hidden argument hcq does not provide.
kernel void hostcall(global ulong *out) {
  const constant ulong *implicit =
      (const constant ulong *)__builtin_amdgcn_implicitarg_ptr();
  *out = implicit[11];
}

// Runs for `us` microseconds of the GPU's constant 100 MHz clock, then
// writes how many ticks passed: work the host has to wait for
// (unittests/HardwareTest.cpp: host waits sleep on the GPU's interrupt).
kernel void pause(global ulong *out, uint us) {
  ulong start = __builtin_readsteadycounter(), now;
  do
    now = __builtin_readsteadycounter();
  while (now - start < (ulong)us * 100);
  if (__builtin_amdgcn_workitem_id_x() == 0 &&
      __builtin_amdgcn_workgroup_id_x() == 0)
    *out = now - start;
}
