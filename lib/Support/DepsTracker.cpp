//===- DepsTracker.cpp - Byte-range dependency tracking -------------------===//

#include "HCQ/Support/DepsTracker.h"

#include "llvm/ADT/DenseSet.h"

using namespace llvm;

namespace hcq {

DepsTracker::IntervalList::FlatMap::const_iterator
DepsTracker::IntervalList::FlatMap::lower_bound(int64_t key) const {
  return std::lower_bound(entries.begin(), entries.end(), key, beginsBefore);
}

DepsTracker::IntervalList::FlatMap::iterator
DepsTracker::IntervalList::FlatMap::lower_bound(int64_t key) {
  return std::lower_bound(entries.begin(), entries.end(), key, beginsBefore);
}

std::pair<DepsTracker::IntervalList::FlatMap::iterator,
          DepsTracker::IntervalList::FlatMap::iterator>
DepsTracker::IntervalList::FlatMap::equal_range(int64_t key) {
  iterator first = lower_bound(key);
  return {first, std::upper_bound(first, end(), key, beginsAfter)};
}

void DepsTracker::IntervalList::FlatMap::insert(const Entry &entry) {
  entries.insert(std::upper_bound(entries.begin(), entries.end(), entry.first,
                                  beginsAfter),
                 entry);
}

template <typename Fn>
void DepsTracker::IntervalList::forEachOverlap(int64_t begin, int64_t end,
                                               Fn fn) const {
  // No interval is longer than maxLength, so none that begins before
  // begin - maxLength can reach begin.
  auto visit = [&](const auto &map) {
    for (auto it = map.lower_bound(begin - maxLength);
         it != map.end() && it->first < end; ++it)
      if (it->second.end > begin)
        fn(it->second.dep);
  };
  if (inTree)
    visit(tree);
  else
    visit(flat);
}

template <typename Map>
void DepsTracker::IntervalList::carve(Map &map, int64_t begin, int64_t end,
                                      int64_t maxLength) {
  SmallVector<std::pair<int64_t, Interval>> kept;
  for (auto it = map.lower_bound(begin - maxLength);
       it != map.end() && it->first < end;) {
    int64_t start = it->first;
    Interval interval = it->second;
    if (interval.end <= begin) {
      ++it;
      continue;
    }
    it = map.erase(it);
    if (start < begin)
      kept.push_back({start, {begin, interval.dep}});
    if (end < interval.end)
      kept.push_back({end, {interval.end, interval.dep}});
  }
  for (const auto &entry : kept)
    map.insert(entry);
}

void DepsTracker::IntervalList::carve(int64_t begin, int64_t end) {
  if (inTree)
    carve(tree, begin, end, maxLength);
  else
    carve(flat, begin, end, maxLength);
}

template <typename Map>
bool DepsTracker::IntervalList::replace(Map &map, int64_t begin, int64_t end,
                                        Dep dep) {
  auto [first, last] = map.equal_range(begin);
  for (auto it = first; it != last; ++it) {
    if (it->second.end == end && it->second.dep.stream == dep.stream) {
      it->second.dep = dep;
      return true;
    }
  }
  return false;
}

void DepsTracker::IntervalList::add(int64_t begin, int64_t end, Dep dep,
                                    bool replaceSameStream, size_t maxFlat) {
  if (replaceSameStream && (inTree ? replace(tree, begin, end, dep)
                                   : replace(flat, begin, end, dep)))
    return;
  maxLength = std::max(maxLength, end - begin);
  if (inTree) {
    tree.insert({begin, {end, dep}});
    return;
  }
  flat.insert({begin, {end, dep}});
  if (flat.size() <= maxFlat)
    return;
  // In order, each after those of its begin: the order they were added.
  for (const auto &entry : flat.entries)
    tree.insert(tree.end(), entry);
  flat.entries = {};
  inTree = true;
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
      ranges.writes.carve(a.begin, a.end);
      ranges.reads.carve(a.begin, a.end);
      ranges.writes.add(a.begin, a.end, dep, /*replaceSameStream=*/false,
                        maxFlatIntervals);
    } else {
      ranges.reads.add(a.begin, a.end, dep, /*replaceSameStream=*/true,
                       maxFlatIntervals);
    }
  }
  return waits;
}

} // namespace hcq
