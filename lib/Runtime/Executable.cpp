//===- Executable.cpp - The HCQX executable file format -------------------===//

#include "HCQ/Runtime/Executable.h"

#include "HCQ/Base/Bytes.h"
#include "HCQ/Base/File.h"
#include "HCQ/Base/Ranges.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <cstring>

namespace hcq::runtime {

bool Value::operator==(const Value &o) const {
  return kind == o.kind && index == o.index && tag == o.tag && slot == o.slot &&
         bytes == o.bytes && isVolatile == o.isVolatile && devices == o.devices;
}
AMDKernelFacts AMDKernelFacts::of(const amd::KernelInfo &info, uint32_t image) {
  return {image,
          info.entryOffset,
          info.mach,
          info.privateSegmentBytes,
          info.dispatchPtr,
          info.privateSegmentBuffer};
}
amd::KernelInfo
AMDKernelFacts::toKernelInfo(const std::string &symbol,
                             Span<const uint8_t> imageBytes) const {
  amd::KernelInfo info;
  info.name = symbol;
  info.image.assign(imageBytes.begin(), imageBytes.end());
  info.entryOffset = entryOffset;
  info.mach = mach;
  info.privateSegmentBytes = privateSegmentBytes;
  info.dispatchPtr = dispatchPtr;
  info.privateSegmentBuffer = privateSegmentBuffer;
  return info;
}
bool Kernel::operator==(const Kernel &o) const {
  return name == o.name && target == o.target && symbol == o.symbol &&
         library == o.library && amd == o.amd && hostObject == o.hostObject;
}
bool Word::operator==(const Word &o) const {
  return kind == o.kind && part == o.part && shift == o.shift &&
         value == o.value && orBits == o.orBits && refs == o.refs;
}
bool Blob::operator==(const Blob &o) const {
  return target == o.target && data == o.data && patches == o.patches;
}
bool InputsTable::operator==(const InputsTable &o) const {
  return table == o.table && slots == o.slots;
}
bool Step::operator==(const Step &o) const {
  return kind == o.kind && operands == o.operands && patch == o.patch &&
         push == o.push;
}
bool Submitter::operator==(const Submitter &o) const {
  return numArgs == o.numArgs && steps == o.steps;
}
bool LaunchGrid::operator==(const LaunchGrid &o) const {
  return std::equal(global, global + 3, o.global) &&
         std::equal(local, local + 3, o.local);
}
bool PlanStep::operator==(const PlanStep &o) const {
  return kind == o.kind && callee == o.callee && name == o.name &&
         operands == o.operands && copy == o.copy && grid == o.grid;
}
bool ProfileEntry::operator==(const ProfileEntry &o) const {
  return name == o.name && start == o.start && end == o.end && queue == o.queue;
}
bool Executable::operator==(const Executable &o) const {
  return name == o.name && numArgs == o.numArgs && arguments == o.arguments &&
         images == o.images && hostObjects == o.hostObjects &&
         values == o.values && kernels == o.kernels && blobs == o.blobs &&
         inputs == o.inputs && submitters == o.submitters && plan == o.plan &&
         profile == o.profile;
}

namespace {

// The header: magic, version, payload size, CRC-32 of the payload.
constexpr char MAGIC[4] = {'H', 'C', 'Q', 'X'};
constexpr size_t HEADER_BYTES = 24;
// An AMD kernel record's flags (docs/executable-format.md).
constexpr uint32_t KERNEL_DISPATCH_PTR = 1, KERNEL_PRIVATE_SEGMENT_BUFFER = 2;

class Writer {
public:
  void u8(uint8_t v) { out.push_back(v); }
  void u32(uint32_t v) {
    uint8_t b[4];
    write32le(b, v);
    out.insert(out.end(), b, b + 4);
  }
  void u64(uint64_t v) {
    uint8_t b[8];
    write64le(b, v);
    out.insert(out.end(), b, b + 8);
  }
  void bytes(Span<const uint8_t> data) {
    u64(data.size());
    out.insert(out.end(), data.begin(), data.end());
  }
  void string(const std::string &s) {
    bytes(Span<const uint8_t>(reinterpret_cast<const uint8_t *>(s.data()),
                              s.size()));
  }
  void u32s(Span<const uint32_t> values) {
    u32(values.size());
    for (uint32_t v : values)
      u32(v);
  }
  template <typename Enum> void e32(Enum v) { u32(static_cast<uint32_t>(v)); }
  void devices(const std::vector<DeviceId> &devices) {
    u32(devices.size());
    for (const DeviceId &d : devices) {
      e32(d.kind);
      u32(d.index);
    }
  }
  void queue(const QueueName &q) {
    e32(q.kind);
    u32(q.index);
  }
  void word(const Word &w) {
    e32(w.kind);
    e32(w.part);
    u32(w.shift);
    u64(w.value);
    u64(w.orBits);
    u32s(w.refs);
  }

  std::vector<uint8_t> out;
};

/// Reads the payload; every read checks what is left first.
class Reader {
public:
  explicit Reader(Span<const uint8_t> data) : data(data) {}

  bool failed() const { return !error.empty(); }
  const std::string &message() const { return error; }

  uint8_t u8() { return take(1) ? data[at - 1] : 0; }
  uint32_t u32() { return take(4) ? read32le(data.data() + at - 4) : 0; }
  uint64_t u64() { return take(8) ? read64le(data.data() + at - 8) : 0; }
  std::vector<uint8_t> bytes() {
    uint64_t n = u64();
    if (failed() || !fits(n, 1))
      return {};
    std::vector<uint8_t> v(data.begin() + at, data.begin() + at + n);
    at += n;
    return v;
  }
  std::string string() {
    std::vector<uint8_t> b = bytes();
    return std::string(b.begin(), b.end());
  }
  /// A count of entries at least `minBytes` each, bounded by what is left.
  uint32_t count(size_t minBytes, const char *what) {
    uint32_t n = u32();
    if (!failed() && !fits(n, minBytes))
      fail(std::string("count of ") + what + " exceeds the file");
    return failed() ? 0 : n;
  }
  std::vector<uint32_t> u32s() {
    std::vector<uint32_t> v(count(4, "indices"));
    for (uint32_t &x : v)
      x = u32();
    return v;
  }
  /// An enum stored as 32 bits, refused unless below `limit`.
  template <typename Enum> Enum e32(uint32_t limit, const char *what) {
    uint32_t v = u32();
    if (!failed() && v >= limit)
      fail("unknown " + std::string(what) + " " + std::to_string(v));
    return static_cast<Enum>(failed() ? 0 : v);
  }
  std::vector<DeviceId> devices() {
    std::vector<DeviceId> v(count(8, "devices"));
    for (DeviceId &d : v) {
      d.kind = e32<DeviceKind>(uint32_t(DeviceKind::DISK) + 1, "device kind");
      d.index = u32();
    }
    return v;
  }
  QueueName queue() {
    QueueName q{QueueKind::COMPUTE, 0};
    q.kind = e32<QueueKind>(uint32_t(QueueKind::SUBMIT) + 1, "queue kind");
    q.index = u32();
    return q;
  }
  Word word() {
    Word w;
    w.kind = e32<WordKind>(uint32_t(WordKind::load) + 1, "word kind");
    w.part = e32<WordPart>(uint32_t(WordPart::hi) + 1, "word part");
    w.shift = u32();
    w.value = u64();
    w.orBits = u64();
    w.refs = u32s();
    return w;
  }
  void fail(const std::string &why) {
    if (error.empty())
      error = why + " (payload byte " + std::to_string(at) + ")";
  }
  size_t offset() const { return at; }
  bool atEnd() const { return at == data.size(); }

private:
  bool fits(uint64_t n, size_t each) const {
    return n <= (data.size() - at) / each;
  }
  bool take(size_t n) {
    if (failed())
      return false;
    if (data.size() - at < n) {
      fail("truncated: needs " + std::to_string(n) + " more bytes");
      return false;
    }
    at += n;
    return true;
  }

  Span<const uint8_t> data;
  size_t at = 0;
  std::string error;
};

Error formatError(const std::string &why) {
  return Error::failure(ErrorCode::InvalidFile,
                        "invalid hcq executable: " + why);
}

/// Checks that every index names something that exists and every record has
/// what its kind reads: a runtime indexes them without checking again.
Error validate(const Executable &exe) {
  // Limits of the format, so that a file cannot make its reader or the
  // runtime attempt what no schedule needs.
  if (exe.numArgs > MAX_ARGUMENTS)
    return formatError(
        std::to_string(exe.numArgs) + " arguments, more than the " +
        std::to_string(MAX_ARGUMENTS) + " an executable may have");
  if (exe.arguments.size() != exe.numArgs)
    return formatError(std::to_string(exe.arguments.size()) +
                       " argument records for " + std::to_string(exe.numArgs) +
                       " arguments");
  size_t values = exe.values.size();
  auto value = [&](uint32_t v, const std::string &where) -> Error {
    if (v >= values)
      return formatError(where + " names value " + std::to_string(v) + " of " +
                         std::to_string(values));
    return Error::success();
  };
  // Host objects are ELF files; a kernel names one that exists, a CPU
  // kernel not both a library and a host object (a kernel with neither may
  // be the caller's, RuntimeOptions::cpuKernels), a builtin neither.
  static constexpr uint8_t ELF_MAGIC[4] = {0x7f, 'E', 'L', 'F'};
  for (auto [i, object] : enumerate(exe.hostObjects))
    if (object.size() < 4 || std::memcmp(object.data(), ELF_MAGIC, 4) != 0)
      return formatError("host object " + std::to_string(i) +
                         " is not an ELF file");
  for (const Kernel &k : exe.kernels) {
    if (k.hasHostObject() && k.hostObject >= exe.hostObjects.size())
      return formatError("kernel " + k.name + " is in host object " +
                         std::to_string(k.hostObject) + " of " +
                         std::to_string(exe.hostObjects.size()));
    if (k.target == KernelTarget::cpu && !k.library.empty() &&
        k.hasHostObject())
      return formatError("cpu kernel " + k.name +
                         " has both a library and a host object");
    if (k.target == KernelTarget::builtin && k.hasHostObject())
      return formatError("builtin kernel " + k.name + " has a host object");
  }
  // An AMD kernel's entry is inside its image, where a program's address
  // (COMPUTE_PGM_LO holds it >> 8) can name it.
  for (const Kernel &k : exe.kernels) {
    if (k.target != KernelTarget::amd)
      continue;
    if (k.amd.image >= exe.images.size())
      return formatError("kernel " + k.name + " is in image " +
                         std::to_string(k.amd.image) + " of " +
                         std::to_string(exe.images.size()));
    if (k.amd.entryOffset >= exe.images[k.amd.image].size() ||
        k.amd.entryOffset % 256)
      return formatError("kernel " + k.name + " enters at byte " +
                         std::to_string(k.amd.entryOffset) + " of its " +
                         std::to_string(exe.images[k.amd.image].size()) +
                         "-byte image (it must be inside, 256-byte aligned)");
  }
  for (auto [i, v] : enumerate(exe.values)) {
    if (v.bytes > MAX_VALUE_BYTES)
      return formatError("value " + std::to_string(i) + " is " +
                         std::to_string(v.bytes) + " bytes, more than " +
                         std::to_string(MAX_VALUE_BYTES));
    if (v.kind == ValueKind::Program && v.index >= exe.kernels.size())
      return formatError("value " + std::to_string(i) +
                         " is the program of kernel " +
                         std::to_string(v.index) + " of " +
                         std::to_string(exe.kernels.size()));
    if ((v.kind == ValueKind::Input || v.kind == ValueKind::Variable) &&
        v.index >= exe.numArgs)
      return formatError("value " + std::to_string(i) + " is argument " +
                         std::to_string(v.index) + " of " +
                         std::to_string(exe.numArgs));
    if (v.kind == ValueKind::Placeholder &&
        (v.scope() == PlaceholderScope::Device ||
         v.scope() == PlaceholderScope::DeviceNumber) &&
        v.slot != 0)
      return formatError("value " + std::to_string(i) +
                         " is a device-scoped placeholder with slot " +
                         std::to_string(v.slot));
  }
  for (auto [i, blob] : enumerate(exe.blobs)) {
    if (Error e = value(blob.target, "blob " + std::to_string(i)))
      return e;
    for (auto &[offset, word] : blob.patches) {
      // A half of an address is 4 bytes, a whole one 8.
      uint64_t width = word.part == WordPart::full ? 8 : 4;
      if (offset > blob.data.size() || width > blob.data.size() - offset)
        return formatError("blob " + std::to_string(i) + " patch at " +
                           std::to_string(offset) + " is outside its " +
                           std::to_string(blob.data.size()) + " bytes");
      for (uint32_t ref : word.refs)
        if (Error e = value(ref, "blob " + std::to_string(i) + " patch"))
          return e;
      if (word.shift >= 64)
        return formatError("blob " + std::to_string(i) + " patch at " +
                           std::to_string(offset) + " shifts by " +
                           std::to_string(word.shift));
    }
  }
  for (auto [i, table] : enumerate(exe.inputs)) {
    if (Error e = value(table.table, "inputs table " + std::to_string(i)))
      return e;
    for (auto [input, lane] : table.slots)
      if (Error e = value(input, "inputs table " + std::to_string(i)))
        return e;
  }
  for (auto [i, sub] : enumerate(exe.submitters))
    for (const Step &step : sub.steps) {
      for (uint32_t op : step.operands)
        if (op >= sub.numArgs)
          return formatError("submitter " + std::to_string(i) +
                             " step names argument " + std::to_string(op) +
                             " of " + std::to_string(sub.numArgs));
      if (step.patch.word.shift >= 64)
        return formatError("submitter " + std::to_string(i) +
                           " word shifts by " +
                           std::to_string(step.patch.word.shift));
      for (uint32_t ref : step.patch.word.refs)
        if (ref >= sub.numArgs)
          return formatError("submitter " + std::to_string(i) +
                             " word names argument " + std::to_string(ref) +
                             " of " + std::to_string(sub.numArgs));
      if (step.operands.size() < abi::getStepOperandCount(step.kind))
        return formatError("submitter " + std::to_string(i) +
                           " has a step of kind " +
                           std::to_string(uint32_t(step.kind)) + " with " +
                           std::to_string(step.operands.size()) + " operands");
      if (step.kind == StepKind::Push && step.push.devices.empty())
        return formatError("submitter " + std::to_string(i) +
                           " has a push on no device");
    }
  for (auto [i, step] : enumerate(exe.plan)) {
    if (step.kind == PlanStepKind::Call) {
      if (step.callee >= exe.submitters.size())
        return formatError("plan step " + std::to_string(i) +
                           " calls submitter " + std::to_string(step.callee) +
                           " of " + std::to_string(exe.submitters.size()));
      if (step.operands.size() != exe.submitters[step.callee].numArgs)
        return formatError("plan step " + std::to_string(i) + " passes " +
                           std::to_string(step.operands.size()) +
                           " arguments to a " +
                           std::to_string(exe.submitters[step.callee].numArgs) +
                           "-argument submitter");
    }
    if (step.kind == PlanStepKind::Copy && step.operands.size() != 2)
      return formatError("plan step " + std::to_string(i) + " is a copy of " +
                         std::to_string(step.operands.size()) + " buffers");
    if (step.kind == PlanStepKind::Launch && step.callee >= exe.kernels.size())
      return formatError("plan step " + std::to_string(i) +
                         " launches kernel " + std::to_string(step.callee) +
                         " of " + std::to_string(exe.kernels.size()));
    for (uint32_t op : step.operands)
      if (Error e = value(op, "plan step " + std::to_string(i)))
        return e;
  }
  // The runtime reads each entry's pair as one 64-bit slot per lane.
  for (auto [i, entry] : enumerate(exe.profile)) {
    for (uint32_t v : {entry.start, entry.end}) {
      if (Error e = value(v, "profile entry " + std::to_string(i)))
        return e;
      const Value &slot = exe.values[v];
      if (!slot.isPlaceholder(PlaceholderTag::timestamp) || slot.bytes < 8 ||
          slot.devices.empty())
        return formatError("profile entry " + std::to_string(i) +
                           " names value " + std::to_string(v) +
                           ", which is no timestamp placeholder");
    }
    if (!(exe.values[entry.start].devices == exe.values[entry.end].devices))
      return formatError("profile entry " + std::to_string(i) +
                         " has its timestamps on different devices");
  }
  return Error::success();
}

} // namespace

std::vector<ArgumentUse> getArgumentUses(const Executable &exe) {
  std::vector<ArgumentUse> uses(exe.numArgs);
  for (const Value &v : exe.values) {
    if (v.index >= exe.numArgs ||
        (v.kind != ValueKind::Input && v.kind != ValueKind::Variable))
      continue;
    ArgumentUse &use = uses[v.index];
    if (v.kind == ValueKind::Variable) {
      use.kind = ArgumentUse::Variable;
      continue;
    }
    use.kind = ArgumentUse::Buffer;
    if (v.devices.size() > use.devices.size())
      use.devices = v.devices;
    use.lanes = std::max<size_t>({use.lanes, v.devices.size(), 1});
    use.bytes = std::max(use.bytes, v.bytes);
  }
  return uses;
}

std::string formatArgument(const ArgumentInfo &a, size_t index) {
  std::string text =
      a.name.empty() ? "arg " + std::to_string(index) : "%" + a.name;
  text += ": ";
  if (!a.isBuffer)
    return text + a.elementType;
  text += "buffer " + std::to_string(a.count) + "x" + a.elementType;
  switch (a.access) {
  case ArgumentAccess::none:
    return text + ", unused";
  case ArgumentAccess::read:
    return text + ", read";
  case ArgumentAccess::write:
    return text + ", written";
  case ArgumentAccess::readwrite:
    return text + ", read and written";
  }
  return text;
}

std::vector<uint8_t> writeExecutable(const Executable &exe) {
  Writer w;
  w.string(exe.name);
  w.u32(exe.numArgs);
  w.u32(exe.arguments.size());
  for (const ArgumentInfo &a : exe.arguments) {
    w.string(a.name);
    w.u8(a.isBuffer);
    w.string(a.elementType);
    w.u64(a.count);
    w.e32(a.access);
  }
  w.u32(exe.values.size());
  for (const Value &v : exe.values) {
    w.e32(v.kind);
    w.u32(v.index);
    w.e32(v.tag);
    w.e32(v.scope());
    w.u64(static_cast<uint64_t>(v.slot));
    w.u64(v.bytes);
    w.u8(v.isVolatile);
    w.devices(v.devices);
  }
  w.u32(exe.images.size());
  for (const std::vector<uint8_t> &image : exe.images)
    w.bytes(image);
  w.u32(exe.hostObjects.size());
  for (const std::vector<uint8_t> &object : exe.hostObjects)
    w.bytes(object);
  w.u32(exe.kernels.size());
  for (const Kernel &k : exe.kernels) {
    w.string(k.name);
    w.e32(k.target);
    w.string(k.symbol);
    w.string(k.library);
    w.u32(k.hostObject);
    w.u32(k.amd.image);
    w.u64(k.amd.entryOffset);
    w.u32(k.amd.mach);
    w.u32(k.amd.privateSegmentBytes);
    w.u32((k.amd.dispatchPtr ? KERNEL_DISPATCH_PTR : 0) |
          (k.amd.privateSegmentBuffer ? KERNEL_PRIVATE_SEGMENT_BUFFER : 0));
  }
  w.u32(exe.blobs.size());
  for (const Blob &b : exe.blobs) {
    w.u32(b.target);
    w.bytes(b.data);
    w.u32(b.patches.size());
    for (auto &[offset, word] : b.patches) {
      w.u64(offset);
      w.word(word);
    }
  }
  w.u32(exe.inputs.size());
  for (const InputsTable &t : exe.inputs) {
    w.u32(t.table);
    w.u32(t.slots.size());
    for (auto [input, lane] : t.slots) {
      w.u32(input);
      w.u32(lane);
    }
  }
  w.u32(exe.submitters.size());
  for (const Submitter &s : exe.submitters) {
    w.u32(s.numArgs);
    w.u32(s.steps.size());
    for (const Step &step : s.steps) {
      w.e32(step.kind);
      w.u32s(step.operands);
      if (step.kind == StepKind::PatchGroup) {
        w.u64(step.patch.start);
        w.u64(step.patch.count);
        w.u32(step.patch.bits);
        w.word(step.patch.word);
      } else if (step.kind == StepKind::Push) {
        w.u64(step.push.bytes);
        w.e32(step.push.mode);
        w.queue(step.push.queue);
        w.devices(step.push.devices);
      }
    }
  }
  w.u32(exe.plan.size());
  for (const PlanStep &step : exe.plan) {
    w.e32(step.kind);
    w.u32(step.callee);
    w.string(step.name);
    w.u32s(step.operands);
    if (step.kind == PlanStepKind::Copy) {
      for (uint64_t v : {step.copy.dstOffset, step.copy.dstBytes,
                         step.copy.srcOffset, step.copy.srcBytes})
        w.u64(v);
    } else if (step.kind == PlanStepKind::Launch) {
      for (int i = 0; i < 3; ++i)
        w.u64(step.grid.global[i]);
      for (int i = 0; i < 3; ++i)
        w.u64(step.grid.local[i]);
    }
  }
  w.u32(exe.profile.size());
  for (const ProfileEntry &entry : exe.profile) {
    w.string(entry.name);
    w.u32(entry.start);
    w.u32(entry.end);
    w.queue(entry.queue);
  }

  std::vector<uint8_t> file(HEADER_BYTES);
  std::memcpy(file.data(), MAGIC, 4);
  write32le(file.data() + 4, FORMAT_VERSION);
  write64le(file.data() + 8, w.out.size());
  write32le(file.data() + 16, crc32(w.out));
  write32le(file.data() + 20, 0);
  file.insert(file.end(), w.out.begin(), w.out.end());
  return file;
}

void resealExecutable(std::vector<uint8_t> &bytes) {
  if (bytes.size() < HEADER_BYTES)
    return;
  Span<const uint8_t> payload(bytes.data() + HEADER_BYTES,
                              bytes.size() - HEADER_BYTES);
  write32le(bytes.data() + 16, crc32(payload));
}

/// The payload size the header at `header` (HEADER_BYTES of it) gives,
/// checked against the magic, the version and MAX_EXECUTABLE_BYTES.
static Expected<uint64_t> readHeader(const uint8_t *header) {
  if (std::memcmp(header, MAGIC, 4) != 0)
    return formatError("not an HCQX file (bad magic)");
  uint32_t version = read32le(header + 4);
  if (version != FORMAT_VERSION)
    return formatError(
        "format version " + std::to_string(version) +
        ", this reader reads version " + std::to_string(FORMAT_VERSION) +
        (version < FORMAT_VERSION ? ": the file is older than this runtime; "
                                    "recompile it with this hcq-opt"
                                  : ": the file is newer than this runtime"));
  uint64_t size = read64le(header + 8);
  if (size > MAX_EXECUTABLE_BYTES - HEADER_BYTES)
    return formatError("header says " + std::to_string(size) +
                       " payload bytes, more than the " +
                       std::to_string(MAX_EXECUTABLE_BYTES - HEADER_BYTES) +
                       " an executable may have");
  return size;
}

Expected<Executable> readExecutable(Span<const uint8_t> bytes) {
  if (bytes.size() < HEADER_BYTES)
    return formatError("truncated: " + std::to_string(bytes.size()) +
                       " bytes, shorter than the " +
                       std::to_string(HEADER_BYTES) + "-byte header");
  Expected<uint64_t> header = readHeader(bytes.data());
  if (!header)
    return header.takeError();
  uint64_t size = *header;
  if (size != bytes.size() - HEADER_BYTES)
    return formatError(
        "header says " + std::to_string(size) +
        " payload bytes, the "
        "file has " +
        std::to_string(bytes.size() - HEADER_BYTES) +
        (size > bytes.size() - HEADER_BYTES ? " (truncated)" : ""));
  Span<const uint8_t> payload = bytes.dropFront(HEADER_BYTES);
  uint32_t checksum = read32le(bytes.data() + 16);
  if (checksum != crc32(payload))
    return formatError("checksum mismatch: the file is corrupt");

  Reader r(payload);
  Executable exe;
  exe.name = r.string();
  exe.numArgs = r.u32();
  exe.arguments.resize(r.count(29, "arguments"));
  for (ArgumentInfo &a : exe.arguments) {
    a.name = r.string();
    a.isBuffer = r.u8();
    a.elementType = r.string();
    a.count = r.u64();
    a.access = r.e32<abi::ArgumentAccess>(
        uint32_t(abi::ArgumentAccess::readwrite) + 1, "argument access");
  }
  exe.values.resize(r.count(37, "values"));
  for (Value &v : exe.values) {
    v.kind = r.e32<ValueKind>(uint32_t(ValueKind::Variable) + 1, "value kind");
    v.index = r.u32();
    v.tag = r.e32<PlaceholderTag>(abi::NUM_PLACEHOLDER_TAGS, "placeholder tag");
    auto scope = r.e32<PlaceholderScope>(
        uint32_t(PlaceholderScope::DeviceNumber) + 1, "placeholder scope");
    if (!r.failed() && scope != v.scope())
      r.fail("a value of scope " + std::to_string(uint32_t(scope)) +
             " where its tag has scope " + std::to_string(uint32_t(v.scope())));
    v.slot = static_cast<int64_t>(r.u64());
    v.bytes = r.u64();
    v.isVolatile = r.u8();
    v.devices = r.devices();
  }
  exe.images.resize(r.count(8, "images"));
  for (std::vector<uint8_t> &image : exe.images)
    image = r.bytes();
  exe.hostObjects.resize(r.count(8, "host objects"));
  for (std::vector<uint8_t> &object : exe.hostObjects)
    object = r.bytes();
  exe.kernels.resize(r.count(56, "kernels"));
  for (Kernel &k : exe.kernels) {
    k.name = r.string();
    k.target = r.e32<KernelTarget>(uint32_t(KernelTarget::builtin) + 1,
                                   "kernel target");
    k.symbol = r.string();
    k.library = r.string();
    k.hostObject = r.u32();
    k.amd.image = r.u32();
    k.amd.entryOffset = r.u64();
    k.amd.mach = r.u32();
    k.amd.privateSegmentBytes = r.u32();
    uint32_t flags = r.u32();
    k.amd.dispatchPtr = flags & KERNEL_DISPATCH_PTR;
    k.amd.privateSegmentBuffer = flags & KERNEL_PRIVATE_SEGMENT_BUFFER;
  }
  exe.blobs.resize(r.count(16, "blobs"));
  for (Blob &b : exe.blobs) {
    b.target = r.u32();
    b.data = r.bytes();
    b.patches.resize(r.count(40, "patches"));
    for (auto &[offset, word] : b.patches) {
      offset = r.u64();
      word = r.word();
    }
  }
  exe.inputs.resize(r.count(8, "inputs tables"));
  for (InputsTable &t : exe.inputs) {
    t.table = r.u32();
    t.slots.resize(r.count(8, "slots"));
    for (auto &[input, lane] : t.slots) {
      input = r.u32();
      lane = r.u32();
    }
  }
  exe.submitters.resize(r.count(8, "submitters"));
  for (Submitter &s : exe.submitters) {
    s.numArgs = r.u32();
    s.steps.resize(r.count(8, "steps"));
    for (Step &step : s.steps) {
      step.kind = r.e32<StepKind>(abi::NUM_STEP_KINDS, "step kind");
      step.operands = r.u32s();
      if (step.kind == StepKind::PatchGroup) {
        step.patch.start = r.u64();
        step.patch.count = r.u64();
        step.patch.bits = r.u32();
        step.patch.word = r.word();
      } else if (step.kind == StepKind::Push) {
        step.push.bytes = r.u64();
        step.push.mode =
            r.e32<PushMode>(uint32_t(PushMode::cpu) + 1, "push mode");
        step.push.queue = r.queue();
        step.push.devices = r.devices();
      }
    }
  }
  exe.plan.resize(r.count(24, "plan steps"));
  for (PlanStep &step : exe.plan) {
    step.kind = r.e32<PlanStepKind>(abi::NUM_PLAN_STEP_KINDS, "plan step kind");
    step.callee = r.u32();
    step.name = r.string();
    step.operands = r.u32s();
    if (step.kind == PlanStepKind::Copy) {
      for (uint64_t *v : {&step.copy.dstOffset, &step.copy.dstBytes,
                          &step.copy.srcOffset, &step.copy.srcBytes})
        *v = r.u64();
    } else if (step.kind == PlanStepKind::Launch) {
      for (int i = 0; i < 3; ++i)
        step.grid.global[i] = r.u64();
      for (int i = 0; i < 3; ++i)
        step.grid.local[i] = r.u64();
    }
  }
  exe.profile.resize(r.count(24, "profile entries"));
  for (ProfileEntry &entry : exe.profile) {
    entry.name = r.string();
    entry.start = r.u32();
    entry.end = r.u32();
    entry.queue = r.queue();
  }
  if (r.failed())
    return formatError(r.message());
  if (!r.atEnd())
    return formatError(std::to_string(payload.size() - r.offset()) +
                       " bytes after the profile entries");
  if (Error e = validate(exe))
    return std::move(e);
  return exe;
}

Expected<Executable> readExecutableFile(const std::string &path) {
  Expected<RegularFile> file = RegularFile::open(path);
  if (!file)
    return file.takeError();
  // The header first: it says how many bytes to read, so a file of any
  // size (a sparse 64 GiB one) costs 24 bytes of reading to refuse.
  auto failure = [&](Error e) {
    return prependContext("'" + path + "': ", std::move(e));
  };
  if (file->size() < HEADER_BYTES)
    return failure(formatError("truncated: " + std::to_string(file->size()) +
                               " bytes, shorter than the " +
                               std::to_string(HEADER_BYTES) + "-byte header"));
  uint8_t header[HEADER_BYTES];
  if (Error e = file->read(0, header))
    return std::move(e);
  Expected<uint64_t> payload = readHeader(header);
  if (!payload)
    return failure(payload.takeError());
  uint64_t expected = HEADER_BYTES + *payload;
  if (file->size() != expected)
    return failure(
        formatError("the file is " + std::to_string(file->size()) +
                    " bytes, its header says " + std::to_string(expected) +
                    " (" + std::to_string(HEADER_BYTES) + " of header and " +
                    std::to_string(*payload) + " of payload)" +
                    (file->size() < expected ? ": truncated" : "")));
  std::vector<uint8_t> bytes(expected);
  if (Error e = file->read(0, bytes))
    return std::move(e);
  Expected<Executable> exe = readExecutable(bytes);
  if (!exe)
    return failure(exe.takeError());
  return exe;
}

} // namespace hcq::runtime
