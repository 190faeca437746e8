//===- Entry.h - The CPU queue's entry format -------------------*- C++ -*-===//
//
// A CPU queue is a ring of fixed-size entries that a worker thread runs in
// order. Shared by hcq-encode (the CPU target) and the runtime; documented in
// docs/cpu-queue.md.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_CPU_ENTRY_H
#define HCQ_TARGET_CPU_ENTRY_H

#include <cstdint>

namespace hcq::cpu {

/// Words of one entry: word 0 is the function the worker calls, words 1..7
/// its arguments; unused words are zero. 64 bytes, one cache line. (The
/// seed's entries are 64 words: one function pointer and 63 arguments,
/// because its kernels take their buffers as arguments; ours take a pointer
/// to their kernel arguments instead.)
constexpr unsigned ENTRY_WORDS = 8;
constexpr unsigned ENTRY_BYTES = ENTRY_WORDS * 8;

/// Every entry function has this signature: it gets words 1..7.
using EntryFunction = void (*)(const uint64_t *args);

/// The runtime's entry functions. The compiler refers to them as
/// `hcq.placeholder host_function slot <id>`; the link puts their address in
/// word 0.
enum class HostFunction : uint32_t {
  /// args: kernel function, kernargs address, global x, y, z. Calls the
  /// kernel once per workgroup.
  Launch = 0,
  /// args: signal address, value. Returns once *signal >= value.
  Wait = 1,
  /// args: signal address, value. Stores value.
  Signal = 2,
  /// args: slot address. Stores the clock in nanoseconds.
  Timestamp = 3,
  /// args: destination address, source address, byte count.
  Copy = 4,
};
constexpr uint32_t NUM_HOST_FUNCTIONS = 5;

inline const char *getHostFunctionName(HostFunction f) {
  switch (f) {
  case HostFunction::Launch:
    return "launch";
  case HostFunction::Wait:
    return "wait";
  case HostFunction::Signal:
    return "signal";
  case HostFunction::Timestamp:
    return "timestamp";
  case HostFunction::Copy:
    return "copy";
  }
  return "?";
}

/// A CPU kernel's C ABI: called once per workgroup of the global grid with
/// its kernel arguments (each buffer's address, then each bound variable, one
/// 64-bit word each, in the kernel's signature order) and the workgroup's
/// coordinates.
using KernelFunction = void (*)(const uint64_t *kernargs, uint32_t x,
                                uint32_t y, uint32_t z);

} // namespace hcq::cpu

#endif // HCQ_TARGET_CPU_ENTRY_H
