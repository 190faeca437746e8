// The kernels of examples/mlp.mlir. scripts/make-example.sh compiles them to
// an AMDHSA code object with Debian's clang-22 and ld.lld-22 and embeds it.

// out[r][c] = sum_k x[r][k] * w[k][c] for 64x64 weights; one workgroup of 64
// threads per row.
kernel void matmul(global float *out, global const float *x,
                   global const float *w) {
  int r = __builtin_amdgcn_workgroup_id_y();
  int c = __builtin_amdgcn_workitem_id_x();
  float sum = 0;
  for (int k = 0; k < 64; ++k)
    sum += x[r * 64 + k] * w[k * 64 + c];
  out[r * 64 + c] = sum;
}

kernel void relu(global float *x) {
  int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  x[i] = x[i] > 0 ? x[i] : 0;
}
