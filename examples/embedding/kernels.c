// The example compiler's CPU kernels, in hcq's CPU kernel ABI
// (docs/cpu-queue.md): called once per workgroup with the kernel arguments
// as 64-bit words (buffer addresses, then bound variables) and the
// workgroup's coordinates.
#include <stdint.h>

// y[x] = a * x[x] + y[x], with a a bound variable (an integer).
void embed_axpy(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  float *out = (float *)args[0];
  const float *in = (const float *)args[1];
  out[x] += (float)(int32_t)args[2] * in[x];
}

// out[0] = the sum of in[0..n), n a bound variable.
void embed_sum(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  float *out = (float *)args[0];
  const float *in = (const float *)args[1];
  float sum = 0;
  for (int32_t i = 0; i < (int32_t)args[2]; ++i)
    sum += in[i];
  out[0] = sum;
}
