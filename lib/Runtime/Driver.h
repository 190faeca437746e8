//===- Driver.h - What a device kind implements (internal) ------*- C++ -*-===//
//
// The seam between what every device shares (Device.h: placeholders, the
// queue table, the program cache, synchronize, hang detection) and what one
// kind of device does its own way: memory, queues, programs, interrupts and
// its clock. Each kind is a Driver in its own folder under Drivers/ and its
// own library, registered by name in Drivers/Registry.cpp:
//
//   cpu            CPU:N, host memory and worker threads (Drivers/CPU)
//   amd-emulated   AMD:N, host memory and software command processors
//                  running CPU twins of the kernels (Drivers/AMDEmulated)
//   amd-kfd        AMD:N, GPUs through the kernel driver (Drivers/AMDKFD)
//
// Internal to lib/Runtime; on the model of IREE's HAL drivers.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_DRIVER_H
#define HCQ_LIB_RUNTIME_DRIVER_H

#include "Queues.h"

#include "HCQ/Base/Device.h"
#include "HCQ/Base/Error.h"
#include "HCQ/Runtime/Executable.h"
#include "HCQ/Runtime/Twin.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hcq::runtime {

/// What a device is created with. A device is the process's (Device.h):
/// every Runtime that uses it must ask for the same options, or is refused
/// naming the option that differs.
struct DeviceOptions {
  /// Bytes of each queue's ring (RuntimeOptions::ringBytes).
  uint64_t ringBytes = 1 << 20;
  /// How long a wait on the device's queues or timeline may see no progress
  /// (RuntimeOptions::waitTimeout, deviceWaitTimeouts).
  std::chrono::milliseconds waitTimeout{30000};

  /// The first option in which `other` differs, as RuntimeOptions names it,
  /// or nothing.
  std::string differingOption(const DeviceOptions &other) const;
};

/// Memory for a queue's ring and pointers, from the device's own memory and
/// freed with it (after its queues stop).
using QueueAllocator =
    std::function<Expected<uint64_t>(uint64_t bytes, Placement placement)>;

/// One device as its driver runs it.
class DriverDevice {
public:
  virtual ~DriverDevice();

  /// `bytes` (already rounded up to 256) of memory for `placement`, at an
  /// address the host and the device share; zeroed unless it is
  /// Placement::Device memory of a device the host cannot read.
  virtual Expected<uint64_t> allocate(uint64_t bytes, Placement placement) = 0;
  /// Frees memory allocate() gave, of the size it was asked for.
  virtual void free(uint64_t address, uint64_t bytes) = 0;

  /// Whether the device takes pushes of `mode` at all.
  virtual bool takesPushMode(PushMode mode) const = 0;
  /// A queue named `name` ("AMD:0 COMPUTE:0") taking pushes of `mode`, its
  /// ring and pointers allocated through `allocate` as the device needs
  /// them.
  virtual Expected<std::unique_ptr<Queue>>
  createQueue(std::string name, PushMode mode, const DeviceOptions &options,
              std::shared_ptr<QueueFlags> flags,
              const QueueAllocator &allocate) = 0;

  /// Checks that AMD `kernel` (its facts, `kernel.amd`) can run on this
  /// device; the error says why not.
  virtual Error checkProgram(const Kernel &kernel) {
    return Error::success();
  }
  /// Whether AMD programs run through CPU twins here (the emulated device).
  virtual bool runsTwins() const { return false; }
  /// Records `twin` as the CPU twin of AMD `kernel`, whose entry
  /// is at `entry`; null for the builtin copy kernel, whose twin is the
  /// driver's.
  virtual void addTwin(uint64_t entry, const Kernel &kernel,
                       hcq_amd_twin twin) {}

  /// What host waits on this device may sleep on, or null (they spin and
  /// yield).
  virtual InterruptWait *getInterrupts() { return nullptr; }
  /// Device clock ticks as CLOCK_MONOTONIC nanoseconds.
  virtual uint64_t toHostNs(uint64_t ticks) { return ticks; }
  /// The id of the interrupt event the device raises (0 where no host
  /// sleeps on one), and the event's mailbox slot, when the device has one
  /// (placeholders interrupt_event and event_mailbox).
  virtual uint64_t getInterruptEventId() const { return 0; }
  virtual std::optional<uint64_t> getEventMailbox() const {
    return std::nullopt;
  }
  /// Whether allocate() gives the process's ordinary host memory (the CPU
  /// device's), which other kinds' devices reach only once their driver
  /// registered it (Driver::addHostMemory).
  virtual bool givesHostMemory() const { return false; }
  /// Whether the device executes its queues without a host thread (a GPU):
  /// once stuck, such a queue is stopped for good and its device's other
  /// queues halted before memory is freed.
  virtual bool isHardware() const { return false; }
};

/// A kind of device: makes its devices.
class Driver {
public:
  virtual ~Driver();
  /// "amd-kfd".
  virtual std::string_view getName() const = 0;
  /// Checks `options` for this kind of device; an InvalidArgument error
  /// names the option (RuntimeOptions::ringBytes) and what it must be.
  virtual Error verifyOptions(const DeviceOptions &options) const = 0;
  /// Device `id`, opened with `options` (verified).
  virtual Expected<std::unique_ptr<DriverDevice>>
  createDevice(DeviceId id, const DeviceOptions &options) = 0;

  /// Host memory [address, address + bytes) that this kind's devices may be
  /// given (a CPU device's allocation) was made, or is about to be freed. A
  /// kind whose devices reach host memory only once it is registered with
  /// them (a GPU through KFD) registers it.
  virtual Error addHostMemory(uint64_t address, uint64_t bytes) {
    return Error::success();
  }
  virtual void removeHostMemory(uint64_t address) {}
  /// Whether this kind's devices may reach the caller's host memory
  /// [address, address + bytes); the error says why not.
  virtual Error checkHostMemory(uint64_t address, uint64_t bytes) {
    return Error::success();
  }
};

/// The driver called `name`, or an Unavailable error listing those there
/// are.
Expected<Driver *> lookupDriver(std::string_view name);
/// The names of the registered drivers, in registration order.
std::vector<std::string_view> listDriverNames();

/// Driver::addHostMemory, removeHostMemory and checkHostMemory of every
/// driver; the first error stops (and adding undoes what it added).
Error addHostMemoryToDrivers(uint64_t address, uint64_t bytes);
void removeHostMemoryFromDrivers(uint64_t address);
Error checkHostMemoryWithDrivers(uint64_t address, uint64_t bytes);

/// Registration (Drivers/Registry.cpp): one line per driver.
class DriverRegistry {
public:
  void add(std::unique_ptr<Driver> driver) {
    drivers.push_back(std::move(driver));
  }
  const std::vector<std::unique_ptr<Driver>> &all() const { return drivers; }

private:
  std::vector<std::unique_ptr<Driver>> drivers;
};
void registerDrivers(DriverRegistry &registry);

/// The drivers there are (Drivers/*).
std::unique_ptr<Driver> createCPUDriver();
std::unique_ptr<Driver> createEmulatedAMDDriver();
std::unique_ptr<Driver> createKFDDriver();

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_DRIVER_H
