// CPU kernels for the runtime tests, in the CPU kernel ABI
// (docs/cpu-queue.md): called once per workgroup (x, y, z) with one 64-bit
// word per argument. These use one workgroup per output element.
#include <stdint.h>
#include <time.h>

#define BUF(i, T) ((T *)(uintptr_t)args[i])

// c[x] = a[x] + b[x]
void hcq_vadd(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  BUF(0, float)[x] = BUF(1, float)[x] + BUF(2, float)[x];
}

// x[i] *= s, with s a bound variable
void hcq_scale(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  BUF(0, float)[x] *= (float)(int32_t)args[1];
}

// x[i] *= s, with s an f32 bound variable: its bits in the word's low half.
void hcq_scalef(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  uint32_t bits = (uint32_t)args[1];
  float s;
  __builtin_memcpy(&s, &bits, 4);
  BUF(0, float)[x] *= s;
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

// A kernel that runs until the test stores 1 into hcq_spin_release: one
// that never returns, for the stuck-queue tests.
volatile int hcq_spin_release;
void hcq_spin(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  while (!__atomic_load_n(&hcq_spin_release, __ATOMIC_ACQUIRE))
    ;
}

// Like hcq_spin, then writes 1 into its buffer's first element and sets
// hcq_spin_then_write_done: a kernel that still writes its buffer after the
// test gave up waiting for it.
volatile int hcq_spin_then_write_release, hcq_spin_then_write_done;
void hcq_spin_then_write(const uint64_t *args, uint32_t x, uint32_t y,
                         uint32_t z) {
  while (!__atomic_load_n(&hcq_spin_then_write_release, __ATOMIC_ACQUIRE))
    ;
  BUF(0, float)[0] = 1;
  __atomic_store_n(&hcq_spin_then_write_done, 1, __ATOMIC_RELEASE);
}

// A kernel that does nothing, for the replay benchmark.
void hcq_noop(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {}

// Hand-written CPU twins of AMD kernels that have no gpu source: the
// OpenCL kernels of test/Target/Inputs/{kernels,hardware}.cl, which read
// AMD-only state (clang's __builtin_amdgcn_* ids, the dispatch packet, the
// hidden arguments, the GPU's clock) that no host object compiled from gpu
// IR could stand in for. Kernels written as gpu IR bring their twin in their
// host object (#hcq.host_target); hcq_twin_matmul is the hand-written
// baseline bench/host-kernels.cpp measures the generated code against. The
// emulated AMD device runs each for every work-item of one workgroup as
// the source does, reading the kernel arguments from the AMD kernarg segment
// (buffers 8 bytes, scalars 4, at their OpenCL offsets).
#include "HCQ/Runtime/Twin.h"

#define ARG(wg, offset, T)                                                     \
  (*(T const *)((const char *)(wg)->kernargs + (offset)))

// vadd(global float *c, global const float *a, global const float *b, int n)
void hcq_twin_vadd(const hcq_amd_workgroup *wg) {
  float *c = ARG(wg, 0, float *);
  const float *a = ARG(wg, 8, const float *), *b = ARG(wg, 16, const float *);
  int n = ARG(wg, 24, int);
  for (uint32_t t = 0; t < wg->local_size[0]; ++t) {
    int i = (int)(wg->group_id[0] * 64 + t);
    if (i < n)
      c[i] = a[i] + b[i];
  }
}

// scale(global float *x, float s): the workgroup size comes from the dispatch
// packet (hsa_kernel_dispatch_packet_t.workgroup_size_x, bytes 4-5).
void hcq_twin_scale(const hcq_amd_workgroup *wg) {
  float *x = ARG(wg, 0, float *);
  float s = ARG(wg, 8, float);
  const uint16_t *packet = (const uint16_t *)wg->dispatch_packet;
  for (uint32_t t = 0; t < wg->local_size[0]; ++t)
    x[wg->group_id[0] * packet[2] + t] *= s;
}

// reduce(global float *out, global const float *in): one workgroup sums
// in[0 .. local size) through LDS.
void hcq_twin_reduce(const hcq_amd_workgroup *wg) {
  float *out = ARG(wg, 0, float *);
  const float *in = ARG(wg, 8, const float *);
  float partial[1024] = {0};
  for (uint32_t t = 0; t < wg->local_size[0] && t < 1024; ++t)
    partial[t] = in[t];
  float sum = 0;
  for (int i = 0; i < 1024; ++i)
    sum += partial[i];
  out[0] = sum;
}

// The MLP's matmul (examples/gpu/mlp.mlir) as a hand-written twin, for
// bench/host-kernels.cpp alone: out = x @ w, row = workgroup y, column =
// work-item x; 64x64 weights.
void hcq_twin_matmul(const hcq_amd_workgroup *wg) {
  float *out = ARG(wg, 0, float *);
  const float *x = ARG(wg, 8, const float *), *w = ARG(wg, 16, const float *);
  uint32_t r = wg->group_id[1];
  for (uint32_t c = 0; c < wg->local_size[0]; ++c) {
    float sum = 0;
    for (int k = 0; k < 64; ++k)
      sum += x[r * 64 + k] * w[k * 64 + c];
    out[r * 64 + c] = sum;
  }
}

// gather(global float *out, global const float *in)
// (test/Target/Inputs/hardware.cl): out[i] = in[in[i] mod 64].
void hcq_twin_gather(const hcq_amd_workgroup *wg) {
  float *out = ARG(wg, 0, float *);
  const float *in = ARG(wg, 8, const float *);
  for (uint32_t t = 0; t < wg->local_size[0]; ++t)
    out[t] = in[(int)in[t] & 63];
}

// shape(global uint *out) (test/Target/Inputs/hardware.cl): the hidden
// kernel arguments after the 8-byte pointer, as code object v5 lays them
// out: block counts (3 x u32), then group sizes (3 x u16).
void hcq_twin_shape(const hcq_amd_workgroup *wg) {
  if (wg->group_id[0] || wg->group_id[1] || wg->group_id[2])
    return;
  uint32_t *out = ARG(wg, 0, uint32_t *);
  for (int d = 0; d < 3; ++d) {
    out[d] = ARG(wg, 8 + 4 * d, uint32_t);
    out[3 + d] = ARG(wg, 20 + 2 * d, uint16_t);
  }
}

// pause(global ulong *out, uint us) (test/Target/Inputs/hardware.cl): sleeps
// `us` microseconds, then writes the ticks of a 100 MHz clock that passed.
void hcq_twin_pause(const hcq_amd_workgroup *wg) {
  uint32_t us = ARG(wg, 8, uint32_t);
  struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0)
    ;
  if (wg->group_id[0] == 0)
    *ARG(wg, 0, uint64_t *) = (uint64_t)us * 100;
}
