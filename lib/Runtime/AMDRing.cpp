//===- AMDRing.cpp - The host side of an AMD user-mode queue --------------===//
//
// The KFD user-mode queue protocol as the host follows it (Queues.h,
// AMDRing), for every AMD driver: the emulated device's command processors
// and a GPU's execute what it pushes.
//
//===----------------------------------------------------------------------===//

#include "Queues.h"

#include "HCQ/Target/AMD/PM4.h"

#include <cstring>

namespace hcq::runtime {

Error verifyAMDRingBytes(uint64_t ringBytes) {
  bool powerOfTwo = ringBytes && !(ringBytes & (ringBytes - 1));
  if (!powerOfTwo || ringBytes < AMD_MIN_RING_BYTES ||
      ringBytes > (uint64_t(1) << 31))
    return makeError(ErrorCode::InvalidArgument,
                     "RuntimeOptions::ringBytes must be a power of two from ",
                     AMD_MIN_RING_BYTES, " to 2^31 for AMD queues, got ",
                     ringBytes);
  return Error::success();
}

AMDRing::AMDRing(std::string name, bool pm4, const RingMemory &memory,
                 std::chrono::milliseconds timeout,
                 std::shared_ptr<QueueFlags> flags, uint64_t reservedUnits)
    : Queue(std::move(name), memory, timeout, std::move(flags)), isPM4(pm4),
      done(pm4 && memory.done ? &word(memory.done) : nullptr),
      reservedUnits(reservedUnits), doorbell(word(memory.doorbell)) {}

uint64_t AMDRing::maxPushBytes() const {
  uint64_t unit = isPM4 ? 4 : 1;
  uint64_t capacity = (ringBytes / unit - reservedUnits) * unit;
  if (isPM4)
    return capacity - (done ? 4 * COMPLETION_DWORDS : 0);
  // An SDMA push that would wrap starts at offset 0 instead (pushSDMA), so
  // it may need its size again in skipped tail: half the ring always fits.
  return capacity / 2 / 4 * 4;
}

Error AMDRing::push(const uint8_t *source, uint64_t bytes) {
  if (bytes % 4 || bytes > maxPushBytes())
    return runtimeError(
        getName() + ": cannot push " + std::to_string(bytes) +
        " bytes into a " + std::to_string(ringBytes) + "-byte ring (at most " +
        std::to_string(maxPushBytes()) + " in one push, in dwords)");
  if (isPM4)
    return pushPM4(source, bytes / 4);
  return pushSDMA(source, bytes);
}

uint64_t AMDRing::readPointer() const {
  // The completion store of the last push the queue finished: the CP read
  // everything before it (it executed the RELEASE_MEM), so the ring up to
  // it may be refilled, and it is exact where the CP's own read-pointer
  // report is coarse or late. tinygrad likewise never reads a compute
  // queue's read pointer: it waits on the signals its submits end with.
  if (done)
    return done->load(std::memory_order_acquire);
  return Queue::readPointer();
}

namespace {
/// Writes dwords into a ring from a position, wrapping at its end.
struct RingWriter {
  uint8_t *ring;
  uint64_t ringDwords, at;
  void dword(uint32_t value) {
    std::memcpy(ring + 4 * (at++ % ringDwords), &value, 4);
  }
  void packet(uint32_t) {}
  void low(uint64_t value) { dword(uint32_t(value)); }
  void high(uint64_t value) { dword(uint32_t(value >> 32)); }
};
} // namespace

/// PM4: pointers count dwords; the packet wraps dword by dword, followed by
/// the completion store (when the queue has a completion word).
Error AMDRing::pushPM4(const uint8_t *source, uint64_t dwords) {
  uint64_t ringDwords = ringBytes / 4, p = putPointer.load();
  uint64_t taken = dwords + (done ? COMPLETION_DWORDS : 0);
  if (Error e = waitForRoom(p, taken, ringDwords - reservedUnits,
                            "the command processor"))
    return e;
  RingWriter writer{ring, ringDwords, p};
  for (uint64_t i = 0; i < dwords; ++i) {
    uint32_t value;
    std::memcpy(&value, source + 4 * i, 4);
    writer.dword(value);
  }
  if (done) {
    // At end of pipe (after everything before it in the queue finished),
    // the write pointer after this push, 64 bits, no interrupt and no cache
    // action: the host only compares it [nvd/s15 PACKET3_RELEASE_MEM;
    // DST_SEL 0, memory]. It is the last packet of the push, so once it
    // arrived the CP has read the whole push.
    namespace pm4 = amd::pm4;
    pm4::emitReleaseMem(writer,
                        pm4::releaseEvent(pm4::CACHE_FLUSH_AND_INV_TS_EVENT,
                                          pm4::EVENT_INDEX_END_OF_PIPE),
                        pm4::releaseSelect(pm4::DATA_SEL_64, pm4::INT_SEL_NONE),
                        reinterpret_cast<uint64_t>(done), p + taken,
                        uint64_t(0));
  }
  publish(p + taken, &doorbell);
  return Error::success();
}

/// SDMA: pointers count bytes; a command buffer that would wrap starts at
/// offset 0 instead, the tail zeroed (zero dwords are SDMA NOPs).
Error AMDRing::pushSDMA(const uint8_t *source, uint64_t bytes) {
  uint64_t p = putPointer.load();
  uint64_t tail = ringBytes - p % ringBytes;
  uint64_t skip = bytes > tail ? tail : 0;
  if (Error e = waitForRoom(p, skip + bytes, ringBytes - reservedUnits,
                            "the command processor"))
    return e;
  if (skip) {
    std::memset(ring + p % ringBytes, 0, skip);
    p += skip;
  }
  std::memcpy(ring + p % ringBytes, source, bytes);
  publish(p + bytes, &doorbell);
  return Error::success();
}

} // namespace hcq::runtime
