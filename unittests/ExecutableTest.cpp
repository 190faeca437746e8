//===- ExecutableTest.cpp - The HCQX file format --------------------------===//
//
// Round trips, and a fuzz-style sweep: every truncation and many bit flips
// of a valid file must be rejected with an error, never crash or read out of
// bounds (run under AddressSanitizer to check the latter).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Executable.h"
#include "ExecutableBytes.h"
#include "HCQ/Base/Ranges.h"

#include "gtest/gtest.h"

#include <random>

using namespace hcq::runtime;
using hcq::test::resealExecutable;

namespace {

Executable sample() {
  Executable exe;
  exe.name = "mlp";
  exe.numArgs = 2;
  exe.arguments = {{"x", true, "f32", 256, ArgumentAccess::readwrite},
                   {"n", false, "i32", 1, ArgumentAccess::none}};
  Value input;
  input.kind = ValueKind::Input;
  input.index = 0;
  input.bytes = 1024;
  input.devices = {{hcq::DeviceKind::AMD, 0}, {hcq::DeviceKind::AMD, 1}};
  Value variable;
  variable.kind = ValueKind::Variable;
  variable.index = 1;
  variable.bytes = 32;
  Value cmdbuf;
  cmdbuf.kind = ValueKind::Placeholder;
  cmdbuf.tag = PlaceholderTag::cmdbuf;
  cmdbuf.slot = 3;
  cmdbuf.bytes = 128;
  cmdbuf.devices = {{hcq::DeviceKind::AMD, 0}, {hcq::DeviceKind::AMD, 1}};
  Value signal = cmdbuf;
  signal.tag = PlaceholderTag::signal;
  signal.slot = 1;
  signal.bytes = 8;
  signal.isVolatile = true;
  Value program;
  program.kind = ValueKind::Program;
  program.index = 0;
  program.bytes = 4096;
  program.devices = {{hcq::DeviceKind::AMD, 0}};
  Value start = signal;
  start.tag = PlaceholderTag::timestamp;
  start.slot = 4;
  Value end = start;
  end.slot = 5;
  exe.values = {input, variable, cmdbuf, signal, program, start, end};
  exe.images.push_back(std::vector<uint8_t>(512, 0x11));
  // The kernel's CPU twin, in a host object.
  exe.hostObjects.push_back({0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
  AMDKernelFacts facts;
  facts.image = 0;
  facts.entryOffset = 256;
  facts.mach = 0x41;
  facts.privateSegmentBytes = 16;
  facts.dispatchPtr = true;
  exe.kernels.push_back({"vadd", KernelTarget::amd, "vadd", "", facts, 0});
  Blob blob;
  blob.target = 2;
  blob.data.assign(128, 0xbf);
  blob.patches.push_back(
      {4, Word{{WordKind::address, WordPart::lo, 0, 8, 0}, {3}}});
  blob.patches.push_back(
      {8, Word{{WordKind::address, WordPart::hi, 8, 256, 0x80000000}, {4}}});
  exe.blobs.push_back(blob);
  exe.inputs.push_back({2, {{0, 0}, {0, 1}}});
  Submitter sub;
  sub.numArgs = 3;
  Step reset;
  reset.kind = StepKind::Reset;
  reset.operands = {1};
  Step patch;
  patch.kind = StepKind::PatchGroup;
  patch.operands = {0, 2, 1}; // target, offsets, source, as in the IR
  patch.patch = {0, 2, 32,
                 Word{{WordKind::address, WordPart::lo, 0, 4, 0}, {2}}};
  Step push;
  push.kind = StepKind::Push;
  push.operands = {0};
  push.push = {16,
               PushMode::pm4,
               {hcq::QueueKind::COMPUTE, 0},
               {{hcq::DeviceKind::AMD, 0}, {hcq::DeviceKind::AMD, 1}}};
  sub.steps = {reset, patch, push};
  exe.submitters.push_back(sub);
  PlanStep call;
  call.kind = PlanStepKind::Call;
  call.callee = 0;
  call.operands = {2, 3, 0};
  PlanStep host;
  host.kind = PlanStepKind::HostCall;
  host.name = "log";
  exe.plan = {call, host};
  exe.profile.push_back({"vadd", 5, 6, {hcq::QueueKind::COMPUTE, 0}});
  return exe;
}

std::string errorOf(hcq::Expected<Executable> result) {
  if (result)
    return "";
  return hcq::toString(result.takeError());
}

} // namespace

TEST(Executable, RoundTrips) {
  Executable exe = sample();
  std::vector<uint8_t> bytes = writeExecutable(exe);
  auto read = readExecutable(bytes);
  ASSERT_TRUE(static_cast<bool>(read)) << hcq::toString(read.takeError());
  EXPECT_TRUE(*read == exe);
}

TEST(Executable, RejectsForeignFiles) {
  std::vector<uint8_t> bytes = writeExecutable(sample());
  bytes[0] = 'X';
  EXPECT_NE(errorOf(readExecutable(bytes)).find("bad magic"),
            std::string::npos);
  bytes = writeExecutable(sample());
  bytes[4] = 9;
  EXPECT_NE(errorOf(readExecutable(bytes)).find("format version 9"),
            std::string::npos);
}

TEST(Executable, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = writeExecutable(sample());
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    std::string error = errorOf(readExecutable(cut));
    EXPECT_NE(error.find("invalid hcq executable"), std::string::npos) << n;
  }
}

TEST(Executable, BitFlipsFailTheChecksum) {
  std::vector<uint8_t> bytes = writeExecutable(sample());
  for (size_t i = 24; i < bytes.size(); ++i) {
    std::vector<uint8_t> flipped = bytes;
    flipped[i] ^= 0x10;
    EXPECT_NE(errorOf(readExecutable(flipped)).find("checksum mismatch"),
              std::string::npos)
        << i;
  }
}

TEST(Executable, ResealedCorruptionNeverCrashes) {
  // With the checksum recomputed, corruption reaches the parser: it must
  // answer with an error or a valid executable, never crash or overread.
  std::vector<uint8_t> bytes = writeExecutable(sample());
  std::mt19937 rng(7);
  size_t errors = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::vector<uint8_t> corrupt = bytes;
    int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) {
      size_t at = 24 + rng() % (corrupt.size() - 24);
      corrupt[at] = trial % 3 ? corrupt[at] ^ (1u << (rng() % 8))
                              : static_cast<uint8_t>(rng());
    }
    resealExecutable(corrupt);
    auto result = readExecutable(corrupt);
    if (!result) {
      ++errors;
      EXPECT_NE(hcq::toString(result.takeError()).find("invalid hcq "),
                std::string::npos);
    }
  }
  // Most corruptions must be caught, not parsed as something else.
  EXPECT_GT(errors, 2000u);
}

TEST(Executable, HugeCountsAreRejectedBeforeAllocating) {
  std::vector<uint8_t> bytes = writeExecutable(sample());
  // The argument count follows the arguments section's header (16 bytes),
  // the name (8 + 3 bytes) and numArgs (4).
  size_t at = 24 + 16 + 8 + 3 + 4;
  bytes[at] = bytes[at + 1] = bytes[at + 2] = bytes[at + 3] = 0xff;
  resealExecutable(bytes);
  EXPECT_NE(errorOf(readExecutable(bytes))
                .find("count of arguments (4294967295) exceeds its section"),
            std::string::npos);
  // The value count follows the two argument records ("x": 8 + 1 + 1 +
  // 8 + 3 + 8 + 4 bytes; "n" likewise) and the values section's header.
  bytes = writeExecutable(sample());
  at = 24 + 16 + 8 + 3 + 4 + 4 + 2 * 33 + 16;
  bytes[at] = bytes[at + 1] = bytes[at + 2] = bytes[at + 3] = 0xff;
  resealExecutable(bytes);
  EXPECT_NE(errorOf(readExecutable(bytes)).find("count of values (4294967295)"),
            std::string::npos);
}

/// `file` with a section {id, flags, `body`} appended to its payload,
/// header and checksum updated.
std::vector<uint8_t> withSection(std::vector<uint8_t> file, uint32_t id,
                                 uint32_t flags,
                                 const std::vector<uint8_t> &body) {
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
      file.push_back(uint8_t(v >> (8 * i)));
  };
  put(id, 4);
  put(flags, 4);
  put(body.size(), 8);
  file.insert(file.end(), body.begin(), body.end());
  uint64_t payload = file.size() - 24;
  for (int i = 0; i < 8; ++i)
    file[8 + i] = uint8_t(payload >> (8 * i));
  resealExecutable(file);
  return file;
}

TEST(Executable, UnknownSectionsAreSkippedUnlessRequired) {
  // A newer writer's optional section: this reader reads the rest as it is.
  Executable exe = sample();
  std::vector<uint8_t> file = writeExecutable(exe);
  hcq::Expected<Executable> back =
      readExecutable(withSection(file, 99, 0, {1, 2, 3, 4}));
  ASSERT_TRUE(static_cast<bool>(back)) << hcq::toString(back.takeError());
  EXPECT_TRUE(*back == exe);
  // One it must understand to run the file: refused, saying why.
  EXPECT_NE(errorOf(readExecutable(withSection(file, 99, 1, {1, 2, 3, 4})))
                .find("section 99 is required and unknown to this reader: "
                      "the file is newer than this runtime"),
            std::string::npos);
  // A known section again, after the others: refused by name.
  EXPECT_NE(errorOf(readExecutable(withSection(file, 2, 1, {0, 0, 0, 0})))
                .find("the values section is out of order or repeated"),
            std::string::npos);
  // A length past the file's end.
  std::vector<uint8_t> longer = withSection(file, 99, 0, {});
  longer[longer.size() - 8] = 0xff;
  resealExecutable(longer);
  EXPECT_NE(errorOf(readExecutable(longer)).find("past the file's end"),
            std::string::npos);
  // A byte after the last section, which no section header holds.
  std::vector<uint8_t> padded = writeExecutable(exe);
  padded.push_back(0);
  uint64_t payload = padded.size() - 24;
  for (int i = 0; i < 8; ++i)
    padded[8 + i] = uint8_t(payload >> (8 * i));
  resealExecutable(padded);
  EXPECT_NE(errorOf(readExecutable(padded)).find("a section header: truncated"),
            std::string::npos);
  // A byte inside the last section (the profile entries) that its records
  // do not use.
  std::vector<uint8_t> inside = writeExecutable(exe);
  size_t at = 24, last = 0;
  while (at < inside.size()) {
    last = at;
    uint64_t length = 0;
    for (int i = 0; i < 8; ++i)
      length |= uint64_t(inside[at + 8 + i]) << (8 * i);
    at += 16 + length;
  }
  ASSERT_EQ(inside[last], 10u); // the profile section's id
  ++inside[last + 8];           // its length, below 255
  inside.push_back(0);
  payload = inside.size() - 24;
  for (int i = 0; i < 8; ++i)
    inside[8 + i] = uint8_t(payload >> (8 * i));
  resealExecutable(inside);
  EXPECT_NE(errorOf(readExecutable(inside))
                .find("1 byte after the records of the profile entries "
                      "section"),
            std::string::npos);
}

TEST(Executable, ImagesAndHostObjectsAreViewsOfTheFileNotCopies) {
  Executable exe = sample();
  hcq::Expected<Executable> back = readExecutable(writeExecutable(exe));
  ASSERT_TRUE(static_cast<bool>(back)) << hcq::toString(back.takeError());
  // Both point into the one buffer the reader keeps: the host object's
  // record follows the image's in the file.
  const uint8_t *image = back->images[0].data();
  const uint8_t *object = back->hostObjects[0].data();
  ASSERT_GT(object, image);
  EXPECT_LT(size_t(object - image), size_t(512 + 64));
  // Copies of the executable share them.
  Executable copy = *back;
  EXPECT_EQ(copy.images[0].data(), image);
  EXPECT_EQ(copy.hostObjects[0].data(), object);
  // And they outlive the executable they were read with.
  SharedBytes kept = back->images[0];
  back = readExecutable(writeExecutable(Executable()));
  copy = Executable();
  ASSERT_EQ(kept.size(), 512u);
  EXPECT_EQ(kept.data()[511], 0x11);
}

TEST(Executable, AMDKernelsEnterInsideTheirImage) {
  Executable exe = sample();
  hcq::Expected<Executable> back = readExecutable(writeExecutable(exe));
  ASSERT_TRUE(static_cast<bool>(back)) << hcq::toString(back.takeError());
  EXPECT_EQ(back->images, exe.images);
  const AMDKernelFacts &facts = back->kernels[0].amd;
  EXPECT_EQ(facts.image, 0u);
  EXPECT_EQ(facts.entryOffset, 256u);
  EXPECT_EQ(facts.mach, 0x41u);
  EXPECT_EQ(facts.privateSegmentBytes, 16u);
  EXPECT_TRUE(facts.dispatchPtr);
  EXPECT_FALSE(facts.privateSegmentBuffer);
  exe.kernels[0].amd.image = 1;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("kernel vadd is in image 1 of 1"),
            std::string::npos);
  exe = sample();
  exe.kernels[0].amd.entryOffset = 512;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("kernel vadd enters at byte 512 of its 512-byte image"),
            std::string::npos);
  exe.kernels[0].amd.entryOffset = 100;
  EXPECT_NE(
      errorOf(readExecutable(writeExecutable(exe))).find("256-byte aligned"),
      std::string::npos);
}

TEST(Executable, KernelsNameHostObjectsThatExist) {
  Executable exe = sample();
  hcq::Expected<Executable> back = readExecutable(writeExecutable(exe));
  ASSERT_TRUE(static_cast<bool>(back)) << hcq::toString(back.takeError());
  EXPECT_EQ(back->hostObjects, exe.hostObjects);
  EXPECT_EQ(back->kernels[0].hostObject, 0u);
  exe.kernels[0].hostObject = 1;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("kernel vadd is in host object 1 of 1"),
            std::string::npos);
  exe = sample();
  exe.hostObjects[0] = {'#', '!', '/', 'b'};
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("host object 0 is not an ELF file"),
            std::string::npos);
  // A CPU kernel's symbol is in its library or its host object, not both;
  // a builtin has neither.
  exe = sample();
  exe.kernels[0].target = KernelTarget::cpu;
  exe.kernels[0].library = "libk.so";
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("cpu kernel vadd has both a library and a host object"),
            std::string::npos);
  exe.kernels[0].library.clear();
  EXPECT_EQ(errorOf(readExecutable(writeExecutable(exe))), "");
  exe.kernels[0].target = KernelTarget::builtin;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("builtin kernel vadd has a host object"),
            std::string::npos);
}

TEST(Executable, ArgumentRecordsRoundTripAndMatchTheArguments) {
  Executable exe = sample();
  hcq::Expected<Executable> back = readExecutable(writeExecutable(exe));
  ASSERT_TRUE(static_cast<bool>(back)) << hcq::toString(back.takeError());
  ASSERT_EQ(back->arguments.size(), exe.arguments.size());
  for (auto [i, a] : hcq::enumerate(back->arguments)) {
    EXPECT_EQ(a.name, exe.arguments[i].name);
    EXPECT_EQ(a.isBuffer, exe.arguments[i].isBuffer);
    EXPECT_EQ(a.elementType, exe.arguments[i].elementType);
    EXPECT_EQ(a.count, exe.arguments[i].count);
    EXPECT_EQ(a.access, exe.arguments[i].access);
  }
  exe.arguments.pop_back();
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("1 argument records for 2 arguments"),
            std::string::npos);
  exe = sample();
  exe.arguments[0].access = static_cast<ArgumentAccess>(4);
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("unknown argument access 4"),
            std::string::npos);
}

TEST(Executable, DanglingIndicesAreRejected) {
  Executable exe = sample();
  exe.plan[0].callee = 5;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("calls submitter 5 of 1"),
            std::string::npos);
  exe = sample();
  exe.blobs[0].patches[0].first = 126;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("patch at 126 is outside its 128 bytes"),
            std::string::npos);
  exe = sample();
  exe.submitters[0].steps[1].operands[0] = 9;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("step names argument 9 of 3"),
            std::string::npos);
}

TEST(Executable, ProfileEntriesNameTimestampPairs) {
  Executable exe = sample();
  exe.profile[0].end = 9;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("profile entry 0 names value 9 of 7"),
            std::string::npos);
  exe = sample();
  exe.profile[0].start = 3; // a signal, not a timestamp
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("profile entry 0 names value 3, which is no timestamp "
                      "placeholder"),
            std::string::npos);
  exe = sample();
  exe.values[6].devices.pop_back();
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("profile entry 0 has its timestamps on different "
                      "devices"),
            std::string::npos);
}

TEST(Executable, StepsMissingWhatTheyReadAreRejected) {
  // The runtime indexes a step's operands by kind; the reader is where a
  // short step is refused.
  Executable exe = sample();
  exe.submitters[0].steps[1].operands.pop_back();
  EXPECT_NE(
      errorOf(readExecutable(writeExecutable(exe)))
          .find(
              "has an hcq.patch_group step with 2 operands, fewer than the 3"),
      std::string::npos);
  exe = sample();
  exe.submitters[0].steps[2].operands.clear();
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("has an hcq.push step with 0 operands, fewer than the 1"),
            std::string::npos);
  exe = sample();
  exe.submitters[0].steps[2].push.devices.clear();
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("has a push on no device"),
            std::string::npos);
}

TEST(Executable, OlderFormatsAreRefusedByVersion) {
  std::vector<uint8_t> bytes = writeExecutable(sample());
  bytes[4] = FORMAT_VERSION - 1;
  EXPECT_NE(errorOf(readExecutable(bytes))
                .find("format version " + std::to_string(FORMAT_VERSION - 1) +
                      ", this reader reads version " +
                      std::to_string(FORMAT_VERSION) +
                      ": the file is older than this runtime; recompile it "
                      "with this hcq-opt"),
            std::string::npos);
}

TEST(Executable, PlaceholderScopesAreChecked) {
  // The file says whose memory each placeholder is; it must be what its tag
  // makes it, and the device's have no slot.
  Executable exe = sample();
  Value timeline = exe.values[3];
  timeline.tag = PlaceholderTag::timeline_signal;
  timeline.slot = 2;
  exe.values.push_back(timeline);
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("value 7 is a device-scoped placeholder with slot 2"),
            std::string::npos);
  exe.values.back().slot = 0;
  std::vector<uint8_t> bytes = writeExecutable(exe);
  ASSERT_TRUE(static_cast<bool>(readExecutable(bytes)));
  // A number the device gives has no slot either.
  exe.values.back().tag = PlaceholderTag::interrupt_event;
  EXPECT_EQ(exe.values.back().scope(), PlaceholderScope::DeviceNumber);
  exe.values.back().slot = 1;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("value 7 is a device-scoped placeholder with slot 1"),
            std::string::npos);
  exe.values.back() = timeline;
  exe.values.back().slot = 0;
  // The scope word of the signal (value 3): after the kind, index and tag.
  std::vector<uint8_t> signal = writeExecutable(sample());
  (void)signal;
  EXPECT_EQ(exe.values[3].scope(), PlaceholderScope::Executable);
  EXPECT_EQ(exe.values.back().scope(), PlaceholderScope::Device);
}

TEST(Executable, UnknownEnumValuesAreRefused) {
  Executable exe = sample();
  exe.values[2].tag =
      static_cast<PlaceholderTag>(hcq::abi::NUM_PLACEHOLDER_TAGS);
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("unknown placeholder tag " +
                      std::to_string(hcq::abi::NUM_PLACEHOLDER_TAGS)),
            std::string::npos);
  exe = sample();
  exe.submitters[0].steps[2].push.mode = static_cast<PushMode>(3);
  EXPECT_NE(
      errorOf(readExecutable(writeExecutable(exe))).find("unknown push mode 3"),
      std::string::npos);
}

TEST(Executable, ShiftsSizesAndCountsBeyondTheFormatsLimitsAreRefused) {
  // A shift of 64 or more is undefined behaviour in the link and patches.
  Executable exe = sample();
  exe.blobs[0].patches[1].second.shift = 64;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("blob 0 patch at 8 shifts by 64"),
            std::string::npos);
  exe = sample();
  exe.submitters[0].steps[1].patch.word.shift = 200;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("submitter 0 word shifts by 200"),
            std::string::npos);
  // Billions of arguments, or a value of terabytes.
  exe = sample();
  exe.numArgs = 3000000000u;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("3000000000 arguments, more than the 65536 an "
                      "executable may have"),
            std::string::npos);
  exe = sample();
  exe.values[2].bytes = uint64_t(1) << 45;
  EXPECT_NE(errorOf(readExecutable(writeExecutable(exe)))
                .find("value 2 is 35184372088832 bytes, more than "
                      "1099511627776"),
            std::string::npos);
}
