//===- FileTest.cpp - Bounded file reads ----------------------------------===//
//
// Every whole-file read is bounded by what its reader needs (issue 39): a
// 64 GiB sparse file, a truncated file or one longer than its header says
// is an error of code InvalidFile naming the file and both sizes, before
// anything of the file's size is allocated (which ended in std::bad_alloc
// and an abort).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Base/File.h"
#include "HCQ/Base/Bytes.h"
#include "HCQ/Runtime/Executable.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace hcq;
using namespace hcq::runtime;

namespace {

constexpr uint64_t SPARSE_BYTES = uint64_t(64) << 30;

/// A temporary folder, removed with its files when this goes.
class FileTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "hcq-file-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override {
    for (const std::string &f : files)
      ::unlink(f.c_str());
    ::rmdir(dir.c_str());
  }
  /// A file `name` holding `bytes`, then grown (sparse) to `size` bytes if
  /// that is larger.
  std::string makeFile(const std::string &name,
                       const std::vector<uint8_t> &bytes, uint64_t size = 0) {
    std::string path = dir + "/" + name;
    files.push_back(path);
    EXPECT_FALSE(writeFile(path, bytes.data(), bytes.size()));
    if (size > bytes.size()) {
      int fd = ::open(path.c_str(), O_WRONLY);
      EXPECT_GE(fd, 0);
      EXPECT_EQ(::ftruncate(fd, off_t(size)), 0);
      ::close(fd);
    }
    return path;
  }
  std::string dir;
  std::vector<std::string> files;
};

std::vector<uint8_t> smallExecutable() {
  Executable exe;
  exe.name = "small";
  return writeExecutable(exe);
}

/// `error` is of `code` and its message holds every one of `parts`.
void expectError(Error error, ErrorCode code,
                 std::initializer_list<std::string> parts) {
  ASSERT_TRUE(error);
  EXPECT_EQ(error.code(), code) << error.message();
  for (const std::string &part : parts)
    EXPECT_NE(error.message().find(part), std::string::npos)
        << "'" << part << "' not in: " << error.message();
}

TEST_F(FileTest, ReadRegularFileRefusesAFileLargerThanItsLimit) {
  std::string sparse = makeFile("sparse", {}, SPARSE_BYTES);
  Expected<std::vector<uint8_t>> bytes = readRegularFile(sparse, 1 << 20);
  ASSERT_FALSE(bytes);
  expectError(bytes.takeError(), ErrorCode::InvalidFile,
              {sparse, std::to_string(SPARSE_BYTES), std::to_string(1 << 20)});
  // At its limit, a file is read whole.
  std::string small = makeFile("small", {1, 2, 3});
  Expected<std::vector<uint8_t>> three = readRegularFile(small, 3);
  ASSERT_TRUE(three) << toString(three.takeError());
  EXPECT_EQ(*three, (std::vector<uint8_t>{1, 2, 3}));
  Expected<std::vector<uint8_t>> two = readRegularFile(small, 2);
  ASSERT_FALSE(two);
  expectError(two.takeError(), ErrorCode::InvalidFile, {"3 bytes", "2"});
}

TEST_F(FileTest, MissingFilesAndFoldersHaveTheirCodes) {
  Expected<std::vector<uint8_t>> missing =
      readRegularFile(dir + "/missing", 100);
  ASSERT_FALSE(missing);
  expectError(missing.takeError(), ErrorCode::Unavailable, {"missing"});
  Expected<std::vector<uint8_t>> folder = readRegularFile(dir, 100);
  ASSERT_FALSE(folder);
  expectError(folder.takeError(), ErrorCode::InvalidFile,
              {"not a regular file"});
  Expected<RegularFile> device = RegularFile::open("/dev/zero");
  ASSERT_FALSE(device);
  expectError(device.takeError(), ErrorCode::InvalidFile,
              {"not a regular file"});
}

TEST_F(FileTest, ReadingPastTheEndNamesBothSizes) {
  std::string path = makeFile("ten", std::vector<uint8_t>(10, 7));
  Expected<RegularFile> file = RegularFile::open(path);
  ASSERT_TRUE(file) << toString(file.takeError());
  EXPECT_EQ(file->size(), 10u);
  uint8_t out[8];
  EXPECT_FALSE(file->read(2, out));
  expectError(file->read(4, out), ErrorCode::InvalidFile,
              {path, "10 bytes", "12 needed"});
  expectError(file->read(uint64_t(-1), out), ErrorCode::InvalidFile,
              {path, "10 bytes"});
  // A prefix of an endless file is fine; of a short one an error.
  EXPECT_FALSE(readFilePrefix("/dev/zero", out));
  expectError(readFilePrefix(dir + "/missing", out), ErrorCode::Unavailable,
              {"missing"});
}

TEST_F(FileTest, AnExecutableIsReadAsItsHeaderSays) {
  std::vector<uint8_t> good = smallExecutable();
  Expected<Executable> exe = readExecutableFile(makeFile("good.hcqx", good));
  ASSERT_TRUE(exe) << toString(exe.takeError());
  EXPECT_EQ(exe->name, "small");

  // A real header, then 64 GiB of holes: refused by its size alone.
  std::vector<uint8_t> header(good.begin(), good.begin() + 24);
  std::string sparse = makeFile("sparse.hcqx", header, SPARSE_BYTES);
  exe = readExecutableFile(sparse);
  ASSERT_FALSE(exe);
  expectError(
      exe.takeError(), ErrorCode::InvalidFile,
      {sparse, std::to_string(SPARSE_BYTES), std::to_string(good.size())});
  // 64 GiB of zeros: no magic.
  std::string zeros = makeFile("zeros.hcqx", {}, SPARSE_BYTES);
  exe = readExecutableFile(zeros);
  ASSERT_FALSE(exe);
  expectError(exe.takeError(), ErrorCode::InvalidFile, {zeros, "bad magic"});

  // Truncated, in the header and after it; one byte too many.
  for (size_t size : {size_t(10), good.size() - 1, good.size() + 1}) {
    std::vector<uint8_t> bytes = good;
    bytes.resize(size);
    std::string path = makeFile("cut" + std::to_string(size), bytes);
    exe = readExecutableFile(path);
    ASSERT_FALSE(exe) << size;
    expectError(exe.takeError(), ErrorCode::InvalidFile,
                {path, std::to_string(size)});
  }
}

TEST_F(FileTest, AHeaderClaimingMoreThanTheLimitIsRefused) {
  // A header saying 1 TiB of payload, in a sparse file of that size and in
  // memory: refused by the limit, not attempted.
  std::vector<uint8_t> bytes = smallExecutable();
  uint64_t payload = uint64_t(1) << 40;
  write64le(bytes.data() + 8, payload);
  std::vector<uint8_t> header(bytes.begin(), bytes.begin() + 24);
  std::string path = makeFile("huge.hcqx", header, 24 + payload);
  Expected<Executable> exe = readExecutableFile(path);
  ASSERT_FALSE(exe);
  expectError(exe.takeError(), ErrorCode::InvalidFile,
              {path, std::to_string(payload),
               std::to_string(MAX_EXECUTABLE_BYTES - 24)});
  exe = readExecutable(bytes);
  ASSERT_FALSE(exe);
  expectError(exe.takeError(), ErrorCode::InvalidFile,
              {std::to_string(payload)});
}

} // namespace
