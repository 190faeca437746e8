/*===- Twin.h - CPU twins of AMD kernels, for the emulated device -*- C -*-===*\
|*                                                                            *|
|* The emulated AMD device executes the real PM4 and SDMA words the pipeline *|
|* produced; only the shader itself is replaced: its DISPATCH_DIRECT calls   *|
|* the kernel's CPU twin, a host function with this C ABI, once per          *|
|* workgroup. A twin library defines `hcq_twin_<symbol>` for each AMD kernel *|
|* symbol; docs/runtime.md describes how the twin is found.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef HCQ_RUNTIME_TWIN_H
#define HCQ_RUNTIME_TWIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one workgroup of a dispatch sees, read from the command processor's
 * registers and the kernel's user SGPRs as the shader would read them. */
typedef struct hcq_amd_workgroup {
  /* The kernel-argument segment: the COMPUTE_USER_DATA pair the kernel
   * descriptor places it in. Laid out as the AMD kernel expects (each buffer
   * a 64-bit address, each variable 32 bits, in signature order). */
  const void *kernargs;
  /* The hsa_kernel_dispatch_packet_t, or NULL when the descriptor does not
   * ask for the dispatch pointer. */
  const void *dispatch_packet;
  /* This workgroup's id, the grid in workgroups (DISPATCH_DIRECT), and the
   * workgroup size in work-items (COMPUTE_NUM_THREAD_X/Y/Z). */
  uint32_t group_id[3];
  uint32_t num_groups[3];
  uint32_t local_size[3];
} hcq_amd_workgroup;

/* A CPU twin runs every work-item of one workgroup. The emulated device may
 * run several workgroups of a dispatch at once on different threads, each
 * with its own `hcq_amd_workgroup`: a twin must be safe to call so. */
typedef void (*hcq_amd_twin)(const hcq_amd_workgroup *workgroup);

/* Runs `twin` once per workgroup of the grid `workgroup->num_groups`, x
 * fastest, setting `workgroup->group_id` for each, on the calling thread:
 * what calling a kernel directly means, and what a DISPATCH_DIRECT does on
 * the emulated device with one workgroup thread. */
static inline void hcq_amd_run_grid(hcq_amd_twin twin,
                                    hcq_amd_workgroup *workgroup) {
  for (uint32_t z = 0; z < workgroup->num_groups[2]; ++z)
    for (uint32_t y = 0; y < workgroup->num_groups[1]; ++y)
      for (uint32_t x = 0; x < workgroup->num_groups[0]; ++x) {
        workgroup->group_id[0] = x;
        workgroup->group_id[1] = y;
        workgroup->group_id[2] = z;
        twin(workgroup);
      }
}

/* What a simulated kernel driver preloaded into the process (such as
 * test/KFDSim, libhcq-kfd-sim.so) offers the runtime beside the system calls
 * it answers: the runtime finds it by one symbol, HCQ_SIMULATED_DRIVER_SYMBOL
 * (dlsym(RTLD_DEFAULT, ...)), and uses it only when `version` is
 * HCQ_SIMULATED_DRIVER_VERSION. A process without it has a real driver, or
 * none. */
#define HCQ_SIMULATED_DRIVER_VERSION 1
#define HCQ_SIMULATED_DRIVER_SYMBOL "hcq_simulated_driver_get"
typedef struct hcq_simulated_driver {
  uint32_t version;
  /* Takes `twin` as the CPU code of the program whose kernel enters at GPU
   * address `entry`: the runtime offers it for every AMD kernel whose
   * executable carries its host code. */
  void (*add_twin)(uint64_t entry, hcq_amd_twin twin);
  /* Whether a dispatch of AMD kernel `kernel` (its symbol) would find a CPU
   * twin among the driver's own twin libraries: the runtime asks for every
   * AMD kernel without host code it loads on a GPU, and refuses one without
   * at load (a dispatch would stop the queue, seen only as a hang after the
   * wait timeout). Non-zero when the driver simulates no GPU. */
  int (*has_twin)(const char *kernel);
} hcq_simulated_driver;

/* The simulated driver's entry: returns its interface (static storage). */
typedef const hcq_simulated_driver *(*hcq_simulated_driver_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* HCQ_RUNTIME_TWIN_H */
