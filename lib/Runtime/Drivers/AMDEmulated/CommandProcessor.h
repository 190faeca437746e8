//===- CommandProcessor.h - The emulated AMD command processor --*- C++ -*-===//
//
// A software AMD command processor: it reads a PM4 compute or SDMA ring from
// its read pointer up to a write pointer and executes each packet against
// host memory (GPU VA = CPU VA, as under KFD). Only the shader is replaced:
// DISPATCH_DIRECT runs the kernel's CPU twin. A packet it cannot execute is
// an error naming where it is, never a skip. It stands behind the emulated
// AMD device's queues (AMDQueue.cpp) and behind the queues of the simulated
// kernel driver (test/KFDSim) that the hardware device is tested against.
// Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_COMMANDPROCESSOR_H
#define HCQ_LIB_RUNTIME_COMMANDPROCESSOR_H

#include "HCQ/Runtime/Twin.h"
#include "HCQ/Target/AMD/CodeObject.h"
#include "HCQ/Target/AMD/PM4.h"

#include "HCQ/Base/Error.h"
#include <string_view>

#include <array>
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace hcq::runtime {

/// A kernel the command processor can run: its CPU twin and where its user
/// SGPRs put the kernel-argument and dispatch pointers.
struct TwinProgram {
  hcq_amd_twin twin = nullptr;
  std::string name;
  unsigned kernargUserData = 0; // COMPUTE_USER_DATA index of the pointer
  int dispatchUserData = -1;    // likewise, or -1
  /// Where the GPU's page tables are known (the simulated kernel driver,
  /// from the code object's metadata): the kernel-argument segment's size
  /// and its global-memory pointers, which the command processor checks
  /// against isGpuMemory before the dispatch (none and 0 elsewhere).
  uint32_t kernargBytes = 0;
  std::vector<amd::KernelInfo::BufferArgument> bufferArguments;

  /// `kernel`'s twin, with where its descriptor's user SGPRs put the
  /// pointers.
  static TwinProgram of(hcq_amd_twin twin, std::string name,
                        const amd::ProgramFacts &kernel) {
    TwinProgram program;
    program.twin = twin;
    program.name = std::move(name);
    program.kernargUserData = kernel.kernargUserData();
    program.dispatchUserData =
        kernel.dispatchPtr ? int(kernel.dispatchPtrUserData()) : -1;
    return program;
  }
};

/// The CPU twin of every target's builtin copy kernel (amd::Target::
/// builtinCopyCodeObject, symbol amd::BUILTIN_COPY_SYMBOL).
void builtinCopyTwin(const hcq_amd_workgroup *wg);

/// What a command processor needs from whoever runs it.
class CommandProcessorHost {
public:
  virtual ~CommandProcessorHost();
  /// The program whose entry (COMPUTE_PGM_LO/HI << 8) is `entry`, or null.
  /// The result must stay valid while the command processor exists.
  virtual const TwinProgram *findProgram(uint64_t entry) = 0;
  /// Whether waits should give up (the device faulted, or the queue goes).
  virtual bool abandonWaits() = 0;
  /// A wait on the 32-bit word at `signal` for `value` saw no change for
  /// the wait timeout; it has given up and the command processor goes on.
  virtual void waitTimedOut(uint64_t signal, uint64_t value,
                            uint64_t current) = 0;
  /// The GPU clock RELEASE_MEM GPU_CLOCK and SDMA TIMESTAMP write: by
  /// default CLOCK_MONOTONIC nanoseconds, what the CPU device counts.
  virtual uint64_t gpuClock();

  /// How the GPU spreads a dispatch's scratch: TMPRING_SIZE WAVES times
  /// `waveMultiplier` waves (the shader engines on gfx11, 1 on gfx9) of
  /// WAVESIZE units of `unitBytes`. None when the host does not know the GPU
  /// (the emulated device); then scratch is not checked.
  struct ScratchLayout {
    unsigned waveMultiplier, unitBytes;
  };
  virtual std::optional<ScratchLayout> scratchLayout() { return std::nullopt; }
  /// Whether the GPU may touch [address, address + bytes): memory mapped on
  /// it. A dispatch whose scratch reaches past it is a fault.
  virtual bool isGpuMemory(uint64_t address, uint64_t bytes) { return true; }
  /// The queue was about to touch [address, address + bytes) although it is
  /// not all GPU memory (isGpuMemory): a GPU page fault. The host raises it
  /// as the kernel's VM-fault handler does (KFD memory exception events,
  /// kfd_events.c kfd_signal_vm_fault_event); the queue then stops.
  virtual void memoryFault(uint64_t address, uint64_t bytes, bool write) {}
  /// Whether SDMA copies are checked against isGpuMemory (the simulated
  /// driver's HCQ_KFD_SIM_STRICT_COPIES: docs/kfd-sim.md says why it is
  /// not always on yet).
  virtual bool checksCopyAddresses() { return true; }
  /// On a GPU whose SDMA engines write around the compute L2 (gfx9, as the
  /// gfx942), the SDMA copies finished on it so far, counted by its command
  /// processors through noteSdmaCopy. None when that does not matter or is
  /// not tracked: then the L2 rule below is not checked.
  virtual std::optional<uint64_t> sdmaCopiesAroundL2() { return std::nullopt; }
  virtual void noteSdmaCopy() {}
  /// The HDP flush's request and done registers (dword offsets) a memory
  /// barrier may write and poll: where the GPU has them. By default the
  /// encoder's constants (the emulated device, which has no other source);
  /// the simulated kernel driver answers from the NBIO version and
  /// register base its IP discovery publishes. None: this GPU's are not
  /// known, and a barrier on any register is refused.
  struct HdpFlushRegisters {
    uint32_t request, done;
  };
  virtual std::optional<HdpFlushRegisters> hdpFlushRegisters() {
    return HdpFlushRegisters{amd::pm4::HDP_FLUSH_REQ, amd::pm4::HDP_FLUSH_DONE};
  }
  /// The queue raised an interrupt carrying `context` (PM4 RELEASE_MEM with
  /// an INT_SEL, after its write; SDMA TRAP's INT_CONTEXT). Nothing listens
  /// on the emulated device: its host waits poll.
  virtual void interrupt(uint32_t context) {}
};

class CommandProcessor {
public:
  /// A PM4 compute ring (`pm4`; pointers count dwords) or an SDMA ring
  /// (pointers count bytes) of `ringBytes` at `ring`.
  CommandProcessor(bool pm4, const uint8_t *ring, uint64_t ringBytes,
                   std::atomic<uint64_t> &rptr, CommandProcessorHost &host,
                   std::chrono::milliseconds waitTimeout)
      : isPM4(pm4), ring(ring), ringBytes(ringBytes), rptr(rptr), host(host),
        waitTimeout(waitTimeout) {}

  /// Executes the packets from the read pointer up to `wptr`, storing the
  /// read pointer after each. On a packet it cannot execute, returns the
  /// error with the read pointer left at that packet.
  Error execute(uint64_t wptr);

  /// The program whose twin is running, or null; read by other threads.
  const TwinProgram *runningProgram() const {
    return running.load(std::memory_order_acquire);
  }

private:
  struct Dwords;
  Error body(const Dwords &dwords, uint64_t pos, uint64_t n,
             std::vector<uint32_t> &out, std::string_view packet);
  void waitMemory(uint64_t at, uint32_t function, uint32_t ref, uint32_t mask);
  Error stepPM4(const Dwords &dwords, uint64_t &pos, unsigned depth);
  Error dispatch(std::array<uint32_t, 3> groups,
                 std::function<std::string()> where);
  Error stepSDMA(const Dwords &dwords, uint64_t &pos);

  const bool isPM4;
  const uint8_t *const ring;
  const uint64_t ringBytes;
  std::atomic<uint64_t> &rptr;
  CommandProcessorHost &host;
  const std::chrono::milliseconds waitTimeout;
  std::atomic<const TwinProgram *> running{nullptr};
  /// The L2 rule (gfx9): a dispatch after a wait that an SDMA copy finished
  /// before must follow an ACQUIRE_MEM invalidating L2 (COHER_TC); the
  /// per-dispatch one invalidates only K$ and L1, so the kernel could read
  /// stale lines. SDMA copies counted at the last L2 invalidation, and
  /// whether a wait since then saw newer ones.
  uint64_t copiesAtL2Invalidate = 0;
  bool staleL2 = false;
  /// The SH registers, COMPUTE_* among them, by offset from SH_REG_START
  /// (the SET_SH_REG window [nvd/s15 PACKET3_SET_SH_REG_START/END]).
  std::array<uint32_t, amd::pm4::SH_REG_END - amd::pm4::SH_REG_START> sh{};
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_COMMANDPROCESSOR_H
