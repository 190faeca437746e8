/*===- hcq-c/runtime.h - The runtime's C API --------------------*- C -*-===*\
|*                                                                            *|
|* The runtime (docs/runtime.md) for any language that can call C: Python    *|
|* through ctypes, Rust, C. Opaque handles, a status for every call that can *|
|* fail (NULL is success; otherwise it carries a code and the message the    *|
|* C++ runtime gives, and the caller frees it), no exceptions, no C++ types. *|
|* Every handle a create/load/allocate call returns is released by its      *|
|* release call; an executable and a buffer keep their runtime alive.       *|
|*                                                                            *|
|* No aborts: a NULL, released or foreign handle, a number out of its range *|
|* or an unknown enum value is refused with HCQ_STATUS_INVALID_ARGUMENT     *|
|* (calls that return a value instead of a status return NULL, 0 or "").    *|
|*                                                                            *|
|* Handles are not pointers to memory: a handle is a slot of a table of live *|
|* objects and that slot's generation, checked on every call. Releasing a   *|
|* handle bumps its slot's generation, so a second release, or any call     *|
|* with the released handle, is an INVALID_ARGUMENT status and never a use  *|
|* of freed memory (until one slot has been reused 2^32 times). A handle of *|
|* one kind given as another (a buffer as an executable) is refused too.    *|
|*                                                                            *|
|* Threads: as the C++ runtime (docs/runtime.md, "Threads"). A call holds a *|
|* reference to the objects it is given for as long as it runs, so another  *|
|* thread may release them meanwhile: an executable released during a run   *|
|* is unloaded when that run returns (the run completes), and the handle is *|
|* dead at once. Strings and views a call returns (hcq_executable_name,     *|
|* hcq_buffer_host_view, profile events) are valid until the handle is      *|
|* released.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef HCQ_C_RUNTIME_H
#define HCQ_C_RUNTIME_H

#include "HCQ/Runtime/Twin.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

/* Enumerations are uint32_t with named values, as IREE's C API has them: a
 * caller may pass any number, which the library checks (a C++ enum cannot
 * hold a value outside its range). */

/* The same numbers as the C++ runtime's hcq::ErrorCode (HCQ/Base/Error.h):
 * the code of every error the runtime reports is passed through. Act on the
 * code; the message is for people and may change. */
typedef uint32_t hcq_status_code_t;
enum {
  HCQ_STATUS_OK = 0,
  /* A call was given something it cannot take: a NULL, released or foreign
   * handle, a number out of range, an unknown enum value, an argument the
   * executable does not have. */
  HCQ_STATUS_INVALID_ARGUMENT = 1,
  /* A failure that is none of the others: a bug, or a system call that
   * failed for a reason the runtime cannot name better. */
  HCQ_STATUS_INTERNAL = 2,
  /* A wait did not finish within its timeout: a hang. */
  HCQ_STATUS_DEADLINE_EXCEEDED = 3,
  /* A device faulted: its queues are stopped. */
  HCQ_STATUS_DEVICE_FAULT = 4,
  /* A file (or bytes given as one) is not what it claims: truncated,
   * corrupt, foreign or too large. */
  HCQ_STATUS_INVALID_FILE = 5,
  /* Memory (host or device) could not be had. */
  HCQ_STATUS_OUT_OF_MEMORY = 6,
  /* What was asked for is not here: no such file, device, driver or
   * library. */
  HCQ_STATUS_UNAVAILABLE = 7,
  /* The call is valid, but not in the state things are in. */
  HCQ_STATUS_FAILED_PRECONDITION = 8,
};

/* NULL when a call succeeded. */
typedef struct hcq_status_s *hcq_status_t;

/* HCQ_STATUS_OK for NULL; HCQ_STATUS_INVALID_ARGUMENT for a status already
 * freed (its message says so). */
hcq_status_code_t hcq_status_code(hcq_status_t status);
/* The message, valid until the status is freed; "" for NULL. */
const char *hcq_status_message(hcq_status_t status);
/* Freeing NULL or an already freed status does nothing. */
void hcq_status_free(hcq_status_t status);

/* hcq's version ("0.1.0") and the executable format version it reads. */
const char *hcq_version(void);
uint32_t hcq_executable_format_version(void);

/* How many threads at most run one host launch's workgroups (a CPU kernel,
 * or an AMD kernel's CPU twin on the emulated device), counting its queue's
 * own. Process-wide, as devices are: every runtime's launches that start
 * afterwards. 0 restores the default (HCQ_WORKGROUP_THREADS when set, else
 * the CPUs the process may run on); 1..HCQ_MAX_WORKGROUP_THREADS. */
#define HCQ_MAX_WORKGROUP_THREADS 1024u
hcq_status_t hcq_set_workgroup_threads(uint32_t threads);
uint32_t hcq_workgroup_threads(void);

/*===----------------------------------------------------------------------===*
 * Runtime options
 *===----------------------------------------------------------------------===*/

typedef uint32_t hcq_device_kind_t;
enum {
  HCQ_DEVICE_AMD = 0,
  HCQ_DEVICE_CPU = 1,
};

typedef struct hcq_device_t {
  hcq_device_kind_t kind;
  uint32_t index;
} hcq_device_t;

/* What runs AMD devices (RuntimeOptions::amd). */
typedef uint32_t hcq_amd_device_t;
enum {
  HCQ_AMD_NONE = 0,
  HCQ_AMD_EMULATED = 1,
  HCQ_AMD_HARDWARE = 2,
};

/* A CPU kernel (docs/cpu-queue.md): called once per workgroup with one
 * 64-bit word per argument. */
typedef void (*hcq_cpu_kernel_t)(const uint64_t *args, uint32_t x, uint32_t y,
                                 uint32_t z);

/* An argument of a run or of a host call: a buffer (`lane_count` pointers,
 * one per lane: a buffer's host view, or host memory on the CPU and emulated
 * AMD devices) or, with no lanes, a variable's `value` (an f32's bits for
 * f32 variables). A run takes a buffer with exactly as many lanes as the
 * executable gives the argument, none of them NULL, and a variable with no
 * lanes; an argument the executable does not use is not read. */
typedef struct hcq_argument_t {
  void *const *lanes;
  size_t lane_count;
  int64_t value;
} hcq_argument_t;

/* An hcq.host_call's implementation: returns NULL, or a status made with
 * hcq_status_create that fails the run, naming the call. */
typedef hcq_status_t (*hcq_host_call_t)(void *user_data,
                                        const hcq_argument_t *operands,
                                        size_t operand_count);
/* A failure for a host call to return; the run fails with its code. A code
 * that is not a failure's (HCQ_STATUS_OK, or above
 * HCQ_STATUS_FAILED_PRECONDITION) makes an HCQ_STATUS_INVALID_ARGUMENT
 * status saying so. NULL when no handle can be had. */
hcq_status_t hcq_status_create(hcq_status_code_t code, const char *message);

typedef struct hcq_runtime_options_s *hcq_runtime_options_t;

/* The limits of the numbers below. */
#define HCQ_MAX_WAIT_TIMEOUT_MS UINT64_C(4294967295) /* about 49.7 days */
#define HCQ_MAX_RING_BYTES (UINT64_C(1) << 30)

/* NULL when no handle can be had. */
hcq_runtime_options_t hcq_runtime_options_create(void);
/* A runtime made from the options keeps its own copy. */
hcq_status_t hcq_runtime_options_free(hcq_runtime_options_t options);
hcq_status_t hcq_runtime_options_set_amd_device(hcq_runtime_options_t options,
                                                hcq_amd_device_t device);
/* A wait whose signal does not advance for this long fails (30 s):
 * 1..HCQ_MAX_WAIT_TIMEOUT_MS. */
hcq_status_t hcq_runtime_options_set_wait_timeout(hcq_runtime_options_t options,
                                                  uint64_t milliseconds);
/* Bytes of each queue's ring: a multiple of 64, 64..HCQ_MAX_RING_BYTES
 * (1 MiB). */
hcq_status_t hcq_runtime_options_set_ring_bytes(hcq_runtime_options_t options,
                                                uint64_t bytes);
/* A folder where CPU kernel and twin libraries named without a '/' are
 * looked for, before the dynamic loader's own search (LD_LIBRARY_PATH,
 * which the process cannot change once started). In the order added. */
hcq_status_t hcq_runtime_options_add_library_path(hcq_runtime_options_t options,
                                                  const char *folder);
/* A shared library defining hcq_twin_<symbol> for AMD kernels. */
hcq_status_t hcq_runtime_options_add_twin_library(hcq_runtime_options_t options,
                                                  const char *path);
/* In-process kernels, by the kernel's symbol: found before any library. */
hcq_status_t hcq_runtime_options_register_cpu_kernel(
    hcq_runtime_options_t options, const char *symbol, hcq_cpu_kernel_t kernel);
hcq_status_t
hcq_runtime_options_register_amd_twin(hcq_runtime_options_t options,
                                      const char *symbol, hcq_amd_twin twin);
/* The implementation of hcq.host_call @`callee`. */
hcq_status_t
hcq_runtime_options_register_host_call(hcq_runtime_options_t options,
                                       const char *callee, hcq_host_call_t call,
                                       void *user_data);

/*===----------------------------------------------------------------------===*
 * Runtime, buffers, executables
 *===----------------------------------------------------------------------===*/

typedef struct hcq_runtime_s *hcq_runtime_t;
typedef struct hcq_buffer_s *hcq_buffer_t;
typedef struct hcq_executable_s *hcq_executable_t;

/* A runtime with a copy of `options` (NULL: the defaults). */
hcq_status_t hcq_runtime_create(hcq_runtime_options_t options,
                                hcq_runtime_t *out);
/* Its executables and buffers keep the runtime itself alive. */
hcq_status_t hcq_runtime_release(hcq_runtime_t runtime);
/* Waits until everything submitted to every open device has finished. */
hcq_status_t hcq_runtime_synchronize(hcq_runtime_t runtime);

/* `bytes` of zeroed memory on `device`, 256-byte aligned: 1 byte up to the
 * runtime's largest allocation (16 GiB). */
hcq_status_t hcq_buffer_allocate(hcq_runtime_t runtime, hcq_device_t device,
                                 uint64_t bytes, hcq_buffer_t *out);
/* Frees it once every run so far has finished with it. */
hcq_status_t hcq_buffer_release(hcq_buffer_t buffer);
void *hcq_buffer_host_view(hcq_buffer_t buffer);
uint64_t hcq_buffer_device_address(hcq_buffer_t buffer);
uint64_t hcq_buffer_size(hcq_buffer_t buffer);

/* Loads an executable file (hcq-translate --hcq-to-executable) onto the
 * runtime's devices. The file is read as its header says, at most 1 GiB: a
 * file of another size is HCQ_STATUS_INVALID_FILE, before it is read. */
hcq_status_t hcq_executable_load_file(hcq_runtime_t runtime, const char *path,
                                      hcq_executable_t *out);
hcq_status_t hcq_executable_load_memory(hcq_runtime_t runtime, const void *data,
                                        size_t size, hcq_executable_t *out);
/* Waits for its work, then unloads it (when a run on another thread holds
 * it, once that run returns). */
hcq_status_t hcq_executable_release(hcq_executable_t executable);
/* The schedule's name, and how many arguments a run takes. */
const char *hcq_executable_name(hcq_executable_t executable);
size_t hcq_executable_argument_count(hcq_executable_t executable);
/* Runs once with `argument_count` arguments (exactly as many as the
 * executable takes, each as hcq_argument_t says: checked before anything
 * runs, an error naming the argument and lane); returns once the work is
 * submitted (see hcq_executable_synchronize). */
hcq_status_t hcq_executable_run(hcq_executable_t executable,
                                const hcq_argument_t *arguments,
                                size_t argument_count);
/* Waits until every run so far has finished on its devices. */
hcq_status_t hcq_executable_synchronize(hcq_executable_t executable);

/* One call's timestamps on one lane, in CLOCK_MONOTONIC nanoseconds. */
typedef struct hcq_profile_event_t {
  const char *name;  /* the kernel, or "copy" */
  const char *queue; /* "COMPUTE:0" */
  hcq_device_t device;
  uint64_t start_ns, end_ns;
} hcq_profile_event_t;

/* Reads the last finished run's profile (compiled with profile=true; after
 * synchronize); the events stay valid until the next hcq_executable_profile
 * on `executable` or its release. 0 for a handle that is not live. */
size_t hcq_executable_profile(hcq_executable_t executable);
hcq_status_t hcq_executable_profile_event(hcq_executable_t executable,
                                          size_t index,
                                          hcq_profile_event_t *out);

#ifdef __cplusplus
}
#endif

#endif /* HCQ_C_RUNTIME_H */
