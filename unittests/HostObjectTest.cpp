//===- HostObjectTest.cpp - Executables carrying their host code ----------===//
//
// Kernels whose host code the executable carries (hcq.kernel `host_object`),
// loaded by the runtime from memory: the test kernel library's bytes stand
// in for an object #hcq.host_target compiled (its CPU kernels and AMD twins
// have the same ABIs). One loaded copy per distinct object per process, gone
// with the last executable using it; a failure to load is a typed error
// naming the kernel.
//
//===----------------------------------------------------------------------===//

#include "HostObject.h"
#include "TestCompile.h"

#include "gtest/gtest.h"

#include <cstring>
#include <elf.h>
#include <fstream>
#include <set>
#include <sstream>

using namespace hcq::runtime;
using hcq::test::amdKernel;
using hcq::test::compileAndLoad;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

/// The test kernel library's bytes, its DF_1_NODELETE flag (which LLVM's
/// link flags give it) cleared, so that the loader can unload it as it
/// unloads a host object #hcq.host_target made.
std::string hostObject() {
  std::string bytes = readFile(hcq::test::kernelLibrary);
  if (bytes.size() < sizeof(Elf64_Ehdr))
    return "";
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    std::memcpy(&segment, bytes.data() + header.e_phoff + i * sizeof(segment),
                sizeof(segment));
    if (segment.p_type != PT_DYNAMIC)
      continue;
    for (uint64_t at = segment.p_offset;
         at + sizeof(Elf64_Dyn) <= segment.p_offset + segment.p_filesz;
         at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn entry;
      std::memcpy(&entry, bytes.data() + at, sizeof(entry));
      if (entry.d_tag == DT_FLAGS_1) {
        entry.d_un.d_val &= ~uint64_t(DF_1_NODELETE);
        std::memcpy(bytes.data() + at, &entry, sizeof(entry));
      }
    }
  }
  return bytes;
}

/// `bytes` as an MLIR string literal's contents.
std::string escaped(const std::string &bytes) {
  static const char digits[] = "0123456789ABCDEF";
  std::string text;
  for (unsigned char c : bytes) {
    text += '\\';
    text += digits[c >> 4];
    text += digits[c & 15];
  }
  return text;
}

/// A schedule of one CPU kernel, `symbol` of the host object `object`:
/// out = a + b, one workgroup per element (the library's hcq_vadd).
std::string cpuVadd(const std::string &object, const std::string &symbol) {
  return "hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol \"" +
         symbol + "\" host_object \"" + escaped(object) + "\"\n" + R"mlir(
hcq.schedule @main(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @vadd(%out, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
}
)mlir";
}

/// The host objects loaded in this process: the distinct memfds the runtime
/// mapped them from.
size_t loadedHostObjects() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> inodes;
  for (std::string line; std::getline(maps, line);) {
    if (line.find("memfd:hcq-host-object") == std::string::npos)
      continue;
    std::istringstream fields(line);
    std::string address, perms, offset, device, inode;
    fields >> address >> perms >> offset >> device >> inode;
    inodes.insert(inode);
  }
  return inodes.size();
}

/// Runs `exe` (cpuVadd) once and checks out = a + b.
void expectVadd(LoadedExecutable &exe) {
  std::vector<float> a(64), b(64), out(64, -1);
  for (int i = 0; i < 64; ++i) {
    a[i] = i * 0.5f;
    b[i] = 3 - i;
  }
  ASSERT_FALSE(static_cast<bool>(
      exe.run({Argument::buffer(a.data()), Argument::buffer(b.data()),
               Argument::buffer(out.data())})));
  ASSERT_FALSE(static_cast<bool>(exe.synchronize()));
  for (int i = 0; i < 64; ++i)
    ASSERT_EQ(out[i], a[i] + b[i]) << i;
}

} // namespace

TEST(HostObject, CpuKernelsRunFromTheObjectTheExecutableCarries) {
  std::string library = hostObject();
  ASSERT_FALSE(library.empty());
  hcq::PipelineOptions options;
  auto exe = compileAndLoad(cpuVadd(library, "hcq_vadd"), options);
  ASSERT_TRUE(exe);
  expectVadd(*exe);
}

TEST(HostObject, OneCopyPerObjectPerProcessGoneWithItsLastExecutable) {
  std::string library = hostObject();
  // Another object: the same code with a byte more, which the loader
  // ignores.
  std::string other = library + '\0';
  size_t before = loadedHostObjects();
  hcq::PipelineOptions options;
  auto first = compileAndLoad(cpuVadd(library, "hcq_vadd"), options);
  ASSERT_TRUE(first);
  EXPECT_EQ(loadedHostObjects(), before + 1);
  // A second executable of the same object, on a runtime of its own: the
  // loaded copy is shared.
  auto second = compileAndLoad(cpuVadd(library, "hcq_vadd"), options);
  ASSERT_TRUE(second);
  EXPECT_EQ(loadedHostObjects(), before + 1);
  auto third = compileAndLoad(cpuVadd(other, "hcq_vadd"), options);
  ASSERT_TRUE(third);
  EXPECT_EQ(loadedHostObjects(), before + 2);
  expectVadd(*first);
  expectVadd(*second);
  expectVadd(*third);
  first.reset();
  EXPECT_EQ(loadedHostObjects(), before + 2);
  second.reset();
  EXPECT_EQ(loadedHostObjects(), before + 1);
  third.reset();
  EXPECT_EQ(loadedHostObjects(), before);
  // Loaded again once needed again.
  auto again = compileAndLoad(cpuVadd(library, "hcq_vadd"), options);
  ASSERT_TRUE(again);
  EXPECT_EQ(loadedHostObjects(), before + 1);
  expectVadd(*again);
}

TEST(HostObject, FailuresToLoadAreTypedErrorsNamingTheKernel) {
  hcq::PipelineOptions options;
  auto runtime = Runtime::create();
  // An ELF header and nothing a loader can map.
  std::optional<Executable> broken =
      hcq::test::compileExecutable(cpuVadd(std::string("\x7f"
                                                       "ELF") +
                                               std::string(60, '\0'),
                                           "hcq_vadd"),
                                   options);
  ASSERT_TRUE(broken);
  hcq::Expected<std::unique_ptr<LoadedExecutable>> loaded =
      runtime->load(*broken);
  ASSERT_FALSE(loaded);
  hcq::Error e = loaded.takeError();
  EXPECT_EQ(e.code(), hcq::ErrorCode::Unavailable);
  EXPECT_NE(e.message().find("kernel vadd: cannot load the executable's host "
                             "object: "),
            std::string::npos)
      << e.message();

  // A symbol the object does not define.
  std::optional<Executable> missing = hcq::test::compileExecutable(
      cpuVadd(hostObject(), "hcq_nowhere"), options);
  ASSERT_TRUE(missing);
  loaded = runtime->load(*missing);
  ASSERT_FALSE(loaded);
  e = loaded.takeError();
  EXPECT_EQ(e.code(), hcq::ErrorCode::Unavailable);
  EXPECT_NE(e.message().find(
                "kernel vadd: its host object has no symbol 'hcq_nowhere'"),
            std::string::npos)
      << e.message();
  // Nothing stays loaded after a failed load.
  EXPECT_EQ(HostObject::load(std::vector<uint8_t>{0x7f, 'E', 'L', 'F'})
                .takeError()
                .code(),
            hcq::ErrorCode::Unavailable);
}

TEST(HostObject, AmdKernelsFindTheirTwinInTheObjectOnTheEmulatedDevice) {
  // The gfx1100 vadd kernel, its twin (hcq_twin_vadd) in the host object;
  // no twin library is named.
  std::string source = amdKernel(HCQ_TEST_INPUTS "/kernels-gfx1100.co", "vadd",
                                 "(write f32, read f32, read f32)", 1);
  ASSERT_FALSE(source.empty());
  source.pop_back(); // the newline
  source += " host_object \"" + escaped(hostObject()) + "\"\n" + R"mlir(
hcq.schedule @main(%a: !hcq.buffer<128xf32, AMD:0>, %out: !hcq.buffer<128xf32, AMD:0>, %n: i32) {
  hcq.launch @vadd(%out, %a, %a : !hcq.buffer<128xf32, AMD:0>, !hcq.buffer<128xf32, AMD:0>, !hcq.buffer<128xf32, AMD:0>) vars(%n : i32) global [2, 1, 1] local [64, 1, 1]
}
)mlir";
  hcq::PipelineOptions options;
  options.target = "gfx1100";
  RuntimeOptions runtimeOptions;
  runtimeOptions.amd = AMDDevice::Emulated;
  auto runtime = Runtime::create(runtimeOptions);
  size_t before = loadedHostObjects();
  auto exe = compileAndLoad(source, options, *runtime);
  ASSERT_TRUE(exe);
  std::vector<float> a(128), out(128, -1);
  for (int i = 0; i < 128; ++i)
    a[i] = i - 20.0f;
  ASSERT_FALSE(static_cast<bool>(
      exe->run({Argument::buffer(a.data()), Argument::buffer(out.data()),
                Argument::variable(100)})));
  ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
  for (int i = 0; i < 128; ++i)
    ASSERT_EQ(out[i], i < 100 ? 2 * a[i] : -1.0f) << i;
  // The device keeps the twin's object as long as the program it loaded.
  exe.reset();
  EXPECT_EQ(loadedHostObjects(), before + 1);
  runtime.reset();
  EXPECT_EQ(loadedHostObjects(), before);
}
