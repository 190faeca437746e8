//===- DepsTrackerTest.cpp - Byte-range dependency tracking ---------------===//

#include "HCQ/Support/DepsTracker.h"

#include "gtest/gtest.h"

#include <algorithm>

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
