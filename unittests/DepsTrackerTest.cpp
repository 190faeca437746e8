//===- DepsTrackerTest.cpp - Byte-range dependency tracking ---------------===//

#include "HCQ/Support/DepsTracker.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <random>

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

// Tests that a buffer's interval list answers alike, waits in the same
// order, whether it is a multimap from its first interval (the tracker as it
// was), a sorted vector however long, or a vector that moves into a
// multimap past 32 intervals: random small and large ranges over three
// buffers and two lanes, so that some lists move and others do not.
TEST(DepsTracker, VectorAndMultimapListsAnswerAlikeOnRandomAccesses) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](int64_t n) {
      return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
    };
    const DepsTracker::BufferKey keys[] = {A, A1, B};
    DepsTracker tracker, multimaps(/*maxFlatIntervals=*/0),
        vectors(/*maxFlatIntervals=*/SIZE_MAX);
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
      auto waits = [&](DepsTracker &t) {
        llvm::SmallVector<uint64_t> ids = t.access(accesses, dep);
        return std::vector<uint64_t>(ids.begin(), ids.end());
      };
      std::vector<uint64_t> want = waits(multimaps);
      ASSERT_EQ(waits(tracker), want) << "seed " << seed << ", call " << call;
      ASSERT_EQ(waits(vectors), want) << "seed " << seed << ", call " << call;
    }
  }
}
