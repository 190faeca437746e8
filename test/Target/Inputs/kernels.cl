// Kernels for the AMD encoder tests, compiled to real AMDHSA code objects by
// clang-22 and ld.lld-22 at build time (test/CMakeLists.txt). No device
// library is needed: ids come from clang builtins.

// A vector add: kernel arguments through the kernarg segment only.
kernel void vadd(global float *c, global const float *a, global const float *b,
                 int n) {
  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  if (i < n)
    c[i] = a[i] + b[i];
}

// Reads its workgroup size from the dispatch packet, so its descriptor asks
// for the dispatch pointer.
kernel void scale(global float *x, float s) {
  const constant unsigned short *packet =
      (const constant unsigned short *)__builtin_amdgcn_dispatch_ptr();
  int i = __builtin_amdgcn_workgroup_id_x() * packet[2] +
          __builtin_amdgcn_workitem_id_x();
  x[i] *= s;
}

// Uses 4 KiB of LDS, in workgroups of 1024 (more than the default maximum
// of 256, so it says so).
__attribute__((amdgpu_flat_work_group_size(1, 1024)))
kernel void reduce(global float *out, global const float *in) {
  local float partial[1024];
  int t = __builtin_amdgcn_workitem_id_x();
  partial[t] = in[t];
  __builtin_amdgcn_s_barrier();
  if (t == 0) {
    float sum = 0;
    for (int i = 0; i < 1024; ++i)
      sum += partial[i];
    out[0] = sum;
  }
}
