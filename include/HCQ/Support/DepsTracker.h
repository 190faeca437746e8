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

  /// `maxFlatIntervals`: how many intervals a buffer's list keeps in a
  /// sorted vector before it moves them to a multimap (IntervalList).
  explicit DepsTracker(size_t maxFlatIntervals = 32)
      : maxFlatIntervals(maxFlatIntervals) {}

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
  /// Intervals by their begin, those of one begin in the order they were
  /// added. Writes never overlap each other (a new write carves its range
  /// out); reads may.
  ///
  /// Most buffers hold an interval or two (a call reads or writes all of
  /// it): those are kept sorted in a small vector, no node allocated per
  /// access. A buffer with more than DepsTracker's maxFlatIntervals moves
  /// them to a multimap, whose inserts and erases stay logarithmic however
  /// many disjoint ranges it holds.
  class IntervalList {
  public:
    template <typename Fn>
    void forEachOverlap(int64_t begin, int64_t end, Fn fn) const;
    void carve(int64_t begin, int64_t end);
    void add(int64_t begin, int64_t end, Dep dep, bool replaceSameStream,
             size_t maxFlat);

  private:
    using Entry = std::pair<int64_t, Interval>;
    /// A sorted vector with the multimap's members the algorithms use.
    struct FlatMap {
      llvm::SmallVector<Entry, 2> entries;
      using iterator = Entry *;
      using const_iterator = const Entry *;
      iterator begin() { return entries.begin(); }
      iterator end() { return entries.end(); }
      const_iterator end() const { return entries.end(); }
      size_t size() const { return entries.size(); }
      const_iterator lower_bound(int64_t key) const;
      iterator lower_bound(int64_t key);
      std::pair<iterator, iterator> equal_range(int64_t key);
      iterator erase(iterator it) { return entries.erase(it); }
      /// After those of the same begin, as std::multimap::insert.
      void insert(const Entry &entry);
      static bool beginsBefore(const Entry &entry, int64_t key) {
        return entry.first < key;
      }
      static bool beginsAfter(int64_t key, const Entry &entry) {
        return key < entry.first;
      }
    };

    template <typename Map>
    static void carve(Map &map, int64_t begin, int64_t end, int64_t maxLength);
    template <typename Map>
    static bool replace(Map &map, int64_t begin, int64_t end, Dep dep);

    FlatMap flat;
    std::multimap<int64_t, Interval> tree;
    bool inTree = false;
    int64_t maxLength = 0;
  };
  struct Ranges {
    IntervalList writes, reads;
  };

  llvm::DenseMap<std::pair<const void *, uint32_t>, Ranges> buffers;
  size_t maxFlatIntervals;
};

} // namespace hcq

#endif // HCQ_SUPPORT_DEPSTRACKER_H
