//===- BaseTest.cpp - The runtime's LLVM-free base ------------------------===//
//
// Each helper against LLVM's version of the same thing where there is one
// (the file checksum must stay zlib's CRC-32, which older files carry).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Base/Bytes.h"
#include "HCQ/Base/Error.h"
#include "HCQ/Base/Ranges.h"
#include "HCQ/Base/Span.h"
#include "HCQ/Base/Strings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CRC.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace hcq;

namespace {

TEST(Base, Crc32IsZlibs) {
  const char *check = "123456789"; // the CRC-32 check value's input
  EXPECT_EQ(
      crc32(Span<const uint8_t>(reinterpret_cast<const uint8_t *>(check), 9)),
      0xCBF43926u);
  std::mt19937 random(7);
  for (size_t size : {0, 1, 7, 8, 255, 4096}) {
    std::vector<uint8_t> bytes(size);
    for (uint8_t &b : bytes)
      b = uint8_t(random());
    EXPECT_EQ(crc32(bytes), llvm::crc32(llvm::ArrayRef<uint8_t>(bytes)))
        << size << " bytes";
  }
}

TEST(Base, DigestSeesEveryByteAndTheLength) {
  std::vector<uint8_t> bytes(100, 0);
  std::set<std::pair<uint64_t, uint64_t>> seen;
  auto add = [&](Span<const uint8_t> b) {
    Digest128 d = digest128(b);
    return seen.insert({d.low, d.high}).second;
  };
  EXPECT_TRUE(add(bytes));
  // Every single-bit change, and every shorter zero prefix (padding must not
  // make lengths agree), gives a digest of its own.
  for (size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      bytes[i] ^= uint8_t(1 << bit);
      EXPECT_TRUE(add(bytes)) << "byte " << i << " bit " << bit;
      bytes[i] ^= uint8_t(1 << bit);
    }
  for (size_t n = 0; n < bytes.size(); ++n)
    EXPECT_TRUE(add(Span<const uint8_t>(bytes.data(), n))) << n << " zeros";
}

TEST(Base, NumbersParseWholeOrNotAtAll) {
  EXPECT_EQ(parseUnsigned("0"), 0u);
  EXPECT_EQ(parseUnsigned("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parseUnsigned("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parseUnsigned("0x1F", 16), 31u);
  EXPECT_EQ(parseUnsigned("1f", 16), 31u);
  for (const char *bad : {"", "-1", "+1", " 1", "1 ", "12a", "0x1F"})
    EXPECT_EQ(parseUnsigned(bad), std::nullopt) << bad;
  EXPECT_EQ(parseSigned("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(parseSigned("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(parseSigned("9223372036854775808"), std::nullopt);
  EXPECT_EQ(parseSigned("-"), std::nullopt);
}

TEST(Base, StringsSplitTrimAndHex) {
  EXPECT_EQ(splitAll(",a,,b,", ','), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_TRUE(splitAll("", ',').empty());
  auto [head, tail] = splitOnce("AMD:1:2", ':');
  EXPECT_EQ(head, "AMD");
  EXPECT_EQ(tail, "1:2");
  EXPECT_EQ(splitOnce("AMD", ':').second, "");
  EXPECT_EQ(trim(" \t x y \n"), "x y");
  EXPECT_EQ(trim("   "), "");
  EXPECT_EQ(toHex(0), "0");
  EXPECT_EQ(toHex(0xdeadbeef), "deadbeef");
  EXPECT_EQ(toHex(0xdeadbeef, /*upper=*/true), "DEADBEEF");
  EXPECT_EQ(toHex(UINT64_MAX), "ffffffffffffffff");
}

TEST(Base, ErrorsCarryTheirMessageAndValuesTheirValue) {
  Error ok = Error::success();
  EXPECT_FALSE(ok);
  Error bad = makeError("queue ", 3u, " of ", std::string("AMD:1"), ": ",
                        uint8_t(7), '!', int64_t(-2));
  ASSERT_TRUE(bad);
  EXPECT_EQ(toString(std::move(bad)), "queue 3 of AMD:1: 7!-2");

  Expected<std::unique_ptr<int>> value = std::make_unique<int>(5);
  ASSERT_TRUE(value);
  EXPECT_EQ(**value, 5);
  EXPECT_FALSE(value.takeError());
  Expected<int> failed = makeError("no");
  ASSERT_FALSE(failed);
  EXPECT_EQ(toString(failed.takeError()), "no");

  int target = 1;
  Expected<int &> reference = target;
  *reference = 9; // refers, does not copy
  EXPECT_EQ(target, 9);
}

TEST(Base, ErrorsKeepTheirCodeThroughContext) {
  Error plain = makeError("no");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain.code(), ErrorCode::Internal);
  Error hang = makeError(ErrorCode::DeadlineExceeded, "queue ", 3u, " stuck");
  ASSERT_TRUE(hang);
  EXPECT_EQ(hang.code(), ErrorCode::DeadlineExceeded);
  EXPECT_EQ(hang.message(), "queue 3 stuck");
  Error named = prependContext("AMD:0: ", std::move(hang));
  EXPECT_EQ(named.code(), ErrorCode::DeadlineExceeded);
  EXPECT_EQ(named.message(), "AMD:0: queue 3 stuck");
  EXPECT_STREQ(getErrorCodeName(ErrorCode::DeviceFault), "device fault");
  Expected<int> missing =
      Error::failure(ErrorCode::Unavailable, "no AMD:7 here");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.takeError().code(), ErrorCode::Unavailable);
}

TEST(Base, EnumerateGivesIndexAndReference) {
  std::vector<int> values = {10, 20, 30};
  for (auto [i, v] : enumerate(values))
    v += int(i);
  EXPECT_EQ(values, (std::vector<int>{10, 21, 32}));
  EXPECT_TRUE(isContained(values, 21));
  EXPECT_FALSE(isContained(values, 20));
}

} // namespace
