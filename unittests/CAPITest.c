/*===- CAPITest.c - The runtime's C API, from C -----------------*- C -*-===*\
|*                                                                            *|
|* Compiled as C. Drives the bundled CPU example (examples/cpu-chain.mlir,  *|
|* compiled to an executable file by CTest first) through the C API:        *|
|*   argv[1]  the executable file (chain.hcqx)                              *|
|*   argv[2]  the folder of libhcqtestkernels.so (not on LD_LIBRARY_PATH:   *|
|*            the runtime finds it through its library search path)         *|
|* and compares every result with the same kernels called directly.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "hcq-c/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: expected %s: ", __FILE__, __LINE__, #cond);      \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* Stops the test on a failed call, printing the status's message. */
#define CHECK_OK(call)                                                         \
  do {                                                                         \
    hcq_status_t s_ = (call);                                                  \
    if (s_) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              hcq_status_message(s_));                                         \
      hcq_status_free(s_);                                                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* The example's arguments: a, b (64 floats), sum (1 float), s, n. */
static hcq_argument_t buffer(void *const *lane) {
  hcq_argument_t a = {lane, 1, 0};
  return a;
}
static hcq_argument_t variable(int64_t value) {
  hcq_argument_t a = {NULL, 0, value};
  return a;
}

typedef void (*kernel_t)(const uint64_t *, uint32_t, uint32_t, uint32_t);

/* sum((a + b) * s) with the library's kernels called directly. */
static float direct(void *library, const float *a, const float *b, int32_t s,
                    int32_t n) {
  kernel_t vadd = (kernel_t)dlsym(library, "hcq_vadd");
  kernel_t scale = (kernel_t)dlsym(library, "hcq_scale");
  kernel_t reduce = (kernel_t)dlsym(library, "hcq_reduce");
  if (!vadd || !scale || !reduce) {
    fprintf(stderr, "the kernel library lacks a kernel\n");
    exit(1);
  }
  float c[64], sum = 0;
  uint64_t vaddArgs[3] = {(uint64_t)(uintptr_t)c, (uint64_t)(uintptr_t)a,
                          (uint64_t)(uintptr_t)b};
  uint64_t scaleArgs[2] = {(uint64_t)(uintptr_t)c, (uint64_t)(uint32_t)s};
  uint64_t reduceArgs[3] = {(uint64_t)(uintptr_t)&sum, (uint64_t)(uintptr_t)c,
                            (uint64_t)(uint32_t)n};
  for (uint32_t x = 0; x < 64; ++x)
    vadd(vaddArgs, x, 0, 0);
  for (uint32_t x = 0; x < 64; ++x)
    scale(scaleArgs, x, 0, 0);
  reduce(reduceArgs, 0, 0, 0);
  return sum;
}

/* In-process kernels standing in for the library's, counting their calls. */
static unsigned vaddCalls, scaleCalls, reduceCalls;
static void myVadd(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  (void)y, (void)z;
  ((float *)(uintptr_t)args[0])[x] =
      ((float *)(uintptr_t)args[1])[x] + ((float *)(uintptr_t)args[2])[x];
  ++vaddCalls;
}
static void myScale(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  (void)y, (void)z;
  ((float *)(uintptr_t)args[0])[x] *= (float)(int32_t)args[1];
  ++scaleCalls;
}
static void myReduce(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  (void)x, (void)y, (void)z;
  float sum = 0;
  for (int32_t i = 0; i < (int32_t)args[2]; ++i)
    sum += ((float *)(uintptr_t)args[1])[i];
  ((float *)(uintptr_t)args[0])[0] = sum;
  ++reduceCalls;
}

/* Runs the example `runs` times with fresh inputs each time, comparing each
 * result with `library`'s kernels called directly. */
static void runAndCompare(hcq_runtime_t runtime, hcq_executable_t exe,
                          void *library, int runs) {
  hcq_device_t cpu = {HCQ_DEVICE_CPU, 0};
  hcq_buffer_t a, b, sum;
  CHECK_OK(hcq_buffer_allocate(runtime, cpu, 64 * 4, &a));
  CHECK_OK(hcq_buffer_allocate(runtime, cpu, 64 * 4, &b));
  CHECK_OK(hcq_buffer_allocate(runtime, cpu, 4, &sum));
  EXPECT(hcq_buffer_size(a) == 256, "%llu bytes",
         (unsigned long long)hcq_buffer_size(a));
  float *av = hcq_buffer_host_view(a), *bv = hcq_buffer_host_view(b),
        *sumv = hcq_buffer_host_view(sum);
  void *aLane[1] = {av}, *bLane[1] = {bv}, *sumLane[1] = {sumv};
  for (int run = 0; run < runs; ++run) {
    for (int i = 0; i < 64; ++i) {
      av[i] = (float)((i * 7 + run) % 23) - 11;
      bv[i] = (float)((i * 3 + 2 * run) % 17) - 8;
    }
    int32_t s = run % 5 - 2;
    hcq_argument_t args[5] = {buffer(aLane), buffer(bLane), buffer(sumLane),
                              variable(s), variable(64)};
    CHECK_OK(hcq_executable_run(exe, args, 5));
    CHECK_OK(hcq_executable_synchronize(exe));
    float expected = direct(library, av, bv, s, 64);
    EXPECT(*sumv == expected, "run %d: %g, directly %g", run, *sumv, expected);
  }
  hcq_buffer_release(a);
  hcq_buffer_release(b);
  hcq_buffer_release(sum);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s chain.hcqx kernel-library-folder\n", argv[0]);
    return 2;
  }
  char libraryPath[4096];
  snprintf(libraryPath, sizeof(libraryPath), "%s/libhcqtestkernels.so",
           argv[2]);
  void *library = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  EXPECT(strlen(hcq_version()) > 0, "no version");

  /* The library found through the runtime's search path. */
  hcq_runtime_options_t options = hcq_runtime_options_create();
  CHECK_OK(hcq_runtime_options_add_library_path(options, "/nonexistent"));
  CHECK_OK(hcq_runtime_options_add_library_path(options, argv[2]));
  CHECK_OK(hcq_runtime_options_set_wait_timeout(options, 5000));
  hcq_runtime_t runtime;
  CHECK_OK(hcq_runtime_create(options, &runtime));
  hcq_executable_t exe;
  CHECK_OK(hcq_executable_load_file(runtime, argv[1], &exe));
  EXPECT(strcmp(hcq_executable_name(exe), "chain") == 0, "name %s",
         hcq_executable_name(exe));
  EXPECT(hcq_executable_argument_count(exe) == 5, "%zu arguments",
         hcq_executable_argument_count(exe));
  runAndCompare(runtime, exe, library, 20);
  /* Not compiled with profiling: no events. */
  EXPECT(hcq_executable_profile(exe) == 0, "profile events without profiling");

  /* Misuse is a status, never a crash. */
  hcq_status_t status = hcq_executable_run(exe, NULL, 0);
  EXPECT(hcq_status_code(status) == HCQ_STATUS_INVALID_ARGUMENT, "code %d: %s",
         hcq_status_code(status), hcq_status_message(status));
  EXPECT(strstr(hcq_status_message(status), "takes 5 arguments, given 0"), "%s",
         hcq_status_message(status));
  hcq_status_free(status);
  status = hcq_runtime_synchronize(NULL);
  EXPECT(hcq_status_code(status) == HCQ_STATUS_INVALID_ARGUMENT, "NULL");
  hcq_status_free(status);
  hcq_device_t bad = {(hcq_device_kind_t)7, 0};
  hcq_buffer_t unused;
  status = hcq_buffer_allocate(runtime, bad, 16, &unused);
  EXPECT(hcq_status_code(status) == HCQ_STATUS_INVALID_ARGUMENT,
         "device kind 7");
  hcq_status_free(status);
  static const char garbage[64] = "not an executable";
  hcq_executable_t notLoaded = NULL;
  status =
      hcq_executable_load_memory(runtime, garbage, sizeof(garbage), &notLoaded);
  EXPECT(hcq_status_code(status) == HCQ_STATUS_FAILED && !notLoaded,
         "garbage loaded");
  EXPECT(strstr(hcq_status_message(status), "magic") != NULL, "%s",
         hcq_status_message(status));
  hcq_status_free(status);
  status = hcq_executable_load_file(runtime, argv[2], &notLoaded);
  EXPECT(strstr(hcq_status_message(status), "not a regular file") != NULL, "%s",
         hcq_status_message(status));
  hcq_status_free(status);
  hcq_executable_release(exe);
  hcq_runtime_release(runtime);
  hcq_runtime_options_free(options);

  /* In-process kernels, registered by symbol: the library is not searched
   * (no search path here, nor LD_LIBRARY_PATH), and they are what runs. */
  options = hcq_runtime_options_create();
  CHECK_OK(
      hcq_runtime_options_register_cpu_kernel(options, "hcq_vadd", myVadd));
  CHECK_OK(
      hcq_runtime_options_register_cpu_kernel(options, "hcq_scale", myScale));
  CHECK_OK(
      hcq_runtime_options_register_cpu_kernel(options, "hcq_reduce", myReduce));
  CHECK_OK(hcq_runtime_create(options, &runtime));
  hcq_runtime_options_free(options); /* the runtime took a copy */
  CHECK_OK(hcq_executable_load_file(runtime, argv[1], &exe));
  runAndCompare(runtime, exe, library, 3);
  EXPECT(vaddCalls == 3 * 64 && scaleCalls == 3 * 64 && reduceCalls == 3,
         "calls: vadd %u, scale %u, reduce %u", vaddCalls, scaleCalls,
         reduceCalls);
  hcq_executable_release(exe);
  hcq_runtime_release(runtime);

  dlclose(library);
  if (failures)
    fprintf(stderr, "%d failures\n", failures);
  else
    printf("C API: all passed\n");
  return failures ? 1 : 0;
}
