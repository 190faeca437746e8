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
//                sink turns them into symbolic words, DwordSink into bits;
// and may have
//   s.lowHigh(q) s.low(q) then s.high(q), which the builders ask through
//                lowHigh(s, q) for a field's two halves side by side: a
//                sink may keep them as one 64-bit quantity (the encoder's
//                pushes one symbol entry for both).
// So one builder serves the compiler, which knows addresses only at link
// time, and tests and tools that build packets of plain dwords.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_PACKETSINK_H
#define HCQ_TARGET_AMD_PACKETSINK_H

#include <cstdint>
#include <type_traits>
#include <utility>
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

namespace detail {
template <typename Sink, typename Quantity, typename = void>
struct HasLowHigh : std::false_type {};
template <typename Sink, typename Quantity>
struct HasLowHigh<Sink, Quantity,
                  std::void_t<decltype(std::declval<Sink &>().lowHigh(
                      std::declval<const Quantity &>()))>> : std::true_type {};
} // namespace detail

/// `q`'s low then high 32 bits into `s`: s.lowHigh(q) where the sink has it
/// for `q`, else s.low(q), s.high(q).
template <typename Sink, typename Quantity>
void lowHigh(Sink &s, const Quantity &q) {
  if constexpr (detail::HasLowHigh<Sink, Quantity>::value) {
    s.lowHigh(q);
  } else {
    s.low(q);
    s.high(q);
  }
}

} // namespace hcq::amd

#endif // HCQ_TARGET_AMD_PACKETSINK_H
