//===- DepsTracker.cpp - Byte-range dependency tracking -------------------===//

#include "HCQ/Support/DepsTracker.h"

#include "llvm/ADT/DenseSet.h"

using namespace llvm;

namespace hcq {

template <typename Fn>
void DepsTracker::IntervalList::forEachOverlap(int64_t begin, int64_t end,
                                               Fn fn) const {
  // No interval is longer than maxLength, so none that begins before
  // begin - maxLength can reach begin.
  for (auto it = intervals.lower_bound(begin - maxLength);
       it != intervals.end() && it->first < end; ++it)
    if (it->second.end > begin)
      fn(it->second.dep);
}

/// The most nodes DepsTracker keeps for reuse: a write over many reads
/// frees the rest.
constexpr size_t MAX_SPARE_NODES = 64;

void DepsTracker::IntervalList::insert(int64_t begin, Interval interval,
                                       SpareNodes &spare) {
  if (spare.empty()) {
    intervals.insert({begin, interval});
    return;
  }
  IntervalMap::node_type node = std::move(spare.back());
  spare.pop_back();
  node.key() = begin;
  node.mapped() = interval;
  intervals.insert(std::move(node));
}

void DepsTracker::IntervalList::carve(int64_t begin, int64_t end,
                                      SpareNodes &spare) {
  SmallVector<std::pair<int64_t, Interval>> kept;
  for (auto it = intervals.lower_bound(begin - maxLength);
       it != intervals.end() && it->first < end;) {
    int64_t start = it->first;
    Interval interval = it->second;
    if (interval.end <= begin) {
      ++it;
      continue;
    }
    if (spare.size() < MAX_SPARE_NODES)
      spare.push_back(intervals.extract(it++));
    else
      it = intervals.erase(it);
    if (start < begin)
      kept.push_back({start, {begin, interval.dep}});
    if (end < interval.end)
      kept.push_back({end, {interval.end, interval.dep}});
  }
  for (auto &[start, interval] : kept)
    insert(start, interval, spare);
}

void DepsTracker::IntervalList::add(int64_t begin, int64_t end, Dep dep,
                                    bool replaceSameStream,
                                    SpareNodes &spare) {
  if (replaceSameStream) {
    auto [first, last] = intervals.equal_range(begin);
    for (auto it = first; it != last; ++it) {
      if (it->second.end == end && it->second.dep.stream == dep.stream) {
        it->second.dep = dep;
        return;
      }
    }
  }
  insert(begin, {end, dep}, spare);
  maxLength = std::max(maxLength, end - begin);
}

SmallVector<uint64_t> DepsTracker::access(ArrayRef<Access> accesses, Dep dep) {
  SmallVector<uint64_t> waits;
  // Most calls wait for a handful of others: keep the set inline.
  SmallDenseSet<uint64_t, 16> seen;
  auto wait = [&](Dep d) {
    if (seen.insert(d.id).second)
      waits.push_back(d.id);
  };
  // First every wait, then every update, so that a call reading and writing
  // one buffer waits only for earlier calls.
  for (const Access &a : accesses) {
    auto it = buffers.find({a.buffer.base, a.buffer.lane});
    if (it == buffers.end())
      continue;
    it->second.writes.forEachOverlap(a.begin, a.end, wait);
    if (a.write)
      it->second.reads.forEachOverlap(a.begin, a.end, wait);
  }
  for (const Access &a : accesses) {
    Ranges &ranges = buffers[{a.buffer.base, a.buffer.lane}];
    if (a.write) {
      ranges.writes.carve(a.begin, a.end, spare);
      ranges.reads.carve(a.begin, a.end, spare);
      ranges.writes.add(a.begin, a.end, dep, /*replaceSameStream=*/false,
                        spare);
    } else {
      ranges.reads.add(a.begin, a.end, dep, /*replaceSameStream=*/true, spare);
    }
  }
  return waits;
}

} // namespace hcq
