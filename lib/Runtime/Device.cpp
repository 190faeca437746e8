//===- Device.cpp - The process's devices --------------------------------===//
//
// What every device shares, above its driver (Driver.h): placeholders, the
// queue table, the program cache, synchronize and hang detection; and the
// process's table of open devices. A Runtime's session over them is
// Session.cpp.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include <cstring>

namespace hcq::runtime {

DriverDevice::~DriverDevice() = default;
Driver::~Driver() = default;

std::string DeviceOptions::differingOption(const DeviceOptions &other) const {
  if (ringBytes != other.ringBytes)
    return concat("RuntimeOptions::ringBytes (", ringBytes, ", asked for ",
                  other.ringBytes, ")");
  if (waitTimeout != other.waitTimeout)
    return concat("its wait timeout (RuntimeOptions::waitTimeout or "
                  "deviceWaitTimeouts: ",
                  int64_t(waitTimeout.count()), " ms, asked for ",
                  int64_t(other.waitTimeout.count()), " ms)");
  return {};
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Device::Device(Driver &driver, DeviceId id, DeviceOptions options,
               std::unique_ptr<DriverDevice> impl,
               std::shared_ptr<QueueFlags> flags)
    : driver(driver), id(id), name(id.str()), options(options),
      impl(std::move(impl)), flags(std::move(flags)) {}

Error Device::open() {
  Expected<uint64_t> signal =
      getPlaceholder(PlaceholderTag::timeline_signal, 8);
  if (!signal)
    return signal.takeError();
  Expected<uint64_t> value = getPlaceholder(PlaceholderTag::timeline_value, 8);
  if (!value)
    return value.takeError();
  timelineSignal = *signal;
  timelineValue = *value;
  return Error::success();
}

Device::~Device() {
  struct Release {
    ~Release() { ProcessDevices::get().releaseFlags(); }
  } release;
  // The queues' threads stop before the memory they read is freed.
  bool stuck = false;
  for (auto &[key, entry] : queues)
    if (!entry.queue->stop()) {
      (void)entry.queue.release(); // its thread still runs in it
      stuck = true;
    }
  queues.clear();
  if (stuck) {
    ProcessDevices::get().abandonedQueues.store(true);
    return;
  }
  for (auto &[address, bytes] : blocks) {
    if (impl->givesHostMemory())
      removeHostMemoryFromDrivers(address);
    impl->free(address, bytes);
  }
}

Expected<uint64_t> Device::allocateBlock(uint64_t bytes, Placement placement,
                                         uint64_t &size) {
  size = alignTo(std::max<uint64_t>(bytes, 1), 256);
  if (size < bytes)
    return makeError(ErrorCode::OutOfMemory, name, ": cannot allocate ", bytes,
                     " bytes");
  return impl->allocate(size, placement);
}

Expected<uint64_t> Device::allocate(uint64_t bytes, Placement placement) {
  uint64_t size;
  Expected<uint64_t> address = allocateBlock(bytes, placement, size);
  if (!address)
    return address.takeError();
  // Host memory a GPU may be given is registered with it (the queues' own
  // memory, allocated apart, is the CPU worker's alone).
  if (impl->givesHostMemory())
    if (Error e = addHostMemoryToDrivers(*address, size)) {
      impl->free(*address, size);
      return prependContext(name + ": ", std::move(e));
    }
  std::lock_guard<std::mutex> lock(mutex);
  blocks.emplace(*address, size);
  return *address;
}

void Device::free(uint64_t address) {
  uint64_t bytes;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blocks.find(address);
    if (it == blocks.end())
      return;
    bytes = it->second;
    blocks.erase(it);
  }
  if (impl->givesHostMemory())
    removeHostMemoryFromDrivers(address);
  impl->free(address, bytes);
}

Expected<uint64_t> Device::getPlaceholder(PlaceholderTag tag, uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = placeholders.find(tag);
    if (it != placeholders.end()) {
      auto [address, size] = it->second;
      if (bytes > size)
        return makeError(ErrorCode::FailedPrecondition, name,
                         ": an executable asks for ", bytes,
                         " bytes of the device's ",
                         abi::getPlaceholderTagName(tag), ", which has ", size,
                         " (another executable on the device was compiled "
                         "for another target)");
      return address;
    }
  }
  // Where the device has an event mailbox (a GPU's slot of the process's
  // event page), the placeholder is it; elsewhere plain memory nobody reads.
  std::optional<uint64_t> mailbox = tag == PlaceholderTag::event_mailbox
                                        ? impl->getEventMailbox()
                                        : std::nullopt;
  if (mailbox && bytes > 8)
    return makeError(ErrorCode::FailedPrecondition, name,
                     ": an executable asks for ", bytes,
                     " bytes of the device's event_mailbox, which has 8");
  // Scratch is the GPU's alone; the rest the host reads or writes.
  Expected<uint64_t> address =
      mailbox
          ? Expected<uint64_t>(*mailbox)
          : allocate(bytes, tag == PlaceholderTag::scratch ? Placement::Device
                                                           : Placement::Host);
  if (!address)
    return address.takeError();
  if (tag == PlaceholderTag::timeline_value)
    word(*address).store(1);
  if (tag == PlaceholderTag::sentinel_signal)
    word(*address).store(~uint64_t(0));
  if (tag == PlaceholderTag::timeline_signal)
    flags->names.add(*address, "the " + name + " timeline");
  if (tag == PlaceholderTag::sentinel_signal)
    flags->names.add(*address, "the " + name + " sentinel");
  std::lock_guard<std::mutex> lock(mutex);
  placeholders.emplace(tag, std::make_pair(*address, bytes));
  return *address;
}

Expected<uint64_t> Device::getNumber(PlaceholderTag tag) {
  if (tag != PlaceholderTag::interrupt_event)
    return makeError(ErrorCode::InvalidFile, name, " gives no number for a ",
                     abi::getPlaceholderTagName(tag), " placeholder");
  return impl->getInterruptEventId();
}

Expected<Queue *> Device::getQueue(QueueName queue, PushMode mode) {
  std::string queueName = name + " " + queue.str();
  auto key = std::make_pair(queue.kind, queue.index);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = queues.find(key);
  if (it != queues.end()) {
    if (it->second.mode != mode)
      return makeError(ErrorCode::InvalidFile, queueName,
                       " takes pushes of another mode");
    return it->second.queue.get();
  }
  if (!impl->takesPushMode(mode))
    return makeError(ErrorCode::InvalidFile, "no queue of the ",
                     driver.getName(), " driver takes a push of mode ",
                     uint32_t(mode), " to ", queueName);
  // The queue's memory is the device's, freed after its queues stop.
  // (The lock is held: the block is recorded here, not by allocate().)
  auto allocateForQueue = [&](uint64_t bytes,
                              Placement placement) -> Expected<uint64_t> {
    uint64_t size;
    Expected<uint64_t> address = allocateBlock(bytes, placement, size);
    if (address)
      blocks.emplace(*address, size);
    return address;
  };
  Expected<std::unique_ptr<Queue>> created =
      impl->createQueue(queueName, mode, options, flags, allocateForQueue);
  if (!created)
    return created.takeError();
  return queues.emplace(key, DeviceQueue{mode, std::move(*created)})
      .first->second.queue.get();
}

Expected<uint64_t>
Device::loadProgram(const Kernel &kernel, Span<const uint8_t> image,
                    const std::function<Expected<hcq_amd_twin>()> &findTwin) {
  if (Error e = impl->checkProgram(kernel))
    return std::move(e);
  // Where programs run as CPU twins, the twin is found before any memory.
  hcq_amd_twin twin = nullptr;
  if (impl->runsTwins()) {
    Expected<hcq_amd_twin> found = findTwin();
    if (!found)
      return found.takeError();
    twin = *found;
  }
  Digest128 digest = digest128(image);
  uint64_t address;
  {
    std::unique_lock<std::mutex> lock(mutex);
    if (const uint64_t *loaded = programs.find(digest, image)) {
      address = *loaded;
    } else {
      lock.unlock();
      Expected<uint64_t> a =
          allocate(image.size(), Placement::DeviceHostWritten);
      if (!a)
        return a.takeError();
      std::memcpy(reinterpret_cast<void *>(*a), image.data(), image.size());
      lock.lock();
      if (const uint64_t *loaded = programs.find(digest, image)) {
        // Another thread loaded it meanwhile.
        address = *loaded;
        lock.unlock();
        free(*a);
      } else {
        address = programs.insert(digest, image, *a);
      }
    }
  }
  if (impl->runsTwins())
    impl->addTwin(address + kernel.amd.entryOffset, kernel, twin);
  return address;
}

Error Device::synchronize() {
  // The timeline reaches its host value - 1 (the last finalizer of every
  // run stored it); a queue that failed stops the wait.
  std::atomic<uint64_t> &timeline = word(timelineSignal);
  uint64_t target = word(timelineValue).load() - 1;
  std::chrono::milliseconds timeout = getTimeout();
  auto waitForTimeline = [&]() -> Error {
    if (waitUntil(
            [&] {
              return timeline.load() >= target ||
                     flags->error.load(std::memory_order_acquire);
            },
            timeline, timeout, getInterrupts()))
      return Error::success();
    return makeError(ErrorCode::DeadlineExceeded, "synchronize: the ", name,
                     " timeline stays at ", timeline.load(), ", below ",
                     target);
  };
  // A GPU's queues drain by themselves, and the timeline store raises the
  // interrupt the wait sleeps on: on a GPU that wait comes first, so the
  // queues have (nearly) drained when they are looked at.
  std::vector<Queue *> all;
  forEachQueue([&](Queue &q) { all.push_back(&q); });
  bool hardware = impl->isHardware();
  // A GPU queue that stops does not start again by itself (a driver resets
  // it): it is dead from then on, so every later run and wait fails at once
  // with its fault instead of waiting out the timeout again.
  auto stuck = [&](Queue &queue) {
    std::string what = queue.describeRunning() + " has not finished after " +
                       std::to_string(queue.waitTimeout().count()) + " ms";
    if (hardware && !queue.isDead()) {
      queue.reportStopped(what + " (the GPU's queues are stopped)");
      // The GPU's other queues may wait for it forever: all of them stop
      // before any memory they use is freed.
      for (Queue *other : all)
        other->halt();
    }
    return makeError(ErrorCode::DeadlineExceeded, queue.getName(), ": ", what);
  };
  if (hardware) {
    if (Error e = waitForTimeline()) {
      // A queue that has not got through its work names the hang better.
      for (Queue *queue : all)
        if (!queue->idle()) {
          consumeError(std::move(e));
          return stuck(*queue);
        }
      return e;
    }
  }
  // Every queue drains (a stuck wait times out and lets it go on); one
  // stuck in a kernel that does not return is a hang.
  for (Queue *queue : all)
    if (!queue->waitIdle())
      return stuck(*queue);
  return waitForTimeline();
}

//===----------------------------------------------------------------------===//
// ProcessDevices
//===----------------------------------------------------------------------===//

ProcessDevices &ProcessDevices::get() {
  // Never destroyed: queue threads left running in a stuck kernel, and
  // Runtimes destroyed by other static destructors, may still reach it.
  static ProcessDevices *devices = new ProcessDevices;
  return *devices;
}

std::shared_ptr<QueueFlags> ProcessDevices::acquireFlags() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!flags)
    flags = std::make_shared<QueueFlags>();
  ++flagsUsers;
  return flags;
}

void ProcessDevices::releaseFlags() {
  std::lock_guard<std::mutex> lock(mutex);
  if (--flagsUsers == 0)
    flags.reset();
}

Expected<std::shared_ptr<Device>>
ProcessDevices::open(Driver &driver, DeviceId id,
                     const DeviceOptions &options) {
  // Declared before the lock: a device whose last owner this turns out to
  // be is destroyed after it is released (its destructor takes it).
  std::shared_ptr<Device> device;
  std::unique_lock<std::mutex> lock(mutex);
  std::weak_ptr<Device> &slot =
      devices[std::make_pair(std::string(driver.getName()), id)];
  if ((device = slot.lock())) {
    std::string differs = device->getOptions().differingOption(options);
    if (!differs.empty())
      return makeError(ErrorCode::FailedPrecondition, id.str(), " (",
                       driver.getName(),
                       ") is open in this process with another ", differs,
                       ": every Runtime using a device must agree on it");
    return device;
  }
  if (Error e = driver.verifyOptions(options))
    return std::move(e);
  Expected<std::unique_ptr<DriverDevice>> impl =
      driver.createDevice(id, options);
  if (!impl)
    return impl.takeError();
  // The caller (a Runtime) holds the flags: they are the current ones.
  ++flagsUsers;
  device =
      std::make_shared<Device>(driver, id, options, std::move(*impl), flags);
  if (Error e = device->open()) {
    lock.unlock();
    device.reset();
    return std::move(e);
  }
  slot = device;
  return device;
}

std::vector<std::shared_ptr<Device>> ProcessDevices::openDevices() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::shared_ptr<Device>> open;
  for (auto &[key, slot] : devices)
    if (std::shared_ptr<Device> device = slot.lock())
      open.push_back(std::move(device));
  return open;
}

} // namespace hcq::runtime
