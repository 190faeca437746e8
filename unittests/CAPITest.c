/*===- CAPITest.c - The runtime's C API, from C -----------------*- C -*-===*\
|*                                                                            *|
|* Compiled as C. Drives the bundled CPU example (examples/cpu-chain.mlir,  *|
|* compiled to an executable file by CTest first) through the C API:        *|
|*   argv[1]  the executable file (chain.hcqx)                              *|
|*   argv[2]  the folder of libhcqtestkernels.so (not on LD_LIBRARY_PATH:   *|
|*            the runtime finds it through its library search path)         *|
|*   argv[3]  an executable of one host call (capi-host-call.mlir)          *|
|* and compares every result with the same kernels called directly. Then    *|
|* checks that misuse is a status of the right code, never a crash: bad     *|
|* files (a sparse 64 GiB one, truncated, padded), NULL lanes, numbers out  *|
|* of range, released and foreign handles, and an executable released by    *|
|* one thread while another runs it.                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "hcq-c/runtime.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Expects `status` to have code `code`, then frees it. */
#define EXPECT_CODE(call, code)                                                \
  do {                                                                         \
    hcq_status_t s_ = (call);                                                  \
    EXPECT(hcq_status_code(s_) == (code), "%s: code %u, not %s (%s)", #call,   \
           (unsigned)hcq_status_code(s_), #code, hcq_status_message(s_));      \
    hcq_status_free(s_);                                                       \
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
  CHECK_OK(hcq_buffer_release(a));
  CHECK_OK(hcq_buffer_release(b));
  CHECK_OK(hcq_buffer_release(sum));
}

/* Bounded file reads: a file is read as its header says, so a sparse
 * 64 GiB file, a truncated one and one with bytes after its payload are
 * INVALID_FILE before anything is allocated for them; a missing file is
 * UNAVAILABLE. */
static void testFiles(hcq_runtime_t runtime, const char *chain) {
  char path[4096];
  hcq_executable_t notLoaded = NULL;
  static const char garbage[64] = "not an executable";
  EXPECT_CODE(
      hcq_executable_load_memory(runtime, garbage, sizeof(garbage), &notLoaded),
      HCQ_STATUS_INVALID_FILE);
  EXPECT(!notLoaded, "garbage loaded");
  /* A folder is not a regular file. */
  snprintf(path, sizeof(path), "%s", chain);
  char *slash = strrchr(path, '/');
  if (slash)
    *slash = 0;
  EXPECT_CODE(hcq_executable_load_file(runtime, path, &notLoaded),
              HCQ_STATUS_INVALID_FILE);
  snprintf(path, sizeof(path), "%s.missing", chain);
  EXPECT_CODE(hcq_executable_load_file(runtime, path, &notLoaded),
              HCQ_STATUS_UNAVAILABLE);

  /* The real file's bytes. */
  FILE *in = fopen(chain, "rb");
  if (!in) {
    fprintf(stderr, "cannot open %s\n", chain);
    exit(1);
  }
  static unsigned char bytes[1 << 20];
  size_t size = fread(bytes, 1, sizeof(bytes), in);
  fclose(in);
  EXPECT(size > 100 && size < sizeof(bytes), "%zu bytes", size);

  /* A sparse 64 GiB file with the real header: refused by its size. */
  snprintf(path, sizeof(path), "%s.sparse", chain);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  EXPECT(fd >= 0, "cannot make %s", path);
  if (fd >= 0) {
    EXPECT(write(fd, bytes, 24) == 24, "cannot write %s", path);
    EXPECT(ftruncate(fd, (off_t)64 << 30) == 0, "cannot grow %s", path);
    close(fd);
    EXPECT_CODE(hcq_executable_load_file(runtime, path, &notLoaded),
                HCQ_STATUS_INVALID_FILE);
    /* Sparse and all zeros: not an executable either. */
    fd = open(path, O_WRONLY | O_TRUNC);
    EXPECT(fd >= 0 && ftruncate(fd, (off_t)64 << 30) == 0, "cannot grow %s",
           path);
    close(fd);
    EXPECT_CODE(hcq_executable_load_file(runtime, path, &notLoaded),
                HCQ_STATUS_INVALID_FILE);
    unlink(path);
  }
  /* Truncated, and with a byte after the payload. */
  snprintf(path, sizeof(path), "%s.cut", chain);
  for (int extra = -1; extra <= 1; extra += 2) {
    FILE *out = fopen(path, "wb");
    EXPECT(out && fwrite(bytes, 1, size + extra, out) == size + extra,
           "cannot write %s", path);
    if (out)
      fclose(out);
    EXPECT_CODE(hcq_executable_load_file(runtime, path, &notLoaded),
                HCQ_STATUS_INVALID_FILE);
    EXPECT_CODE(
        hcq_executable_load_memory(runtime, bytes, size + extra, &notLoaded),
        HCQ_STATUS_INVALID_FILE);
  }
  unlink(path);
  EXPECT(!notLoaded, "a bad file loaded");
}

/* Arguments of a run: a NULL lane, a lane count other than the
 * executable's and a variable with lanes are refused before it runs. */
static void testArguments(hcq_runtime_t runtime, hcq_executable_t exe) {
  hcq_device_t cpu = {HCQ_DEVICE_CPU, 0};
  hcq_buffer_t a;
  CHECK_OK(hcq_buffer_allocate(runtime, cpu, 64 * 4, &a));
  void *lane[1] = {hcq_buffer_host_view(a)};
  void *nullLane[1] = {NULL};
  void *twoLanes[2] = {lane[0], lane[0]};
  hcq_argument_t args[5] = {buffer(lane), buffer(lane), buffer(lane),
                            variable(1), variable(1)};
  args[2] = buffer(nullLane);
  EXPECT_CODE(hcq_executable_run(exe, args, 5), HCQ_STATUS_INVALID_ARGUMENT);
  args[2].lanes = NULL;
  EXPECT_CODE(hcq_executable_run(exe, args, 5), HCQ_STATUS_INVALID_ARGUMENT);
  args[2] = buffer(twoLanes);
  args[2].lane_count = 2;
  EXPECT_CODE(hcq_executable_run(exe, args, 5), HCQ_STATUS_INVALID_ARGUMENT);
  args[2] = buffer(lane);
  args[2].lane_count = (size_t)-1;
  EXPECT_CODE(hcq_executable_run(exe, args, 5), HCQ_STATUS_INVALID_ARGUMENT);
  args[2] = buffer(lane);
  args[3] = buffer(lane);
  EXPECT_CODE(hcq_executable_run(exe, args, 5), HCQ_STATUS_INVALID_ARGUMENT);
  args[3] = variable(1);
  EXPECT_CODE(hcq_executable_run(exe, args, 6), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_executable_run(exe, NULL, 5), HCQ_STATUS_INVALID_ARGUMENT);
  /* Buffer sizes out of range. */
  hcq_buffer_t none = NULL;
  EXPECT_CODE(hcq_buffer_allocate(runtime, cpu, 0, &none),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_buffer_allocate(runtime, cpu, UINT64_MAX, &none),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT(!none, "a buffer of no size or of every byte");
  CHECK_OK(hcq_buffer_release(a));
}

/* Numbers out of range and unknown enum values, at the API. */
static void testOptionRanges(void) {
  hcq_runtime_options_t options = hcq_runtime_options_create();
  EXPECT_CODE(hcq_runtime_options_set_wait_timeout(options, UINT64_MAX),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_set_wait_timeout(options,
                                                   HCQ_MAX_WAIT_TIMEOUT_MS + 1),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_set_wait_timeout(options, 0),
              HCQ_STATUS_INVALID_ARGUMENT);
  CHECK_OK(
      hcq_runtime_options_set_wait_timeout(options, HCQ_MAX_WAIT_TIMEOUT_MS));
  EXPECT_CODE(hcq_runtime_options_set_ring_bytes(options, 100),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(
      hcq_runtime_options_set_ring_bytes(options, HCQ_MAX_RING_BYTES + 64),
      HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_set_ring_bytes(options, UINT64_MAX - 63),
              HCQ_STATUS_INVALID_ARGUMENT);
  CHECK_OK(hcq_runtime_options_set_ring_bytes(options, HCQ_MAX_RING_BYTES));
  EXPECT_CODE(hcq_runtime_options_set_amd_device(options, 3),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_set_amd_device(options, UINT32_MAX),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_add_library_path(options, NULL),
              HCQ_STATUS_INVALID_ARGUMENT);
  CHECK_OK(hcq_runtime_options_free(options));

  /* The process's workgroup threads: set, read back, restored by 0. */
  EXPECT_CODE(hcq_set_workgroup_threads(HCQ_MAX_WORKGROUP_THREADS + 1),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_set_workgroup_threads(UINT32_MAX),
              HCQ_STATUS_INVALID_ARGUMENT);
  uint32_t threads = hcq_workgroup_threads();
  CHECK_OK(hcq_set_workgroup_threads(HCQ_MAX_WORKGROUP_THREADS));
  EXPECT(hcq_workgroup_threads() == HCQ_MAX_WORKGROUP_THREADS,
         "workgroup threads %u", hcq_workgroup_threads());
  CHECK_OK(hcq_set_workgroup_threads(1));
  EXPECT(hcq_workgroup_threads() == 1, "workgroup threads %u",
         hcq_workgroup_threads());
  CHECK_OK(hcq_set_workgroup_threads(0));
  EXPECT(hcq_workgroup_threads() == threads, "default %u, was %u",
         hcq_workgroup_threads(), threads);
}

/* Status codes are the C++ runtime's, created ones keep theirs, and a
 * code that is not a failure's is refused. */
static void testStatuses(void) {
  hcq_status_code_t codes[] = {
      HCQ_STATUS_INVALID_ARGUMENT,  HCQ_STATUS_INTERNAL,
      HCQ_STATUS_DEADLINE_EXCEEDED, HCQ_STATUS_DEVICE_FAULT,
      HCQ_STATUS_INVALID_FILE,      HCQ_STATUS_OUT_OF_MEMORY,
      HCQ_STATUS_UNAVAILABLE,       HCQ_STATUS_FAILED_PRECONDITION};
  for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); ++i) {
    EXPECT(codes[i] == i + 1, "code %u is %u", i + 1, (unsigned)codes[i]);
    EXPECT_CODE(hcq_status_create(codes[i], "x"), codes[i]);
  }
  EXPECT_CODE(hcq_status_create(HCQ_STATUS_OK, "ok?"),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_status_create(9, "nine"), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_status_create(UINT32_MAX, NULL), HCQ_STATUS_INVALID_ARGUMENT);
  /* A status freed twice: the second free does nothing, and reading it is
   * an INVALID_ARGUMENT code, not freed memory. */
  hcq_status_t status = hcq_status_create(HCQ_STATUS_INTERNAL, "once");
  hcq_status_free(status);
  hcq_status_free(status);
  EXPECT(hcq_status_code(status) == HCQ_STATUS_INVALID_ARGUMENT,
         "a freed status's code is %u", (unsigned)hcq_status_code(status));
  EXPECT(strlen(hcq_status_message(status)) > 0, "no message");
  EXPECT(hcq_status_code(NULL) == HCQ_STATUS_OK, "NULL is success");
}

/* Released, foreign and garbage handles: INVALID_ARGUMENT on every call
 * that returns a status, NULL/0/"" on the others, never a crash. */
static void testHandles(hcq_runtime_t runtime, hcq_executable_t exe) {
  hcq_device_t cpu = {HCQ_DEVICE_CPU, 0};
  hcq_buffer_t b;
  CHECK_OK(hcq_buffer_allocate(runtime, cpu, 64, &b));
  CHECK_OK(hcq_buffer_release(b));
  EXPECT_CODE(hcq_buffer_release(b), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT(!hcq_buffer_host_view(b) && !hcq_buffer_size(b) &&
             !hcq_buffer_device_address(b),
         "a released buffer has a view");
  /* Its slot reused by a new buffer: the old handle stays dead. */
  hcq_buffer_t c;
  CHECK_OK(hcq_buffer_allocate(runtime, cpu, 64, &c));
  EXPECT(c != b, "a new handle equals a released one");
  EXPECT_CODE(hcq_buffer_release(b), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT(hcq_buffer_size(c) == 64, "%llu bytes",
         (unsigned long long)hcq_buffer_size(c));
  /* A handle of one kind given as another. */
  EXPECT_CODE(hcq_executable_synchronize((hcq_executable_t)c),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_release((hcq_runtime_t)exe),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_free((hcq_runtime_options_t)runtime),
              HCQ_STATUS_INVALID_ARGUMENT);
  /* Garbage. */
  int local = 0;
  hcq_executable_t garbage = (hcq_executable_t)(void *)&local;
  EXPECT_CODE(hcq_executable_run(garbage, NULL, 0),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_executable_release(garbage), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT(strcmp(hcq_executable_name(garbage), "") == 0 &&
             hcq_executable_argument_count(garbage) == 0 &&
             hcq_executable_profile(garbage) == 0,
         "garbage has a name");
  hcq_profile_event_t event;
  EXPECT_CODE(hcq_executable_profile_event(exe, 0, &event),
              HCQ_STATUS_INVALID_ARGUMENT);
  CHECK_OK(hcq_buffer_release(c));
  /* A released runtime: its executable keeps it alive, the handle is dead. */
  hcq_runtime_t other;
  CHECK_OK(hcq_runtime_create(NULL, &other));
  CHECK_OK(hcq_runtime_release(other));
  EXPECT_CODE(hcq_runtime_release(other), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_synchronize(other), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_buffer_allocate(other, cpu, 64, &b),
              HCQ_STATUS_INVALID_ARGUMENT);
  hcq_runtime_options_t options = hcq_runtime_options_create();
  CHECK_OK(hcq_runtime_options_free(options));
  EXPECT_CODE(hcq_runtime_options_free(options), HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_options_set_wait_timeout(options, 10),
              HCQ_STATUS_INVALID_ARGUMENT);
  EXPECT_CODE(hcq_runtime_create(options, &other), HCQ_STATUS_INVALID_ARGUMENT);
}

/* The host call of capi-host-call.mlir: tells the main thread it is
 * running, then waits until the main thread has released the executable. */
typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t changed;
  int phase; /* 0 before, 1 in the host call, 2 released */
  hcq_status_code_t fail;
} Pause;

static hcq_status_t pauseCall(void *userData, const hcq_argument_t *operands,
                              size_t count) {
  Pause *p = userData;
  (void)operands;
  EXPECT(count == 2 && operands[0].lane_count == 1 && operands[0].lanes[0],
         "%zu operands", count);
  pthread_mutex_lock(&p->mutex);
  p->phase = 1;
  pthread_cond_broadcast(&p->changed);
  while (p->phase != 2)
    pthread_cond_wait(&p->changed, &p->mutex);
  pthread_mutex_unlock(&p->mutex);
  return p->fail ? hcq_status_create(p->fail, "asked to fail") : NULL;
}

typedef struct {
  hcq_executable_t exe;
  hcq_argument_t *args;
  hcq_status_t status;
} Run;

static void *runOnce(void *data) {
  Run *run = data;
  run->status = hcq_executable_run(run->exe, run->args, 2);
  return NULL;
}

/* An executable released by one thread while another runs it: the run
 * holds it, completes, and unloads it when it returns; the handle is dead
 * at once. Twice: the host call succeeding, and failing (the run fails). */
static void testReleaseDuringRun(const char *path) {
  static Pause pause = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0,
                        0};
  for (int attempt = 0; attempt < 2; ++attempt) {
    pause.phase = 0;
    pause.fail = attempt ? HCQ_STATUS_DEADLINE_EXCEEDED : 0;
    hcq_runtime_options_t options = hcq_runtime_options_create();
    CHECK_OK(hcq_runtime_options_register_host_call(options, "pause", pauseCall,
                                                    &pause));
    hcq_runtime_t runtime;
    CHECK_OK(hcq_runtime_create(options, &runtime));
    CHECK_OK(hcq_runtime_options_free(options));
    hcq_executable_t exe;
    CHECK_OK(hcq_executable_load_file(runtime, path, &exe));
    hcq_device_t cpu = {HCQ_DEVICE_CPU, 0};
    hcq_buffer_t a;
    CHECK_OK(hcq_buffer_allocate(runtime, cpu, 16, &a));
    void *lane[1] = {hcq_buffer_host_view(a)};
    hcq_argument_t args[2] = {buffer(lane), variable(3)};
    Run run = {exe, args, NULL};
    pthread_t thread;
    if (pthread_create(&thread, NULL, runOnce, &run) != 0) {
      fprintf(stderr, "cannot start a thread\n");
      exit(1);
    }
    pthread_mutex_lock(&pause.mutex);
    while (pause.phase != 1)
      pthread_cond_wait(&pause.changed, &pause.mutex);
    pthread_mutex_unlock(&pause.mutex);
    /* The run is inside the executable: release it under the run. */
    CHECK_OK(hcq_executable_release(exe));
    EXPECT_CODE(hcq_executable_release(exe), HCQ_STATUS_INVALID_ARGUMENT);
    EXPECT_CODE(hcq_executable_synchronize(exe), HCQ_STATUS_INVALID_ARGUMENT);
    EXPECT_CODE(hcq_executable_run(exe, args, 2), HCQ_STATUS_INVALID_ARGUMENT);
    pthread_mutex_lock(&pause.mutex);
    pause.phase = 2;
    pthread_cond_broadcast(&pause.changed);
    pthread_mutex_unlock(&pause.mutex);
    pthread_join(thread, NULL);
    if (attempt == 0)
      EXPECT(!run.status, "the run failed: %s", hcq_status_message(run.status));
    else
      EXPECT(hcq_status_code(run.status) != HCQ_STATUS_OK,
             "a failing host call did not fail the run");
    hcq_status_free(run.status);
    CHECK_OK(hcq_runtime_synchronize(runtime));
    CHECK_OK(hcq_buffer_release(a));
    CHECK_OK(hcq_runtime_release(runtime));
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr,
            "usage: %s chain.hcqx kernel-library-folder host-call.hcqx\n",
            argv[0]);
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
  EXPECT(hcq_status_code(status) == HCQ_STATUS_INVALID_ARGUMENT, "code %u: %s",
         hcq_status_code(status), hcq_status_message(status));
  hcq_status_free(status);
  EXPECT_CODE(hcq_runtime_synchronize(NULL), HCQ_STATUS_INVALID_ARGUMENT);
  hcq_device_t bad = {(hcq_device_kind_t)7, 0};
  hcq_buffer_t unused;
  EXPECT_CODE(hcq_buffer_allocate(runtime, bad, 16, &unused),
              HCQ_STATUS_INVALID_ARGUMENT);
  testArguments(runtime, exe);
  testFiles(runtime, argv[1]);
  testHandles(runtime, exe);
  CHECK_OK(hcq_executable_release(exe));
  CHECK_OK(hcq_runtime_release(runtime));
  CHECK_OK(hcq_runtime_options_free(options));
  testStatuses();
  testOptionRanges();
  testReleaseDuringRun(argv[3]);

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
  CHECK_OK(hcq_runtime_options_free(options)); /* the runtime took a copy */
  CHECK_OK(hcq_executable_load_file(runtime, argv[1], &exe));
  runAndCompare(runtime, exe, library, 3);
  EXPECT(vaddCalls == 3 * 64 && scaleCalls == 3 * 64 && reduceCalls == 3,
         "calls: vadd %u, scale %u, reduce %u", vaddCalls, scaleCalls,
         reduceCalls);
  CHECK_OK(hcq_executable_release(exe));
  CHECK_OK(hcq_runtime_release(runtime));

  dlclose(library);
  if (failures)
    fprintf(stderr, "%d failures\n", failures);
  else
    printf("C API: all passed\n");
  return failures ? 1 : 0;
}
