//===- HostMemory.cpp - Where the runtime's values live -------------------===//
//
// Memory for every value of a loaded executable, the CPU kernels and entry
// functions the link resolves, and on the emulated AMD device the CPU twin
// of every AMD program it loads.
//
//===----------------------------------------------------------------------===//

#include "HostMemory.h"

#include "HCQ/Target/AMD/Target.h"
#include "HCQ/Target/CPU/Entry.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace llvm;

namespace hcq::runtime {
namespace {

// Mirrors of the dialect's enums (HCQBase.td), as the file stores them.
enum : uint32_t { TAG_TIMELINE_VALUE = 2, TAG_SENTINEL = 4 };

/// The builtin `copy` kernel in the CPU kernel ABI: kernargs are (dst, src,
/// element bytes), one workgroup per element (docs/cpu-queue.md).
void builtinCopy(const uint64_t *args, uint32_t x, uint32_t, uint32_t) {
  uint64_t bytes = args[2];
  std::memcpy(reinterpret_cast<char *>(args[0]) + x * bytes,
              reinterpret_cast<const char *>(args[1]) + x * bytes, bytes);
}

/// The CPU twin of the builtin AMD copy kernel (lib/Target/AMD/Builtins/
/// copy.cl): kernel arguments dst (8 bytes), src (8), element bytes (4);
/// workgroup x copies element x.
void builtinCopyTwin(const hcq_amd_workgroup *wg) {
  const auto *args = static_cast<const uint8_t *>(wg->kernargs);
  uint64_t dst, src;
  uint32_t bytes;
  std::memcpy(&dst, args, 8);
  std::memcpy(&src, args + 8, 8);
  std::memcpy(&bytes, args + 16, 4);
  uint64_t at = uint64_t(wg->group_id[0]) * bytes;
  std::memcpy(reinterpret_cast<char *>(dst) + at,
              reinterpret_cast<const char *>(src) + at, bytes);
}

/// Memory for every value: host memory, 256-byte aligned (programs need it:
/// COMPUTE_PGM_LO holds address >> 8), zeroed, signals at their initial
/// values. On the emulated AMD device, AMD memory is host memory too (its
/// GPU VA is its CPU VA, as under KFD), and every AMD program loaded gets
/// its CPU twin registered under its entry address.
class HostMemoryImpl : public HostMemory {
public:
  HostMemoryImpl(const Executable &exe, const RuntimeOptions &options)
      : exe(exe), options(options) {}

  ~HostMemoryImpl() override {
    for (void *p : blocks)
      std::free(p);
    for (auto &[path, handle] : libraries)
      dlclose(handle);
  }

  Expected<uint64_t> allocate(const Value &value, const Device &device,
                              uint64_t bytes) override {
    if (static_cast<DeviceKind>(device.kind) == DeviceKind::AMD &&
        options.amd == AMDDevice::None)
      return runtimeError(
          "the executable uses " + deviceName(device) +
          ", and no AMD device was chosen (RuntimeOptions::amd; hcq-run "
          "--amd=emulated)");
    if (static_cast<DeviceKind>(device.kind) != DeviceKind::AMD &&
        static_cast<DeviceKind>(device.kind) != DeviceKind::CPU)
      return runtimeError("this runtime has no " + deviceName(device) +
                          " device");
    uint64_t size = alignTo(std::max<uint64_t>(bytes, 1), 256);
    void *p = std::aligned_alloc(256, size);
    if (!p)
      return runtimeError("out of host memory for " + Twine(size) + " bytes");
    std::memset(p, 0, size);
    blocks.push_back(p);
    if (value.kind == Value::Placeholder && value.tag == TAG_TIMELINE_VALUE)
      *static_cast<uint64_t *>(p) = 1;
    if (value.kind == Value::Placeholder && value.tag == TAG_SENTINEL)
      *static_cast<uint64_t *>(p) = ~uint64_t(0);
    return reinterpret_cast<uint64_t>(p);
  }

  Expected<uint64_t> loadProgram(const Value &value, const Device &device,
                                 const amd::KernelInfo &info) override {
    Expected<uint64_t> address = Memory::loadProgram(value, device, info);
    if (!address)
      return address.takeError();
    const Kernel &kernel = exe.kernels[value.index];
    Expected<hcq_amd_twin> twin = findTwin(kernel);
    if (!twin)
      return twin.takeError();
    // Where the shader would find its pointers: the descriptor's user SGPRs.
    TwinProgram program;
    program.twin = *twin;
    program.name = kernel.name;
    program.kernargUserData = info.kernargUserData();
    if (info.dispatchPtr)
      program.dispatchUserData = info.dispatchPtrUserData();
    twins[*address + info.entryOffset] = program;
    return address;
  }

  Expected<uint64_t> hostFunction(const Kernel &kernel) override {
    if (kernel.target == KERNEL_BUILTIN) {
      if (kernel.symbol != "copy")
        return runtimeError("kernel " + kernel.name + ": no builtin '" +
                            kernel.symbol + "' in this runtime");
      return reinterpret_cast<uint64_t>(&builtinCopy);
    }
    if (kernel.library.empty())
      return runtimeError("kernel " + kernel.name + " has no library");
    Expected<void *> handle = open(kernel.library);
    if (!handle)
      return handle.takeError();
    void *symbol = dlsym(*handle, kernel.symbol.c_str());
    if (!symbol)
      return runtimeError("no symbol '" + kernel.symbol + "' in " +
                          kernel.library);
    return reinterpret_cast<uint64_t>(symbol);
  }

  Expected<uint64_t> runtimeFunction(uint32_t id) override {
    if (uint64_t f = cpuEntryFunction(id))
      return f;
    return runtimeError("unknown runtime function " + Twine(id));
  }

  void write(uint64_t address, ArrayRef<uint8_t> bytes) override {
    std::memcpy(reinterpret_cast<void *>(address), bytes.data(), bytes.size());
  }

  /// Every loaded AMD program's twin, by entry address.
  const TwinMap &getTwins() const override { return twins; }

private:
  /// `library`, loaded once however many kernels and twins it serves.
  Expected<void *> open(const std::string &library) {
    auto [it, inserted] = libraries.try_emplace(library, nullptr);
    if (!inserted)
      return it->second;
    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      libraries.erase(it);
      return runtimeError("cannot load " + library + ": " + dlerror());
    }
    return it->second = handle;
  }

  /// The CPU twin of AMD `kernel`: RuntimeOptions::amdTwins by symbol, else
  /// the runtime's own for the builtin copy kernel, else `hcq_twin_<symbol>`
  /// in the first twin library defining it.
  Expected<hcq_amd_twin> findTwin(const Kernel &kernel) {
    auto it = options.amdTwins.find(kernel.symbol);
    if (it != options.amdTwins.end())
      return it->second;
    if (kernel.symbol == amd::BUILTIN_COPY_SYMBOL)
      return &builtinCopyTwin;
    std::string symbol = "hcq_twin_" + kernel.symbol;
    for (const std::string &library : options.twinLibraries) {
      Expected<void *> handle = open(library);
      if (!handle)
        return handle.takeError();
      if (void *twin = dlsym(*handle, symbol.c_str()))
        return reinterpret_cast<hcq_amd_twin>(twin);
    }
    return runtimeError("AMD kernel " + kernel.name +
                        " has no CPU twin for "
                        "the emulated device: register '" +
                        kernel.symbol +
                        "' in RuntimeOptions::amdTwins or "
                        "define " +
                        symbol + " in a twin library");
  }

  const Executable &exe;
  const RuntimeOptions &options;
  std::vector<void *> blocks;
  llvm::StringMap<void *> libraries; // by path
  TwinMap twins;
};

} // namespace

std::unique_ptr<HostMemory> makeHostMemory(const Executable &exe,
                                           const RuntimeOptions &options) {
  return std::make_unique<HostMemoryImpl>(exe, options);
}

} // namespace hcq::runtime
