//===- KFDSim.h - What the simulated kernel driver reports ------*- C++ -*-===//
//
// The functions test/KFDSim exports besides the system calls it answers:
// its counts of the interrupts the simulated GPUs raised, of the waits on
// KFD events and of the memory in each heap, so a test can tell a host that
// slept on its GPU's interrupt from one that polled, and where memory went;
// and the interface through which the runtime offers it CPU twins.
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

/// The runtime's view of this driver (HCQ/Runtime/Twin.h): how it offers
/// CPU twins and asks whether a kernel has one.
const hcq_simulated_driver *hcq_simulated_driver_get();
}

#endif // HCQ_TEST_KFDSIM_KFDSIM_H
