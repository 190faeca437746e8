//===- DepsTracker.h - Byte-range dependency tracking -----------*- C++ -*-===//
//
// Which earlier accesses a new access must wait for, per byte range of a
// buffer (tinygrad's DepsTracker). MLIR-free so it can be unit tested.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_SUPPORT_DEPSTRACKER_H
#define HCQ_SUPPORT_DEPSTRACKER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <map>

namespace hcq {

class DepsTracker {
public:
  /// Identifies a buffer's memory: any pointer-sized key plus a lane.
  struct BufferKey {
    const void *base;
    uint32_t lane;
  };
  /// One buffer access of a call: bytes [begin, end) of `buffer`.
  struct Access {
    BufferKey buffer;
    int64_t begin, end;
    bool write;
  };
  /// An access's owner: `id` names it to the caller; `stream` names the FIFO
  /// it runs on. A later read of the same range on the same stream replaces
  /// an earlier one, which keeps the read lists short without changing any
  /// answer (a writer waits only for the latest reader of a stream).
  struct Dep {
    uint64_t id;
    uint64_t stream;
  };

  /// Records the accesses of one call as `dep` and returns the ids of the
  /// earlier accesses it must wait for: writes overlapping any access
  /// (read-after-write, write-after-write) and reads overlapping a write
  /// (write-after-read). Each id appears once, in no particular order.
  llvm::SmallVector<uint64_t> access(llvm::ArrayRef<Access> accesses, Dep dep);

private:
  struct Interval {
    int64_t end;
    Dep dep;
  };
  using IntervalMap = std::multimap<int64_t, Interval>;
  /// Nodes of intervals carved out, kept for the next insertions: a chain
  /// of calls carves out what the next call adds back, and a node is a
  /// malloc and a free otherwise.
  using SpareNodes = llvm::SmallVector<IntervalMap::node_type, 8>;
  /// Intervals keyed by their begin. Writes never overlap each other (a new
  /// write carves its range out); reads may.
  struct IntervalList {
    IntervalMap intervals;
    int64_t maxLength = 0;

    template <typename Fn>
    void forEachOverlap(int64_t begin, int64_t end, Fn fn) const;
    void carve(int64_t begin, int64_t end, SpareNodes &spare);
    void add(int64_t begin, int64_t end, Dep dep, bool replaceSameStream,
             SpareNodes &spare);
    void insert(int64_t begin, Interval interval, SpareNodes &spare);
  };
  struct Ranges {
    IntervalList writes, reads;
  };

  llvm::DenseMap<std::pair<const void *, uint32_t>, Ranges> buffers;
  SpareNodes spare;
};

} // namespace hcq

#endif // HCQ_SUPPORT_DEPSTRACKER_H
