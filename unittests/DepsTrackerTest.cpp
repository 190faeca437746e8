//===- DepsTrackerTest.cpp - Byte-range dependency tracking ---------------===//

#include "HCQ/Support/DepsTracker.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace hcq;

namespace {
int bufferA, bufferB;
const DepsTracker::BufferKey A{&bufferA, 0}, A1{&bufferA, 1}, B{&bufferB, 0};

std::vector<uint64_t> sorted(llvm::SmallVector<uint64_t> ids) {
  std::vector<uint64_t> v(ids.begin(), ids.end());
  std::sort(v.begin(), v.end());
  return v;
}

DepsTracker::Access read(DepsTracker::BufferKey b, int64_t s, int64_t e) {
  return {b, s, e, false};
}
DepsTracker::Access write(DepsTracker::BufferKey b, int64_t s, int64_t e) {
  return {b, s, e, true};
}
} // namespace

TEST(DepsTracker, ReadAfterWriteWaits) {
  DepsTracker t;
  EXPECT_TRUE(t.access({write(A, 0, 64)}, {1, 0}).empty());
  EXPECT_EQ(sorted(t.access({read(A, 0, 64)}, {2, 1})),
            std::vector<uint64_t>{1});
}

TEST(DepsTracker, WriteAfterReadWaits) {
  DepsTracker t;
  t.access({read(A, 0, 64)}, {1, 0});
  EXPECT_EQ(sorted(t.access({write(A, 0, 64)}, {2, 1})),
            std::vector<uint64_t>{1});
}

TEST(DepsTracker, WriteAfterWriteWaits) {
  DepsTracker t;
  t.access({write(A, 0, 64)}, {1, 0});
  EXPECT_EQ(sorted(t.access({write(A, 0, 64)}, {2, 1})),
            std::vector<uint64_t>{1});
}

TEST(DepsTracker, ReadsDoNotWaitOnReads) {
  DepsTracker t;
  t.access({read(A, 0, 64)}, {1, 0});
  EXPECT_TRUE(t.access({read(A, 0, 64)}, {2, 1}).empty());
}

TEST(DepsTracker, DisjointRangesDoNotWait) {
  DepsTracker t;
  t.access({write(A, 0, 32)}, {1, 0});
  EXPECT_TRUE(t.access({write(A, 32, 64)}, {2, 1}).empty());
  EXPECT_EQ(sorted(t.access({read(A, 16, 48)}, {3, 2})),
            (std::vector<uint64_t>{1, 2}));
}

TEST(DepsTracker, LanesAndBuffersAreSeparate) {
  DepsTracker t;
  t.access({write(A, 0, 64)}, {1, 0});
  EXPECT_TRUE(t.access({read(A1, 0, 64)}, {2, 1}).empty());
  EXPECT_TRUE(t.access({read(B, 0, 64)}, {3, 1}).empty());
}

TEST(DepsTracker, WriteCarvesEarlierRanges) {
  DepsTracker t;
  t.access({write(A, 0, 64)}, {1, 0});
  t.access({write(A, 16, 32)}, {2, 1});
  // [0,16) and [32,64) still belong to 1, [16,32) to 2.
  EXPECT_EQ(sorted(t.access({read(A, 0, 8)}, {3, 2})),
            std::vector<uint64_t>{1});
  EXPECT_EQ(sorted(t.access({read(A, 20, 24)}, {4, 2})),
            std::vector<uint64_t>{2});
  EXPECT_EQ(sorted(t.access({read(A, 40, 48)}, {5, 2})),
            std::vector<uint64_t>{1});
}

TEST(DepsTracker, WriteClearsReaders) {
  DepsTracker t;
  t.access({read(A, 0, 64)}, {1, 0});
  t.access({write(A, 0, 64)}, {2, 1});
  // The reader is covered by the write: a later write waits only on it.
  EXPECT_EQ(sorted(t.access({write(A, 0, 64)}, {3, 2})),
            std::vector<uint64_t>{2});
}

TEST(DepsTracker, SameCallReadWriteWaitsOnlyOnEarlier) {
  DepsTracker t;
  t.access({write(A, 0, 64)}, {1, 0});
  EXPECT_EQ(sorted(t.access({read(A, 0, 64), write(A, 0, 64)}, {2, 0})),
            std::vector<uint64_t>{1});
  EXPECT_EQ(sorted(t.access({read(A, 0, 64)}, {3, 1})),
            std::vector<uint64_t>{2});
}

TEST(DepsTracker, LaterReadOnSameStreamReplacesEarlier) {
  DepsTracker t;
  t.access({read(A, 0, 64)}, {1, 7});
  t.access({read(A, 0, 64)}, {2, 7});
  t.access({read(A, 0, 64)}, {3, 8});
  EXPECT_EQ(sorted(t.access({write(A, 0, 64)}, {4, 9})),
            (std::vector<uint64_t>{2, 3}));
}

TEST(DepsTracker, LongIntervalFoundFromFarRight) {
  DepsTracker t;
  t.access({write(A, 0, 1 << 20)}, {1, 0});
  for (int i = 0; i < 100; ++i)
    t.access({read(B, i * 4, i * 4 + 4)}, {uint64_t(10 + i), 1});
  EXPECT_EQ(sorted(t.access({read(A, (1 << 20) - 4, 1 << 20)}, {200, 2})),
            std::vector<uint64_t>{1});
}

namespace {
/// DepsTracker as it was before it kept small interval lists in a vector:
/// every list a std::multimap. The differential test below holds the two
/// to the same answers, in the same order.
class MultimapDepsTracker {
public:
  llvm::SmallVector<uint64_t> access(llvm::ArrayRef<DepsTracker::Access> as,
                                     DepsTracker::Dep dep) {
    llvm::SmallVector<uint64_t> waits;
    std::set<uint64_t> seen;
    auto wait = [&](DepsTracker::Dep d) {
      if (seen.insert(d.id).second)
        waits.push_back(d.id);
    };
    for (const DepsTracker::Access &a : as) {
      auto it = buffers.find({a.buffer.base, a.buffer.lane});
      if (it == buffers.end())
        continue;
      it->second.writes.forEachOverlap(a.begin, a.end, wait);
      if (a.write)
        it->second.reads.forEachOverlap(a.begin, a.end, wait);
    }
    for (const DepsTracker::Access &a : as) {
      Ranges &ranges = buffers[{a.buffer.base, a.buffer.lane}];
      if (a.write) {
        ranges.writes.carve(a.begin, a.end);
        ranges.reads.carve(a.begin, a.end);
        ranges.writes.add(a.begin, a.end, dep, false);
      } else {
        ranges.reads.add(a.begin, a.end, dep, true);
      }
    }
    return waits;
  }

private:
  struct Interval {
    int64_t end;
    DepsTracker::Dep dep;
  };
  struct List {
    std::multimap<int64_t, Interval> intervals;
    int64_t maxLength = 0;
    template <typename Fn>
    void forEachOverlap(int64_t begin, int64_t end, Fn fn) const {
      for (auto it = intervals.lower_bound(begin - maxLength);
           it != intervals.end() && it->first < end; ++it)
        if (it->second.end > begin)
          fn(it->second.dep);
    }
    void carve(int64_t begin, int64_t end) {
      std::vector<std::pair<int64_t, Interval>> kept;
      for (auto it = intervals.lower_bound(begin - maxLength);
           it != intervals.end() && it->first < end;) {
        int64_t start = it->first;
        Interval interval = it->second;
        if (interval.end <= begin) {
          ++it;
          continue;
        }
        it = intervals.erase(it);
        if (start < begin)
          kept.push_back({start, {begin, interval.dep}});
        if (end < interval.end)
          kept.push_back({end, {interval.end, interval.dep}});
      }
      for (auto &entry : kept)
        intervals.insert(entry);
    }
    void add(int64_t begin, int64_t end, DepsTracker::Dep dep,
             bool replaceSameStream) {
      if (replaceSameStream) {
        auto [first, last] = intervals.equal_range(begin);
        for (auto it = first; it != last; ++it)
          if (it->second.end == end && it->second.dep.stream == dep.stream) {
            it->second.dep = dep;
            return;
          }
      }
      intervals.insert({begin, {end, dep}});
      maxLength = std::max(maxLength, end - begin);
    }
  };
  struct Ranges {
    List writes, reads;
  };
  std::map<std::pair<const void *, uint32_t>, Ranges> buffers;
};
} // namespace

// Tests that DepsTracker answers random accesses exactly as the multimap
// tracker did, waits in the same order: small and large ranges over three
// buffers and two lanes, so that some interval lists stay small and others
// grow past the vector's limit into a multimap.
TEST(DepsTracker, AnswersAsTheMultimapTrackerOnRandomAccesses) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int64_t n) {
      return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
    };
    const DepsTracker::BufferKey keys[] = {A, A1, B};
    DepsTracker tracker;
    MultimapDepsTracker reference;
    // Some seeds keep ranges short (many disjoint intervals), others long.
    int64_t maxLength = seed % 2 ? 8 : 512;
    for (uint64_t call = 0; call < 3000; ++call) {
      std::vector<DepsTracker::Access> accesses;
      for (int64_t n = 1 + pick(3); n > 0; --n) {
        int64_t begin = pick(1024);
        accesses.push_back({keys[pick(3)], begin, begin + 1 + pick(maxLength),
                            pick(3) == 0});
      }
      DepsTracker::Dep dep{call, uint64_t(pick(3))};
      llvm::SmallVector<uint64_t> got = tracker.access(accesses, dep);
      llvm::SmallVector<uint64_t> want = reference.access(accesses, dep);
      ASSERT_EQ(std::vector<uint64_t>(got.begin(), got.end()),
                std::vector<uint64_t>(want.begin(), want.end()))
          << "seed " << seed << ", call " << call;
    }
  }
}
