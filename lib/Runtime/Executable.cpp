//===- Executable.cpp - The HCQX executable file format -------------------===//
//
// One definition of every record: `map(io, record)` lists a record's fields
// once, and the same function writes them (Writer), reads and checks them
// (Reader) and gives their smallest encoding (Sizer, which bounds a count
// before anything is allocated). Sections carry their own lengths, so a
// reader skips a section it does not know unless the file marks it
// required. Equality is equality of the written file.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Executable.h"
#include "Validate.h"

#include "HCQ/Base/Bytes.h"
#include "HCQ/Base/File.h"
#include "HCQ/Base/Ranges.h"

#include <algorithm>
#include <cstring>

namespace hcq::runtime {

SharedBytes::SharedBytes(std::vector<uint8_t> bytes) {
  auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  view = Span<const uint8_t>(owned->data(), owned->size());
  owner = std::move(owned);
}

bool SharedBytes::operator==(const SharedBytes &o) const {
  return size() == o.size() &&
         (size() == 0 || std::memcmp(data(), o.data(), size()) == 0);
}

bool Executable::operator==(const Executable &o) const {
  return writeExecutable(*this) == writeExecutable(o);
}

namespace {

using abi::FILE_MAGIC;
constexpr size_t HEADER_BYTES = abi::FILE_HEADER_BYTES;
// An AMD kernel record's flags (docs/executable-format.md).
constexpr uint32_t KERNEL_DISPATCH_PTR = 1, KERNEL_PRIVATE_SEGMENT_BUFFER = 2;

/// The payload's sections, in the order a file has them (each at most
/// once). A section header is {id u32, flags u32, length u64}.
enum class Section : uint32_t {
  Arguments = 1, // the name, the argument count and records
  Values = 2,
  Images = 3,
  HostObjects = 4,
  Kernels = 5,
  Blobs = 6,
  Inputs = 7,
  Submitters = 8,
  Plan = 9,
  Profile = 10,
};
constexpr Section SECTIONS[] = {
    Section::Arguments, Section::Values, Section::Images, Section::HostObjects,
    Section::Kernels,   Section::Blobs,  Section::Inputs, Section::Submitters,
    Section::Plan,      Section::Profile};
/// A section a reader must understand to run the file; one without the flag
/// (the profile entries) may be skipped by a reader that does not know it.
constexpr uint32_t SECTION_REQUIRED = 1;

const char *getSectionName(Section section) {
  switch (section) {
  case Section::Arguments:
    return "arguments";
  case Section::Values:
    return "values";
  case Section::Images:
    return "images";
  case Section::HostObjects:
    return "host objects";
  case Section::Kernels:
    return "kernels";
  case Section::Blobs:
    return "blobs";
  case Section::Inputs:
    return "inputs tables";
  case Section::Submitters:
    return "submitters";
  case Section::Plan:
    return "plan";
  case Section::Profile:
    return "profile entries";
  }
  return "?";
}

/// The limit of an enum's stored values (one past its largest), for the
/// reader's check.
template <typename Enum> constexpr uint32_t enumLimit();
template <> constexpr uint32_t enumLimit<DeviceKind>() {
  return uint32_t(DeviceKind::DISK) + 1;
}
template <> constexpr uint32_t enumLimit<QueueKind>() {
  return uint32_t(QueueKind::SUBMIT) + 1;
}
template <> constexpr uint32_t enumLimit<WordKind>() {
  return uint32_t(WordKind::load) + 1;
}
template <> constexpr uint32_t enumLimit<WordPart>() {
  return uint32_t(WordPart::hi) + 1;
}
template <> constexpr uint32_t enumLimit<ArgumentAccess>() {
  return uint32_t(ArgumentAccess::readwrite) + 1;
}
template <> constexpr uint32_t enumLimit<ValueKind>() {
  return uint32_t(ValueKind::Variable) + 1;
}
template <> constexpr uint32_t enumLimit<PlaceholderTag>() {
  return abi::NUM_PLACEHOLDER_TAGS;
}
template <> constexpr uint32_t enumLimit<PlaceholderScope>() {
  return uint32_t(PlaceholderScope::DeviceNumber) + 1;
}
template <> constexpr uint32_t enumLimit<KernelTarget>() {
  return uint32_t(KernelTarget::builtin) + 1;
}
template <> constexpr uint32_t enumLimit<StepKind>() {
  return abi::NUM_STEP_KINDS;
}
template <> constexpr uint32_t enumLimit<PushMode>() {
  return uint32_t(PushMode::cpu) + 1;
}
template <> constexpr uint32_t enumLimit<PlanStepKind>() {
  return abi::NUM_PLAN_STEP_KINDS;
}

//===----------------------------------------------------------------------===//
// The records: one map() each
//===----------------------------------------------------------------------===//
//
// An IO has u8, flag, u32, u64 (integers by reference), string, data (a
// byte vector), bytes (SharedBytes), enumeration(value, "what") and
// list(vector, "what"), whose elements map() again; `IO::reading` says
// whether it fills the record.

template <class IO> void map(IO &io, uint32_t &v) { io.u32(v); }
template <class IO> void map(IO &io, DeviceId &d) {
  io.enumeration(d.kind, "device kind");
  io.u32(d.index);
}
template <class IO> void map(IO &io, QueueName &q) {
  io.enumeration(q.kind, "queue kind");
  io.u32(q.index);
}
template <class IO> void map(IO &io, Word &w) {
  io.enumeration(w.kind, "word kind");
  io.enumeration(w.part, "word part");
  io.u32(w.shift);
  io.u64(w.value);
  io.u64(w.orBits);
  io.list(w.refs, "word references");
}
template <class IO> void map(IO &io, ArgumentInfo &a) {
  io.string(a.name);
  io.flag(a.isBuffer);
  io.string(a.elementType);
  io.u64(a.count);
  io.enumeration(a.access, "argument access");
}
template <class IO> void map(IO &io, Value &v) {
  io.enumeration(v.kind, "value kind");
  io.u32(v.index);
  io.enumeration(v.tag, "placeholder tag");
  // Stored for readers that do not know the tag; it must be what the tag
  // says.
  PlaceholderScope scope = v.scope();
  io.enumeration(scope, "placeholder scope");
  if (IO::reading && scope != v.scope())
    io.fail(std::string("a value whose scope is not its tag's (") +
            abi::getPlaceholderTagName(v.tag) + ")");
  uint64_t slot = static_cast<uint64_t>(v.slot);
  io.u64(slot);
  v.slot = static_cast<int64_t>(slot);
  io.u64(v.bytes);
  io.flag(v.isVolatile);
  io.list(v.devices, "devices");
}
template <class IO> void map(IO &io, Kernel &k) {
  io.string(k.name);
  io.enumeration(k.target, "kernel target");
  io.string(k.symbol);
  io.string(k.library);
  io.u32(k.hostObject);
  io.u32(k.amd.image);
  io.u64(k.amd.entryOffset);
  io.u32(k.amd.mach);
  io.u32(k.amd.privateSegmentBytes);
  uint32_t flags =
      (k.amd.dispatchPtr ? KERNEL_DISPATCH_PTR : 0) |
      (k.amd.privateSegmentBuffer ? KERNEL_PRIVATE_SEGMENT_BUFFER : 0);
  io.u32(flags);
  k.amd.dispatchPtr = flags & KERNEL_DISPATCH_PTR;
  k.amd.privateSegmentBuffer = flags & KERNEL_PRIVATE_SEGMENT_BUFFER;
}
template <class IO> void map(IO &io, std::pair<uint64_t, Word> &patch) {
  io.u64(patch.first);
  map(io, patch.second);
}
template <class IO> void map(IO &io, Blob &b) {
  io.u32(b.target);
  io.data(b.data);
  io.list(b.patches, "patches");
}
template <class IO> void map(IO &io, std::pair<uint32_t, uint32_t> &slot) {
  io.u32(slot.first);
  io.u32(slot.second);
}
template <class IO> void map(IO &io, InputsTable &t) {
  io.u32(t.table);
  io.list(t.slots, "slots");
}
template <class IO> void map(IO &io, Step &step) {
  io.enumeration(step.kind, "step kind");
  io.list(step.operands, "step operands");
  if (step.kind == StepKind::PatchGroup) {
    io.u64(step.patch.start);
    io.u64(step.patch.count);
    io.u32(step.patch.bits);
    map(io, step.patch.word);
  } else if (step.kind == StepKind::Push) {
    io.u64(step.push.bytes);
    io.enumeration(step.push.mode, "push mode");
    map(io, step.push.queue);
    io.list(step.push.devices, "devices");
  }
}
template <class IO> void map(IO &io, Submitter &s) {
  io.u32(s.numArgs);
  io.list(s.steps, "steps");
}
template <class IO> void map(IO &io, PlanStep &step) {
  io.enumeration(step.kind, "plan step kind");
  io.u32(step.callee);
  io.string(step.name);
  io.list(step.operands, "plan step operands");
  if (step.kind == PlanStepKind::Copy) {
    io.u64(step.copy.dstOffset);
    io.u64(step.copy.dstBytes);
    io.u64(step.copy.srcOffset);
    io.u64(step.copy.srcBytes);
  } else if (step.kind == PlanStepKind::Launch) {
    for (uint64_t &size : step.grid.global)
      io.u64(size);
    for (uint64_t &size : step.grid.local)
      io.u64(size);
  }
}
template <class IO> void map(IO &io, ProfileEntry &entry) {
  io.string(entry.name);
  io.u32(entry.start);
  io.u32(entry.end);
  map(io, entry.queue);
}
template <class IO> void map(IO &io, SharedBytes &bytes) { io.bytes(bytes); }

/// A section's records.
template <class IO> void mapSection(IO &io, Section section, Executable &exe) {
  switch (section) {
  case Section::Arguments:
    io.string(exe.name);
    io.u32(exe.numArgs);
    io.list(exe.arguments, "arguments");
    return;
  case Section::Values:
    return io.list(exe.values, "values");
  case Section::Images:
    return io.list(exe.images, "images");
  case Section::HostObjects:
    return io.list(exe.hostObjects, "host objects");
  case Section::Kernels:
    return io.list(exe.kernels, "kernels");
  case Section::Blobs:
    return io.list(exe.blobs, "blobs");
  case Section::Inputs:
    return io.list(exe.inputs, "inputs tables");
  case Section::Submitters:
    return io.list(exe.submitters, "submitters");
  case Section::Plan:
    return io.list(exe.plan, "plan steps");
  case Section::Profile:
    return io.list(exe.profile, "profile entries");
  }
}

//===----------------------------------------------------------------------===//
// The IOs
//===----------------------------------------------------------------------===//

/// The smallest encoding of a record: what a default one writes (empty
/// lists and strings, the kind with the fewest fields).
class Sizer {
public:
  static constexpr bool reading = false;
  void u8(uint8_t &) { total += 1; }
  void flag(bool &) { total += 1; }
  void u32(uint32_t &) { total += 4; }
  void u64(uint64_t &) { total += 8; }
  void string(std::string &) { total += 8; }
  void data(std::vector<uint8_t> &) { total += 8; }
  void bytes(SharedBytes &) { total += 8; }
  template <typename Enum> void enumeration(Enum &, const char *) {
    total += 4;
  }
  template <typename T> void list(std::vector<T> &, const char *) {
    total += 4;
  }
  void fail(const std::string &) {}

  size_t total = 0;
};

template <typename T> size_t minimumBytes() {
  static const size_t size = [] {
    Sizer sizer;
    T record{};
    map(sizer, record);
    return sizer.total;
  }();
  return size;
}

class Writer {
public:
  static constexpr bool reading = false;
  void u8(uint8_t &v) { out.push_back(v); }
  void flag(bool &v) { out.push_back(v ? 1 : 0); }
  void u32(uint32_t &v) {
    uint8_t b[4];
    write32le(b, v);
    out.insert(out.end(), b, b + 4);
  }
  void u64(uint64_t &v) {
    uint8_t b[8];
    write64le(b, v);
    out.insert(out.end(), b, b + 8);
  }
  void raw(Span<const uint8_t> data) {
    uint64_t size = data.size();
    u64(size);
    out.insert(out.end(), data.begin(), data.end());
  }
  void string(std::string &s) {
    raw(Span<const uint8_t>(reinterpret_cast<const uint8_t *>(s.data()),
                            s.size()));
  }
  void data(std::vector<uint8_t> &v) { raw(v); }
  void bytes(SharedBytes &b) { raw(b); }
  template <typename Enum> void enumeration(Enum &v, const char *) {
    uint32_t stored = static_cast<uint32_t>(v);
    u32(stored);
  }
  template <typename T> void list(std::vector<T> &v, const char *) {
    uint32_t count = v.size();
    u32(count);
    for (T &element : v)
      map(*this, element);
  }
  void fail(const std::string &) {}

  std::vector<uint8_t> out;
};

/// Reads a payload in place: every read checks what is left first, and
/// bytes (images, host objects) are views of the payload, which `owner`
/// keeps alive.
class Reader {
public:
  static constexpr bool reading = true;
  Reader(Span<const uint8_t> in, std::shared_ptr<const void> owner, size_t base)
      : in(in), owner(std::move(owner)), base(base) {}

  bool failed() const { return !error.empty(); }
  const std::string &message() const { return error; }
  size_t offset() const { return at; }
  bool atEnd() const { return at == in.size(); }

  void u8(uint8_t &v) { v = take(1) ? in[at - 1] : 0; }
  void flag(bool &v) {
    uint8_t byte;
    u8(byte);
    v = byte != 0;
  }
  void u32(uint32_t &v) { v = take(4) ? read32le(in.data() + at - 4) : 0; }
  void u64(uint64_t &v) { v = take(8) ? read64le(in.data() + at - 8) : 0; }
  Span<const uint8_t> raw() {
    uint64_t n;
    u64(n);
    if (failed() || !fits(n, 1)) {
      fail("a length of " + std::to_string(n) + " bytes runs past its section");
      return {};
    }
    Span<const uint8_t> v = in.slice(at, n);
    at += n;
    return v;
  }
  void string(std::string &s) {
    Span<const uint8_t> b = raw();
    s.assign(b.begin(), b.end());
  }
  void data(std::vector<uint8_t> &v) {
    Span<const uint8_t> b = raw();
    v.assign(b.begin(), b.end());
  }
  void bytes(SharedBytes &b) { b = SharedBytes(owner, raw()); }
  template <typename Enum> void enumeration(Enum &v, const char *what) {
    uint32_t stored;
    u32(stored);
    if (!failed() && stored >= enumLimit<Enum>())
      fail("unknown " + std::string(what) + " " + std::to_string(stored));
    v = static_cast<Enum>(failed() ? 0 : stored);
  }
  /// A count bounded by what is left, each element at least its smallest
  /// encoding, before anything is allocated.
  template <typename T> void list(std::vector<T> &v, const char *what) {
    uint32_t n;
    u32(n);
    if (!failed() && !fits(n, minimumBytes<T>()))
      fail(std::string("count of ") + what + " (" + std::to_string(n) +
           ") exceeds its section");
    if (failed())
      return;
    v.resize(n);
    for (T &element : v) {
      map(*this, element);
      if (failed())
        return;
    }
  }
  void fail(const std::string &why) {
    if (error.empty())
      error = why + " (payload byte " + std::to_string(base + at) + ")";
  }
  void skip(uint64_t n) { take(n); }

private:
  bool fits(uint64_t n, size_t each) const {
    return n <= (in.size() - at) / each;
  }
  bool take(size_t n) {
    if (failed())
      return false;
    if (in.size() - at < n) {
      fail("truncated: needs " + std::to_string(n) + " more bytes");
      return false;
    }
    at += n;
    return true;
  }

  Span<const uint8_t> in;
  std::shared_ptr<const void> owner;
  size_t base; // the payload offset of data[0], for messages
  size_t at = 0;
  std::string error;
};

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
    use.lanes = std::max(use.lanes, v.lanes());
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
  // The IOs take records by reference; the writer only reads them.
  Executable &records = const_cast<Executable &>(exe);
  Writer w;
  for (Section section : SECTIONS) {
    uint32_t id = static_cast<uint32_t>(section);
    uint32_t flags = section == Section::Profile ? 0 : SECTION_REQUIRED;
    uint64_t length = 0;
    w.u32(id);
    w.u32(flags);
    size_t lengthAt = w.out.size();
    w.u64(length);
    mapSection(w, section, records);
    write64le(w.out.data() + lengthAt, w.out.size() - lengthAt - 8);
  }
  std::vector<uint8_t> file(HEADER_BYTES);
  std::memcpy(file.data(), FILE_MAGIC, 4);
  write32le(file.data() + abi::FILE_VERSION_OFFSET, FORMAT_VERSION);
  write64le(file.data() + abi::FILE_PAYLOAD_SIZE_OFFSET, w.out.size());
  write32le(file.data() + abi::FILE_CHECKSUM_OFFSET, crc32(w.out));
  write32le(file.data() + abi::FILE_RESERVED_OFFSET, 0);
  file.insert(file.end(), w.out.begin(), w.out.end());
  return file;
}

/// The payload size the header at `header` (HEADER_BYTES of it) gives,
/// checked against the magic, the version and MAX_EXECUTABLE_BYTES.
static Expected<uint64_t> readHeader(const uint8_t *header) {
  if (std::memcmp(header, FILE_MAGIC, 4) != 0)
    return formatError("not an HCQX file (bad magic)");
  uint32_t version = read32le(header + abi::FILE_VERSION_OFFSET);
  if (version != FORMAT_VERSION)
    return formatError(
        "format version " + std::to_string(version) +
        ", this reader reads version " + std::to_string(FORMAT_VERSION) +
        (version < FORMAT_VERSION ? ": the file is older than this runtime; "
                                    "recompile it with this hcq-opt"
                                  : ": the file is newer than this runtime"));
  uint64_t size = read64le(header + abi::FILE_PAYLOAD_SIZE_OFFSET);
  if (size > MAX_EXECUTABLE_BYTES - HEADER_BYTES)
    return formatError("header says " + std::to_string(size) +
                       " payload bytes, more than the " +
                       std::to_string(MAX_EXECUTABLE_BYTES - HEADER_BYTES) +
                       " an executable may have");
  return size;
}

/// Reads the file in `bytes` (header and payload), which `owner` keeps
/// alive: the executable's images and host objects are views of it.
static Expected<Executable> readOwned(Span<const uint8_t> bytes,
                                      std::shared_ptr<const void> owner) {
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
        " payload bytes, the file has " +
        std::to_string(bytes.size() - HEADER_BYTES) +
        (size > bytes.size() - HEADER_BYTES ? " (truncated)" : ""));
  Span<const uint8_t> payload = bytes.dropFront(HEADER_BYTES);
  uint32_t checksum = read32le(bytes.data() + abi::FILE_CHECKSUM_OFFSET);
  if (checksum != crc32(payload))
    return formatError("checksum mismatch: the file is corrupt");

  Executable exe;
  Reader sections(payload, owner, 0);
  uint32_t last = 0;
  while (!sections.atEnd()) {
    size_t start = sections.offset();
    uint32_t id, flags;
    uint64_t length;
    sections.u32(id);
    sections.u32(flags);
    sections.u64(length);
    if (sections.failed())
      return formatError("a section header: " + sections.message());
    if (length > payload.size() - sections.offset())
      return formatError("section " + std::to_string(id) + " at payload byte " +
                         std::to_string(start) + " is " +
                         std::to_string(length) +
                         " bytes, past the file's end");
    Span<const uint8_t> body = payload.slice(sections.offset(), length);
    sections.skip(length);
    auto known = std::find(std::begin(SECTIONS), std::end(SECTIONS),
                           static_cast<Section>(id));
    if (known == std::end(SECTIONS)) {
      // A newer writer's section: what it holds is optional or this reader
      // cannot run the file.
      if (flags & SECTION_REQUIRED)
        return formatError("section " + std::to_string(id) +
                           " is required and unknown to this reader: the "
                           "file is newer than this runtime");
      continue;
    }
    if (id <= last)
      return formatError(std::string("the ") +
                         getSectionName(static_cast<Section>(id)) +
                         " section is out of order or repeated");
    last = id;
    Reader r(body, owner, sections.offset() - length);
    mapSection(r, static_cast<Section>(id), exe);
    if (r.failed())
      return formatError(std::string("in the ") +
                         getSectionName(static_cast<Section>(id)) +
                         " section: " + r.message());
    if (!r.atEnd())
      return formatError(std::to_string(length - r.offset()) +
                         (length - r.offset() == 1 ? " byte" : " bytes") +
                         " after the records of the " +
                         getSectionName(static_cast<Section>(id)) + " section");
  }
  if (Error e = validateExecutable(exe))
    return std::move(e);
  return exe;
}

Expected<Executable> readExecutable(Span<const uint8_t> bytes) {
  // One copy of the whole file, which every image and host object views.
  auto owned =
      std::make_shared<const std::vector<uint8_t>>(bytes.begin(), bytes.end());
  Span<const uint8_t> view(owned->data(), owned->size());
  return readOwned(view, std::move(owned));
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
  // One read into memory the executable's images and host objects view (a
  // mapping would save the copy but turns a file shrunk meanwhile into
  // SIGBUS).
  auto bytes = std::make_shared<std::vector<uint8_t>>(expected);
  if (Error e = file->read(0, *bytes))
    return std::move(e);
  Span<const uint8_t> view(bytes->data(), bytes->size());
  Expected<Executable> exe = readOwned(view, std::move(bytes));
  if (!exe)
    return failure(exe.takeError());
  return exe;
}

} // namespace hcq::runtime
