/*===- hcq-c/runtime.h - The runtime's C API --------------------*- C -*-===*\
|*                                                                            *|
|* The runtime (docs/runtime.md) for any language that can call C: Python    *|
|* through ctypes, Rust, C. Opaque handles, a status for every call that can *|
|* fail (NULL is success; otherwise it carries a code and the message the    *|
|* C++ runtime gives, and the caller frees it), no exceptions, no C++ types. *|
|* Every handle a create/load/allocate call returns is released by its      *|
|* release call; an executable and a buffer keep their runtime alive.       *|
|*                                                                            *|
|* Threads: as the C++ runtime (docs/runtime.md, "Threads").                *|
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

typedef uint32_t hcq_status_code_t;
enum {
  HCQ_STATUS_OK = 0,
  /* A call was given something it cannot take: a NULL handle, an unknown
   * enum value, an argument count the executable does not have. */
  HCQ_STATUS_INVALID_ARGUMENT = 1,
  /* The runtime failed: a corrupt or foreign file, a device it cannot open,
   * a hang, a fault; the message says which. */
  HCQ_STATUS_FAILED = 2,
};

/* NULL when a call succeeded. */
typedef struct hcq_status_s *hcq_status_t;

hcq_status_code_t hcq_status_code(hcq_status_t status);
/* The message, valid until the status is freed; "" for NULL. */
const char *hcq_status_message(hcq_status_t status);
void hcq_status_free(hcq_status_t status);

/* hcq's version ("0.1.0") and the executable format version it reads. */
const char *hcq_version(void);
uint32_t hcq_executable_format_version(void);

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
 * f32 variables). */
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
/* A failure for a host call to return. */
hcq_status_t hcq_status_create(hcq_status_code_t code, const char *message);

typedef struct hcq_runtime_options_s *hcq_runtime_options_t;

hcq_runtime_options_t hcq_runtime_options_create(void);
void hcq_runtime_options_free(hcq_runtime_options_t options);
hcq_status_t hcq_runtime_options_set_amd_device(hcq_runtime_options_t options,
                                                hcq_amd_device_t device);
/* A wait whose signal does not advance for this long fails (30 s). */
hcq_status_t hcq_runtime_options_set_wait_timeout(hcq_runtime_options_t options,
                                                  uint64_t milliseconds);
/* Bytes of each queue's ring: a multiple of 64 (1 MiB). */
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
void hcq_runtime_release(hcq_runtime_t runtime);
/* Waits until everything submitted to every open device has finished. */
hcq_status_t hcq_runtime_synchronize(hcq_runtime_t runtime);

/* `bytes` of zeroed memory on `device`, 256-byte aligned. */
hcq_status_t hcq_buffer_allocate(hcq_runtime_t runtime, hcq_device_t device,
                                 uint64_t bytes, hcq_buffer_t *out);
/* Frees it once every run so far has finished with it. */
void hcq_buffer_release(hcq_buffer_t buffer);
void *hcq_buffer_host_view(hcq_buffer_t buffer);
uint64_t hcq_buffer_device_address(hcq_buffer_t buffer);
uint64_t hcq_buffer_size(hcq_buffer_t buffer);

/* Loads an executable file (hcq-opt --hcq-write-executable) onto the
 * runtime's devices. */
hcq_status_t hcq_executable_load_file(hcq_runtime_t runtime, const char *path,
                                      hcq_executable_t *out);
hcq_status_t hcq_executable_load_memory(hcq_runtime_t runtime, const void *data,
                                        size_t size, hcq_executable_t *out);
/* Waits for its work, then unloads it. */
void hcq_executable_release(hcq_executable_t executable);
/* The schedule's name, and how many arguments a run takes. */
const char *hcq_executable_name(hcq_executable_t executable);
size_t hcq_executable_argument_count(hcq_executable_t executable);
/* Runs once with `argument_count` arguments; returns once the work is
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
 * synchronize); the events stay valid until the next call on `executable`. */
size_t hcq_executable_profile(hcq_executable_t executable);
hcq_status_t hcq_executable_profile_event(hcq_executable_t executable,
                                          size_t index,
                                          hcq_profile_event_t *out);

#ifdef __cplusplus
}
#endif

#endif /* HCQ_C_RUNTIME_H */
