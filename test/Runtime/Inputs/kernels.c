// CPU kernels for the runtime tests, in the CPU kernel ABI
// (docs/cpu-queue.md): called once per workgroup (x, y, z) with one 64-bit
// word per argument. These use one workgroup per output element.
#include <stdint.h>

#define BUF(i, T) ((T *)(uintptr_t)args[i])

// c[x] = a[x] + b[x]
void hcq_vadd(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  BUF(0, float)[x] = BUF(1, float)[x] + BUF(2, float)[x];
}

// x[i] *= s, with s a bound variable
void hcq_scale(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  BUF(0, float)[x] *= (float)(int32_t)args[1];
}

// out[r * n + c] = sum_k a[r * k_dim + k] * b[k * n + c]; n = k_dim = 8
void hcq_matmul(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  float sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += BUF(1, float)[y * 8 + k] * BUF(2, float)[k * 8 + x];
  BUF(0, float)[y * 8 + x] = sum;
}

// out[0] = sum of in[0 .. n), n a bound variable; one workgroup
void hcq_reduce(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  float sum = 0;
  for (int64_t i = 0; i < (int32_t)args[2]; ++i)
    sum += BUF(1, float)[i];
  BUF(0, float)[0] = sum;
}

// A kernel that does nothing, for the replay benchmark.
void hcq_noop(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {}
