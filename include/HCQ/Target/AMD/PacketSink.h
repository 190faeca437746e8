//===- PacketSink.h - Where the packet builders write -----------*- C++ -*-===//
//
// The PM4 and SDMA builders (emit* in PM4.h, SDMA.h) write a whole packet
// into a sink, which is any type with:
//   s.packet(n)  before the packet: it has n dwords, header included (a
//                stream may pad there so no packet straddles the end of an
//                indirect buffer);
//   s.dword(d)   a 32-bit field known now (uint32_t);
//   s.low(q)     the low 32 bits of a quantity the sink may know only later:
//   s.high(q)    an address, a 64-bit datum, a signal value; the encoder's
//                sink turns them into symbolic words, DwordSink into bits.
// So one builder serves the compiler, which knows addresses only at link
// time, and tests and tools that build packets of plain dwords.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_PACKETSINK_H
#define HCQ_TARGET_AMD_PACKETSINK_H

#include <cstdint>
#include <vector>

namespace hcq::amd {

/// A sink of plain dwords: every quantity is a uint64_t.
struct DwordSink {
  std::vector<uint32_t> &out;

  void packet(uint32_t) {}
  void dword(uint32_t d) { out.push_back(d); }
  void low(uint64_t q) { out.push_back(static_cast<uint32_t>(q)); }
  void high(uint64_t q) { out.push_back(static_cast<uint32_t>(q >> 32)); }
};

} // namespace hcq::amd

#endif // HCQ_TARGET_AMD_PACKETSINK_H
