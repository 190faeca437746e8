//===- KFDSim.h - What the simulated kernel driver reports ------*- C++ -*-===//
//
// The functions test/KFDSim exports besides the system calls it answers:
// its counts of the interrupts the simulated GPUs raised, of the waits on
// KFD events and of the memory in each heap, so a test can tell a host that
// slept on its GPU's interrupt from one that polled, and where memory went;
// and the hook through which the runtime offers it CPU twins.
// Tests look it up with dlsym(RTLD_DEFAULT, ...): absent, they are not
// running under the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TEST_KFDSIM_KFDSIM_H
#define HCQ_TEST_KFDSIM_KFDSIM_H

#include "HCQ/Runtime/Twin.h"

#include <cstdint>

extern "C" {

struct hcq_kfd_sim_counts {
  /// Interrupts raised (RELEASE_MEM INT_SEL, SDMA TRAP).
  uint64_t interrupts;
  /// Of those, the ones whose context id named a signal event whose mailbox
  /// slot was written (the driver's fast path), the ones that made the
  /// driver search every event, and the ones that signaled no event at all.
  uint64_t byId, searches, signaledNothing;
  /// WAIT_EVENTS calls, and how they ended.
  uint64_t waits, woken, timedOut;
  /// Bytes allocated and not yet freed: GTT, VRAM the host can map
  /// (PUBLIC), VRAM it cannot.
  uint64_t gttBytes, publicVramBytes, privateVramBytes;
  /// Interrupts the driver dropped before any lookup: a CP end-of-pipe
  /// interrupt with context id 0 on GC 9.4.1 and later
  /// (event_interrupt_isr_v9, context_id_expected).
  uint64_t dropped;
};

/// The counts so far.
void hcq_kfd_sim_get_counts(hcq_kfd_sim_counts *counts);
using hcq_kfd_sim_get_counts_fn = void (*)(hcq_kfd_sim_counts *);
constexpr const char *HCQ_KFD_SIM_GET_COUNTS = "hcq_kfd_sim_get_counts";

/// The CPU twin of the program whose kernel enters at `entry`: the runtime
/// offers it, when this function exists in the process, for every AMD
/// kernel whose executable carries its host code (lib/Runtime/Runtime.cpp).
void hcq_kfd_sim_add_twin(uint64_t entry, hcq_amd_twin twin);

/// Whether a dispatch of AMD kernel `kernel` (its symbol) would find a CPU
/// twin in HCQ_KFD_SIM_TWINS: the runtime asks, when this function exists
/// in the process, for every AMD kernel without host code it loads on a
/// GPU, and refuses one without at load (an Unavailable error naming the
/// kernel) rather than let its dispatch stop the queue, which would show
/// only as a hang after the wait timeout. Non-zero when no GPU is
/// simulated.
int hcq_kfd_sim_has_twin(const char *kernel);
}

#endif // HCQ_TEST_KFDSIM_KFDSIM_H
