//===- hcq-run.cpp - Run an executable file -------------------------------===//
//
//   hcq-run FILE.hcqx --arg f32:64:arange --arg f32:64:fill=2 --arg i32=64
//   hcq-run FILE.mlir --pipeline-options=batch-size=4 --arg ...
//   hcq-run MLP.mlir --amd=emulated --twins=libtwins.so --arg ...
//
// CPU devices run on the CPU device; AMD devices on the one --amd names:
// `emulated`, the emulated AMD device, whose kernels are CPU twins from the
// --twins libraries (hcq_twin_<symbol>; include/HCQ/Runtime/Twin.h).
//
// A .mlir input is compiled first by the hcq-opt beside this tool
// (--hcq-pipeline, then --hcq-write-executable into a temporary folder), so
// hcq-run itself stays MLIR-free; --schedule picks one of several schedules.
//
// Each --arg gives one schedule argument in order: a buffer as
// TYPE:COUNT:INIT (TYPE f32 or i32; INIT arange, fill=V, or file=PATH of raw
// little-endian elements) or a bound variable as i32=V. Runs --runs times,
// then prints every buffer's first --print elements and the host time per run.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Support/Device.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>

using namespace llvm;
using namespace hcq::runtime;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.hcqx>"),
                                      cl::Required);
static cl::list<std::string> argSpecs("arg", cl::desc("one argument"));
static cl::opt<unsigned> runs("runs", cl::desc("times to run"), cl::init(1));
static cl::opt<unsigned> printCount("print", cl::desc("elements to print"),
                                    cl::init(8));
static cl::opt<std::string>
    pipelineOptions("pipeline-options",
                    cl::desc("for a .mlir input: --hcq-pipeline's options "
                             "(space-separated: 'batch-size=4 profile=true')"));
static cl::opt<std::string>
    scheduleName("schedule",
                 cl::desc("for a .mlir input of several schedules: which"));
static cl::opt<AMDDevice> amdDevice(
    "amd", cl::desc("the device AMD:N values run on"),
    cl::values(clEnumValN(AMDDevice::None, "none",
                          "none: executables using AMD devices fail"),
               clEnumValN(AMDDevice::Emulated, "emulated",
                          "the emulated AMD device (PM4/SDMA executed in "
                          "software, kernels as CPU twins)")),
    cl::init(AMDDevice::None));
static cl::list<std::string>
    twinLibraries("twins", cl::desc("a library of CPU twins of AMD kernels "
                                    "(hcq_twin_<symbol>), for --amd=emulated"));
static cl::list<std::string> deviceTimeouts(
    "device-timeout-ms",
    cl::desc("one device's wait timeout, overriding --timeout-ms"),
    cl::value_desc("DEVICE=MS"));
static cl::opt<std::string>
    traceFile("trace",
              cl::desc("write every run's per-call durations as a Chrome "
                       "trace (the executable needs profile=true)"),
              cl::value_desc("file.json"));
static cl::opt<unsigned> timeoutMs("timeout-ms",
                                   cl::desc("wait timeout in milliseconds"),
                                   cl::init(30000));

namespace {
struct HostBuffer {
  std::string type;
  std::vector<uint8_t> bytes;
};

Expected<HostBuffer> makeBuffer(StringRef spec) {
  SmallVector<StringRef, 3> parts;
  spec.split(parts, ':', 2);
  unsigned count;
  if (parts.size() != 3 || (parts[0] != "f32" && parts[0] != "i32") ||
      parts[1].getAsInteger(10, count))
    return createStringError(inconvertibleErrorCode(),
                             "bad buffer argument '" + spec +
                                 "' (expected f32|i32:COUNT:INIT)");
  HostBuffer buffer{parts[0].str(), std::vector<uint8_t>(count * 4)};
  StringRef init = parts[2];
  if (init.starts_with("file=")) {
    StringRef path = init.drop_front(5);
    auto file = MemoryBuffer::getFile(path);
    if (!file || (*file)->getBufferSize() < buffer.bytes.size())
      return createStringError(inconvertibleErrorCode(),
                               "cannot read " + Twine(buffer.bytes.size()) +
                                   " bytes from " + path);
    std::memcpy(buffer.bytes.data(), (*file)->getBufferStart(),
                buffer.bytes.size());
    return buffer;
  }
  double fill = 0;
  bool arange = init == "arange";
  if (!arange && (!init.consume_front("fill=") || init.getAsDouble(fill)))
    return createStringError(inconvertibleErrorCode(),
                             "bad init in '" + spec +
                                 "' (expected arange, fill=V or file=PATH)");
  for (unsigned i = 0; i < count; ++i) {
    double v = arange ? i : fill;
    if (buffer.type == "f32") {
      float f = v;
      std::memcpy(&buffer.bytes[i * 4], &f, 4);
    } else {
      int32_t n = static_cast<int32_t>(v);
      std::memcpy(&buffer.bytes[i * 4], &n, 4);
    }
  }
  return buffer;
}
/// Compiles `mlir` with the hcq-opt installed beside this tool and returns
/// the executable file it wrote for the chosen schedule, read into memory;
/// the temporary folder goes whatever happens.
Expected<std::unique_ptr<MemoryBuffer>> compileSchedule(StringRef mlir,
                                                        const char *argv0) {
  std::string self =
      sys::fs::getMainExecutable(argv0, (void *)&compileSchedule);
  SmallString<256> hcqOpt(sys::path::parent_path(self));
  sys::path::append(hcqOpt, "hcq-opt");
  if (!sys::fs::can_execute(hcqOpt))
    return createStringError(inconvertibleErrorCode(),
                             "cannot compile '" + mlir + "': no hcq-opt at " +
                                 hcqOpt);
  SmallString<256> dir;
  if (std::error_code ec = sys::fs::createUniqueDirectory("hcq-run", dir))
    return createStringError(ec, "cannot make a temporary folder");
  llvm::scope_exit removeDir([&] { (void)sys::fs::remove_directories(dir); });
  std::string pipeline = "--hcq-pipeline";
  if (!pipelineOptions.empty())
    pipeline += "=" + pipelineOptions;
  std::string write = "--hcq-write-executable=dir=" + dir.str().str();
  SmallVector<StringRef> args = {hcqOpt, pipeline, mlir,
                                 write,  "-o",     "/dev/null"};
  std::string message;
  int rc = sys::ExecuteAndWait(hcqOpt, args, std::nullopt, {}, 0, 0, &message);
  if (rc != 0)
    return createStringError(inconvertibleErrorCode(),
                             "hcq-opt could not compile '" + mlir + "'" +
                                 (message.empty() ? "" : ": " + message));
  std::vector<std::string> written;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    written.push_back(it->path());
  SmallString<256> chosen(dir);
  if (!scheduleName.empty()) {
    sys::path::append(chosen, scheduleName + ".hcqx");
    if (!llvm::is_contained(written, chosen.str()))
      return createStringError(inconvertibleErrorCode(),
                               "'" + mlir + "' has no schedule @" +
                                   scheduleName);
  } else if (written.size() == 1) {
    chosen = written.front();
  } else if (written.empty()) {
    return createStringError(inconvertibleErrorCode(),
                             "'" + mlir + "' holds no schedule");
  } else {
    return createStringError(inconvertibleErrorCode(),
                             "'" + mlir + "' holds " + Twine(written.size()) +
                                 " schedules: pick one with --schedule");
  }
  auto file = MemoryBuffer::getFile(chosen, false, false);
  if (!file)
    return createStringError(file.getError(), "cannot read " + chosen);
  return std::move(*file);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "hcq executable runner\n");
  auto fail = [](const Twine &message) {
    WithColor::error() << message << '\n';
    return 1;
  };
  std::unique_ptr<MemoryBuffer> file;
  if (StringRef(inputFile).ends_with(".mlir")) {
    Expected<std::unique_ptr<MemoryBuffer>> compiled =
        compileSchedule(inputFile, argv[0]);
    if (!compiled)
      return fail(toString(compiled.takeError()));
    file = std::move(*compiled);
  } else {
    auto read = MemoryBuffer::getFile(inputFile, false, false);
    if (!read)
      return fail("cannot read '" + inputFile +
                  "': " + read.getError().message());
    file = std::move(*read);
  }
  Expected<Executable> exe = readExecutable(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(file->getBufferStart()),
      file->getBufferSize()));
  if (!exe)
    return fail(toString(exe.takeError()));

  std::vector<ArgumentUse> declared = getArgumentUses(*exe);

  // Each buffer argument gets one host buffer per lane, filled alike.
  std::vector<std::vector<HostBuffer>> buffers(argSpecs.size());
  std::vector<Argument> arguments;
  for (auto [i, specText] : llvm::enumerate(argSpecs)) {
    StringRef spec = specText;
    const ArgumentUse *d =
        i < declared.size() && declared[i].kind != ArgumentUse::Unused
            ? &declared[i]
            : nullptr;
    if (spec.consume_front("i32=") || spec.consume_front("i64=")) {
      int64_t v;
      if (spec.getAsInteger(10, v))
        return fail("bad variable value '" + spec + "'");
      if (d && d->kind == ArgumentUse::Buffer)
        return fail("argument " + Twine(i) + " is a buffer; --arg '" +
                    specText + "' gives a variable");
      arguments.push_back(Argument::variable(v));
      continue;
    }
    Expected<HostBuffer> buffer = makeBuffer(spec);
    if (!buffer)
      return fail(toString(buffer.takeError()));
    if (d && d->kind == ArgumentUse::Variable)
      return fail("argument " + Twine(i) + " is a variable; --arg '" +
                  specText + "' gives a buffer");
    if (d && buffer->bytes.size() < d->bytes)
      return fail("argument " + Twine(i) + " is a " + Twine(d->bytes) +
                  "-byte buffer; --arg '" + specText + "' gives " +
                  Twine(buffer->bytes.size()) + " bytes");
    Argument argument;
    buffers[i].assign(d ? d->lanes : 1, std::move(*buffer));
    for (HostBuffer &lane : buffers[i])
      argument.lanes.push_back(lane.bytes.data());
    arguments.push_back(std::move(argument));
  }

  RuntimeOptions options;
  options.waitTimeout = std::chrono::milliseconds(timeoutMs);
  for (StringRef spec : deviceTimeouts) {
    auto [device, ms] = spec.split('=');
    Expected<hcq::DeviceName> name = hcq::parseDeviceName(device);
    unsigned value;
    if (!name || !device.contains(':') || ms.getAsInteger(10, value)) {
      if (!name)
        consumeError(name.takeError());
      return fail("bad --device-timeout-ms '" + spec +
                  "' (expected DEVICE=MS, as in AMD:0=500)");
    }
    options.deviceWaitTimeouts[name->str()] = std::chrono::milliseconds(value);
  }
  options.amd = amdDevice;
  options.twinLibraries.assign(twinLibraries.begin(), twinLibraries.end());
  Expected<std::unique_ptr<LoadedExecutable>> loaded =
      loadExecutable(*exe, options);
  if (!loaded)
    return fail(toString(loaded.takeError()));
  bool tracing = !traceFile.empty();
  if (tracing && exe->profile.empty())
    return fail("--trace: '" + inputFile +
                "' has no timestamps; compile it with profile=true "
                "(--pipeline-options=profile=true)");
  // Tracing reads each run's timestamps back, so it waits for each run.
  std::vector<ProfileEvent> events;
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < runs; ++i) {
    if (Error e = (*loaded)->run(arguments))
      return fail("run " + Twine(i) + ": " + toString(std::move(e)));
    if (!tracing)
      continue;
    if (Error e = (*loaded)->synchronize())
      return fail("run " + Twine(i) + ": " + toString(std::move(e)));
    for (ProfileEvent &event : (*loaded)->profile()) {
      event.run = i;
      events.push_back(std::move(event));
    }
  }
  auto submitted = std::chrono::steady_clock::now();
  if (Error e = (*loaded)->synchronize())
    return fail(toString(std::move(e)));
  auto finished = std::chrono::steady_clock::now();

  raw_ostream &os = outs();
  for (auto [i, lanes] : llvm::enumerate(buffers))
    for (auto [lane, buffer] : llvm::enumerate(lanes)) {
      os << "arg " << i;
      if (lanes.size() > 1)
        os << " lane " << lane;
      os << ':';
      for (unsigned e = 0; e < printCount && e * 4 < buffer.bytes.size(); ++e) {
        if (buffer.type == "f32") {
          float f;
          std::memcpy(&f, &buffer.bytes[e * 4], 4);
          os << ' ' << format("%g", f);
        } else {
          int32_t n;
          std::memcpy(&n, &buffer.bytes[e * 4], 4);
          os << ' ' << n;
        }
      }
      os << '\n';
    }
  os.flush(); // the results come before the timing line on a terminal
  if (tracing) {
    std::error_code ec;
    raw_fd_ostream trace(traceFile, ec);
    if (ec)
      return fail("cannot write '" + traceFile + "': " + ec.message());
    writeChromeTrace(events, trace);
    // Per call name: how often it ran and for how long on average.
    MapVector<StringRef, std::pair<uint64_t, double>> totals;
    for (const ProfileEvent &e : events) {
      auto &[count, us] = totals[e.name];
      ++count;
      us += double(e.endNs - e.startNs) / 1000.0;
    }
    for (auto &[name, total] : totals)
      errs() << format("profile: %s, %llu calls, %.2f us mean\n",
                       name.str().c_str(), (unsigned long long)total.first,
                       total.second / total.first);
  }
  using us = std::chrono::duration<double, std::micro>;
  errs() << format("%u runs: %.2f us/run submitted, %.2f us/run finished\n",
                   unsigned(runs), us(submitted - start).count() / runs,
                   us(finished - start).count() / runs);
  return 0;
}
