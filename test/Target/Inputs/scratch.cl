// A kernel with scratch (private memory): an array indexed by data cannot
// live in registers. For the hardware path's scratch checks
// (test/KFDSim/hardware.mlir); apart from kernels.cl so that file's code
// objects, and the goldens made from them, stay as they are.
// out[i] = in[in[i] mod 64], one workgroup of 64.
kernel void gather(global float *out, global const float *in) {
  volatile float tmp[64];
  int i = __builtin_amdgcn_workitem_id_x();
  for (int k = 0; k < 64; ++k)
    tmp[k] = in[k];
  out[i] = tmp[(int)in[i] & 63];
}
