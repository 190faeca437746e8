//===- LinkTest.cpp - The shared link -------------------------------------===//

#include "HCQ/Runtime/Link.h"

#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace hcq::runtime;

namespace {

std::vector<uint8_t> codeObject() {
  auto buffer =
      llvm::MemoryBuffer::getFile(HCQ_TEST_INPUTS "/kernels-gfx1100.co");
  EXPECT_TRUE(static_cast<bool>(buffer));
  if (!buffer)
    return {};
  return std::vector<uint8_t>((*buffer)->getBufferStart(),
                              (*buffer)->getBufferEnd());
}

Value placeholder(PlaceholderTag tag, int64_t slot, uint64_t bytes,
                  std::vector<DeviceId> devices) {
  Value v;
  v.kind = ValueKind::Placeholder;
  v.tag = tag;
  v.slot = slot;
  v.bytes = bytes;
  v.devices = std::move(devices);
  return v;
}

/// A command buffer patched with a signal's halves and a program's entry
/// (>> 8, with a flag bit), on two lanes.
Executable sample() {
  Executable exe;
  exe.name = "linked";
  const std::vector<DeviceId> lanes = {{hcq::DeviceKind::AMD, 0},
                                       {hcq::DeviceKind::AMD, 1}};
  exe.values.push_back(placeholder(PlaceholderTag::cmdbuf, 1, 128, lanes)); // 0
  exe.values.push_back(placeholder(PlaceholderTag::signal, 2, 8, lanes));   // 1
  exe.values.push_back(placeholder(PlaceholderTag::signal, 2, 8,
                                   {{hcq::DeviceKind::AMD, 1}})); // 2: lane 1's
  Value program;
  program.kind = ValueKind::Program;
  program.index = 0;
  program.devices = lanes;
  exe.values.push_back(program); // 3
  // As the compiler stores it: the loaded image and the descriptor's facts.
  std::vector<uint8_t> code = codeObject();
  auto info = hcq::amd::readKernel(
      llvm::StringRef(reinterpret_cast<const char *>(code.data()), code.size()),
      "vadd");
  EXPECT_TRUE(static_cast<bool>(info));
  if (info) {
    exe.images.push_back(info->image);
    exe.kernels.push_back({"vadd", KernelTarget::amd, "vadd", "",
                           AMDKernelFacts::of(*info, /*image=*/0)});
  }
  Blob blob;
  blob.target = 0;
  blob.data.assign(128, 0xbe);
  blob.patches.push_back(
      {0, Word{{WordKind::address, WordPart::lo, 0, 0, 0}, {1}}});
  blob.patches.push_back(
      {4, Word{{WordKind::address, WordPart::hi, 0, 0, 0}, {1}}});
  blob.patches.push_back(
      {8, Word{{WordKind::address, WordPart::lo, 8, 256, 0x1}, {3}}});
  exe.blobs.push_back(blob);
  return exe;
}

uint32_t word32(const std::vector<uint8_t> &bytes, size_t at) {
  return bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 |
         uint32_t(bytes[at + 3]) << 24;
}

} // namespace

TEST(Link, PatchesEveryLaneWithItsAddresses) {
  AddressMap memory(0x100000000);
  auto linked = link(sample(), memory);
  ASSERT_TRUE(static_cast<bool>(linked)) << hcq::toString(linked.takeError());
  const auto &addresses = linked->addresses;
  // A placeholder's lane and the single-device placeholder with its tag,
  // slot and device are one memory.
  EXPECT_EQ(addresses[1][1], addresses[2][0]);
  EXPECT_NE(addresses[1][0], addresses[1][1]);
  ASSERT_EQ(linked->blobs[0].size(), 2u);
  for (unsigned lane = 0; lane < 2; ++lane) {
    const std::vector<uint8_t> &bytes = linked->blobs[0][lane];
    EXPECT_EQ(word32(bytes, 0), uint32_t(addresses[1][lane]));
    EXPECT_EQ(word32(bytes, 4), uint32_t(addresses[1][lane] >> 32));
    EXPECT_EQ(word32(bytes, 8), uint32_t((addresses[3][lane] + 256) >> 8) | 1u);
    EXPECT_EQ(bytes[12], 0xbe); // unpatched bytes stay
  }
}

TEST(Link, ProgramsAreLoadedOncePerDeviceAcrossExecutables) {
  AddressMap memory(0x100000000);
  Executable first = sample(), second = sample();
  second.name = "other";
  auto a = link(first, memory);
  auto b = link(second, memory);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(memory.programLoads(), 2u); // two devices
  EXPECT_EQ(a->addresses[3], b->addresses[3]);
  // Other memory is the executable's own.
  EXPECT_NE(a->addresses[0], b->addresses[0]);
}

TEST(Link, CacheReturnsTheFirstLinkOfTheSameContent) {
  AddressMap memory(0x100000000);
  LinkCache cache;
  auto a = cache.link(sample(), memory);
  ASSERT_TRUE(static_cast<bool>(a));
  std::vector<std::vector<uint64_t>> first = a->addresses;
  auto b = cache.link(sample(), memory);
  ASSERT_TRUE(static_cast<bool>(b));
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(b->addresses, first);
  Executable changed = sample();
  changed.blobs[0].data[100] = 0;
  ASSERT_TRUE(static_cast<bool>(cache.link(changed, memory)));
  EXPECT_EQ(cache.size(), 2u);
}

TEST(Link, AKernelInAnImageTheFileDoesNotHaveIsAnError) {
  // The reader refuses such a file; link, which may be given an executable
  // built in memory, refuses it too instead of reading past the images.
  AddressMap memory(0x100000000);
  Executable exe = sample();
  exe.kernels[0].amd.image = 7;
  auto linked = link(exe, memory);
  ASSERT_FALSE(static_cast<bool>(linked));
  EXPECT_EQ(hcq::toString(linked.takeError()),
            "link: kernel vadd is in image 7 of 1");
}

TEST(Link, CraftedBlobsAndPatchesAreRefusedNotWrittenOutOfBounds) {
  auto linkError = [](const Executable &exe) {
    AddressMap memory(0x100000000);
    auto linked = link(exe, memory);
    return linked ? std::string() : hcq::toString(linked.takeError());
  };
  ASSERT_EQ(linkError(sample()), "");
  // A blob larger than the memory it is written into.
  Executable exe = sample();
  exe.blobs[0].data.resize(129, 0);
  EXPECT_EQ(linkError(exe),
            "link: blob 0 of 129 bytes does not fit its 128-byte value");
  // A blob written into an input (the run's memory) or a program.
  exe = sample();
  Value input;
  input.kind = ValueKind::Input;
  input.bytes = 1024;
  input.devices = {{hcq::DeviceKind::AMD, 0}};
  exe.values.push_back(input);
  exe.numArgs = 1;
  exe.arguments = {{"in", true, "f32", 256, ArgumentAccess::read}};
  exe.blobs[0].target = 4;
  EXPECT_EQ(linkError(exe),
            "link: blob 0 is written into value 4, which is no linked memory");
  exe.blobs[0].target = 3;
  EXPECT_EQ(linkError(exe),
            "link: blob 0 is written into value 3, which is no linked memory");
  // A patch taking the address of a value on no device (no lanes), or of
  // one with fewer lanes than the blob.
  exe = sample();
  exe.values.push_back(
      placeholder(PlaceholderTag::signal, 9, 8, /*devices=*/{}));
  exe.blobs[0].patches[0].second.refs = {4};
  EXPECT_EQ(linkError(exe), "link: a blob patch takes the address of value "
                            "4, which is no linked memory of the blob's lanes");
  exe.blobs[0].patches[0].second.refs = {2}; // one lane: serves both
  EXPECT_EQ(linkError(exe), "");
}
