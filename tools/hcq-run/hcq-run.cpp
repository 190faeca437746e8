//===- hcq-run.cpp - Run an executable file -------------------------------===//
//
//   hcq-run FILE.hcqx --arg f32:64:arange --arg f32:64:fill=2 --arg i32=64
//   hcq-run FILE.mlir --pipeline-options=batch-size=4 --arg ...
//   hcq-run MLP.mlir --amd=emulated --twins=libtwins.so --arg ...
//   hcq-run --exe producer.hcqx --arg @x=f32:64:fill=0 --arg f32:64:arange
//           --exe consumer.hcqx --arg f32:1:fill=0 --arg @x --runs 100
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
// little-endian elements) or a bound variable as i32=V, i64=V, f32=V or
// f64=V (floats passed as their bits). Runs --runs times,
// then prints every buffer's first --print elements and the host time per run.
//
// Several executables (--exe, each followed by its --arg options; a
// positional file counts as the first) load onto one runtime, so they share
// its devices, queues and timelines, and each run runs them in the order
// given. A buffer named `@NAME=SPEC` is made once; `@NAME` passes the same
// buffer again, to this executable or a later one.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Support/Device.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include "Values.h"

#include <chrono>
#include <cstring>

using namespace llvm;
using namespace hcq::runtime;

/// hcq-run's own options: --help lists these, not LLVM's.
static cl::OptionCategory runCategory("hcq-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::cat(runCategory),
                                      cl::desc("<file.hcqx|file.mlir>"));
static cl::list<std::string>
    exeFiles("exe", cl::cat(runCategory),
             cl::desc("an executable (.hcqx or .mlir) to load; the "
                      "--arg options after it are its arguments"),
             cl::value_desc("file"));
static cl::list<std::string>
    argSpecs("arg", cl::cat(runCategory),
             cl::desc("one argument: TYPE:COUNT:INIT, i32=V, i64=V, "
                      "f32=V, f64=V, @NAME=TYPE:COUNT:INIT or @NAME"));
static cl::list<std::string> inputSpecs(
    "input", cl::cat(runCategory),
    cl::desc("the next argument, typed: [DIMSx]TYPE=VALUE, as in "
             "4x64xf32=@x.npy (a .npy or raw file, decided by its content), "
             "64xf32=0.5 (every element), 4xi32=1,2,3,4 or i32=7"));
static cl::list<std::string> outputSpecs(
    "output", cl::cat(runCategory),
    cl::desc("@FILE: where the next output buffer (an argument the schedule "
             "writes) goes after the runs, .npy if the name says so, else "
             "raw"));
static cl::list<std::string> expectedOutputs(
    "expected_output", cl::cat(runCategory),
    cl::desc("what the next output buffer must hold after the runs, as "
             "--input takes it (one number checks every element); a "
             "mismatch fails"));
static cl::opt<double> expectedThreshold(
    "expected_f32_threshold", cl::cat(runCategory),
    cl::desc("how far a float output may be from --expected_output"),
    cl::init(1e-4));
static cl::opt<bool>
    listArguments("list-arguments", cl::cat(runCategory),
                  cl::desc("print each executable's arguments (index, name, "
                           "kind, type, shape, how it is used) and exit"));
static cl::opt<unsigned> runs("runs", cl::cat(runCategory),
                              cl::desc("times to run"), cl::init(1));
static cl::opt<unsigned> printCount("print", cl::cat(runCategory),
                                    cl::desc("elements to print"), cl::init(8));
static cl::opt<std::string>
    pipelineOptions("pipeline-options", cl::cat(runCategory),
                    cl::desc("for a .mlir input: --hcq-pipeline's options "
                             "(space-separated: 'batch-size=4 profile=true')"));
static cl::opt<std::string>
    scheduleName("schedule", cl::cat(runCategory),
                 cl::desc("for a .mlir input of several schedules: which"));
static cl::opt<AMDDevice> amdDevice(
    "amd", cl::cat(runCategory), cl::desc("the device AMD:N values run on"),
    cl::values(clEnumValN(AMDDevice::None, "none",
                          "none: executables using AMD devices fail"),
               clEnumValN(AMDDevice::Hardware, "hardware",
                          "AMD GPUs through the kernel driver (KFD)"),
               clEnumValN(AMDDevice::Emulated, "emulated",
                          "the emulated AMD device (PM4/SDMA executed in "
                          "software, kernels as CPU twins)")),
    cl::init(AMDDevice::None));
static cl::list<std::string>
    twinLibraries("twins", cl::cat(runCategory),
                  cl::desc("a library of CPU twins of AMD kernels "
                           "(hcq_twin_<symbol>), for --amd=emulated"));
static cl::list<std::string> deviceTimeouts(
    "device-timeout-ms", cl::cat(runCategory),
    cl::desc("one device's wait timeout, overriding --timeout-ms"),
    cl::value_desc("DEVICE=MS"));
static cl::opt<std::string>
    traceFile("trace", cl::cat(runCategory),
              cl::desc("write every run's per-call durations as a Chrome "
                       "trace (the executable needs profile=true)"),
              cl::value_desc("file.json"));
static cl::opt<unsigned> timeoutMs("timeout-ms", cl::cat(runCategory),
                                   cl::desc("wait timeout in milliseconds"),
                                   cl::init(30000));
static cl::opt<uint64_t> maxBufferBytes(
    "max-buffer-bytes", cl::cat(runCategory),
    cl::desc("the largest buffer an --arg may make (default 1 GiB)"),
    cl::init(uint64_t(1) << 30));
static cl::opt<uint64_t>
    ringBytes("ring-bytes", cl::cat(runCategory),
              cl::desc("bytes of each device queue's ring (a multiple of 64)"),
              cl::init(1 << 20));

namespace {
struct HostBuffer {
  std::string type;
  std::vector<uint8_t> bytes;
  /// On a GPU, the buffer lives in its memory, filled from `bytes`.
  Buffer device;
  const uint8_t *data() const {
    return device ? device.data<uint8_t>() : bytes.data();
  }
};

/// Reads exactly `bytes.size()` bytes from the start of `path`, however
/// long (or endless, as /dev/zero) the file is.
Error readPrefix(StringRef path, std::vector<uint8_t> &bytes) {
  auto error = [&](const Twine &why) {
    return createStringError(inconvertibleErrorCode(),
                             "cannot read " + Twine(bytes.size()) +
                                 " bytes from " + path + ": " + why);
  };
  Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path);
  if (!file)
    return error(toString(file.takeError()));
  llvm::scope_exit close([&] { sys::fs::closeFile(*file); });
  size_t done = 0;
  while (done < bytes.size()) {
    Expected<size_t> n = sys::fs::readNativeFile(
        *file,
        MutableArrayRef<char>(reinterpret_cast<char *>(bytes.data()) + done,
                              bytes.size() - done));
    if (!n)
      return error(toString(n.takeError()));
    if (*n == 0)
      return error("the file ends after " + Twine(done) + " bytes");
    done += *n;
  }
  return Error::success();
}

Expected<HostBuffer> makeBuffer(StringRef spec) {
  SmallVector<StringRef, 3> parts;
  spec.split(parts, ':', 2);
  uint64_t count;
  if (parts.size() != 3 || (parts[0] != "f32" && parts[0] != "i32") ||
      parts[1].getAsInteger(10, count))
    return createStringError(inconvertibleErrorCode(),
                             "bad buffer argument '" + spec +
                                 "' (expected f32|i32:COUNT:INIT)");
  // Sizes in 64 bits, and a limit: a buffer the host cannot hold is
  // refused by name, not attempted.
  if (count > maxBufferBytes / 4)
    return createStringError(
        inconvertibleErrorCode(),
        "buffer argument '" + spec + "' is " + Twine(count) +
            " elements, more than "
            "--max-buffer-bytes (" +
            Twine(uint64_t(maxBufferBytes)) + " bytes) allows");
  HostBuffer buffer{parts[0].str(), std::vector<uint8_t>(count * 4), {}};
  StringRef init = parts[2];
  if (init.starts_with("file=")) {
    if (Error e = readPrefix(init.drop_front(5), buffer.bytes))
      return std::move(e);
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
/// One executable of the command line, with its arguments.
struct Program {
  std::string path;
  /// Its --arg and --input options in order; true for --input.
  std::vector<std::pair<bool, std::string>> argSpecs;
  std::vector<std::string> outputs, expected;
  std::unique_ptr<MemoryBuffer> file;
  Executable exe;
  std::vector<Argument> arguments;
  /// Per argument: the host buffer it passes (an index into the pool), or
  /// -1 for a variable.
  std::vector<int> buffers;
  std::unique_ptr<LoadedExecutable> loaded;
};

/// Reads (or compiles) `path` into `program`.
Error readProgram(Program &program, const char *argv0) {
  StringRef path = program.path;
  if (path.ends_with(".mlir")) {
    Expected<std::unique_ptr<MemoryBuffer>> compiled =
        compileSchedule(path, argv0);
    if (!compiled)
      return compiled.takeError();
    program.file = std::move(*compiled);
  } else {
    Expected<std::unique_ptr<MemoryBuffer>> read =
        hcq::run::readRegularFile(path);
    if (!read)
      return read.takeError();
    program.file = std::move(*read);
  }
  Expected<Executable> exe = readExecutable(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(program.file->getBufferStart()),
      program.file->getBufferSize()));
  if (!exe)
    return exe.takeError();
  program.exe = std::move(*exe);
  return Error::success();
}

/// Host buffers, each with one copy per lane, shared by name between
/// programs.
struct BufferPool {
  std::vector<std::vector<HostBuffer>> buffers;
  StringMap<int> named;
};

/// Passes the pool's host buffer `index` as `program`'s next argument. Each
/// lane of a multi-device argument (`use`, from the plan) gets a copy,
/// filled alike.
void passBuffer(Program &program, BufferPool &pool, int index,
                const ArgumentUse *use) {
  std::vector<HostBuffer> &lanes = pool.buffers[index];
  while (use && use->lanes > lanes.size())
    lanes.push_back({lanes.front().type, lanes.front().bytes, {}});
  Argument argument;
  for (HostBuffer &lane : lanes)
    argument.lanes.push_back(lane.bytes.data());
  program.arguments.push_back(std::move(argument));
  program.buffers.push_back(index);
}

/// Adds the `--input` `spec` of argument `i` (`info` in the file, `use` in
/// the plan) to the program's arguments: a variable, or a host buffer.
Error makeTypedArgument(Program &program, BufferPool &pool, size_t i,
                        const ArgumentInfo &info, const ArgumentUse *use,
                        StringRef spec) {
  auto error = [&](const Twine &message) {
    return createStringError(inconvertibleErrorCode(),
                             "argument " + Twine(i) + " (" +
                                 formatArgument(info, i) + "): --input '" +
                                 spec + "' " + message);
  };
  Expected<hcq::run::TypedValue> value =
      hcq::run::parseTypedValue(spec, maxBufferBytes);
  if (!value)
    return value.takeError();
  if (value->type != info.elementType)
    return error("is " + value->type + ", the argument " + info.elementType);
  if (value->isScalar()) {
    if (info.isBuffer)
      return error("is a scalar; give the buffer's shape, as in " +
                   Twine(info.count) + "x" + info.elementType + "=...");
    int64_t bits = 0;
    std::memcpy(&bits, value->bytes.data(), value->bytes.size());
    if (value->type == "i32")
      bits = int32_t(bits); // sign-extended, as Argument::variable has it
    program.arguments.push_back(Argument::variable(bits));
    program.buffers.push_back(-1);
    return Error::success();
  }
  if (!info.isBuffer)
    return error("is shaped; the argument is a variable (give " +
                 info.elementType + "=V)");
  if (value->count() != info.count)
    return error("has " + Twine(value->count()) + " elements, the argument " +
                 Twine(info.count));
  pool.buffers.emplace_back().push_back(
      {value->type, std::move(value->bytes), {}});
  passBuffer(program, pool, pool.buffers.size() - 1, use);
  return Error::success();
}

/// Turns `program`'s --arg options into its arguments, checked against
/// what the executable declares.
Error makeArguments(Program &program, BufferPool &pool) {
  auto error = [](const Twine &message) {
    return createStringError(inconvertibleErrorCode(), message);
  };
  std::vector<ArgumentUse> declared = getArgumentUses(program.exe);
  for (auto [i, typedAndSpec] : llvm::enumerate(program.argSpecs)) {
    auto &[typed, specText] = typedAndSpec;
    StringRef spec = specText;
    const ArgumentUse *d =
        i < declared.size() && declared[i].kind != ArgumentUse::Unused
            ? &declared[i]
            : nullptr;
    if (typed) {
      if (i >= program.exe.arguments.size())
        return error("--input '" + specText + "': @" + program.exe.name +
                     " has " + Twine(program.exe.arguments.size()) +
                     " arguments");
      if (Error e = makeTypedArgument(program, pool, i,
                                      program.exe.arguments[i], d, specText))
        return e;
      continue;
    }
    bool isF32 = spec.starts_with("f32="), isF64 = spec.starts_with("f64=");
    if (isF32 || isF64) {
      double v;
      if (spec.drop_front(4).getAsDouble(v))
        return error("bad variable value '" + spec.drop_front(4) + "'");
      if (d && d->kind == ArgumentUse::Buffer)
        return error("argument " + Twine(i) + " is a buffer; --arg '" +
                     specText + "' gives a variable");
      program.arguments.push_back(isF32 ? Argument::f32(float(v))
                                        : Argument::f64(v));
      program.buffers.push_back(-1);
      continue;
    }
    bool isI32 = spec.starts_with("i32=");
    if (spec.consume_front("i32=") || spec.consume_front("i64=")) {
      int64_t v;
      if (spec.getAsInteger(10, v))
        return error("bad variable value '" + spec + "'");
      if (isI32 && (v < INT32_MIN || v > INT32_MAX))
        return error("variable value " + spec + " does not fit an i32");
      if (d && d->kind == ArgumentUse::Buffer)
        return error("argument " + Twine(i) + " is a buffer; --arg '" +
                     specText + "' gives a variable");
      program.arguments.push_back(Argument::variable(v));
      program.buffers.push_back(-1);
      continue;
    }
    if (d && d->kind == ArgumentUse::Variable)
      return error("argument " + Twine(i) + " is a variable; --arg '" +
                   specText + "' gives a buffer");
    int index;
    if (spec.consume_front("@")) {
      auto [name, init] = spec.split('=');
      if (name.empty())
        return error("bad buffer argument '" + specText +
                     "' (expected @NAME or @NAME=TYPE:COUNT:INIT)");
      auto it = pool.named.find(name);
      if (init.empty() && it == pool.named.end())
        return error("--arg '" + specText +
                     "' names no buffer: define it "
                     "first as @" +
                     name + "=TYPE:COUNT:INIT");
      if (!init.empty() && it != pool.named.end())
        return error("--arg '" + specText + "': buffer @" + name +
                     " is defined twice");
      if (init.empty()) {
        index = it->second;
      } else {
        Expected<HostBuffer> buffer = makeBuffer(init);
        if (!buffer)
          return buffer.takeError();
        index = pool.buffers.size();
        pool.buffers.emplace_back().push_back(std::move(*buffer));
        pool.named[name] = index;
      }
    } else {
      Expected<HostBuffer> buffer = makeBuffer(spec);
      if (!buffer)
        return buffer.takeError();
      index = pool.buffers.size();
      pool.buffers.emplace_back().push_back(std::move(*buffer));
    }
    std::vector<HostBuffer> &lanes = pool.buffers[index];
    if (d && lanes.front().bytes.size() < d->bytes)
      return error("argument " + Twine(i) + " is a " + Twine(d->bytes) +
                   "-byte buffer; --arg '" + specText + "' gives " +
                   Twine(lanes.front().bytes.size()) + " bytes");
    passBuffer(program, pool, index, d);
  }
  return Error::success();
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "hcq-run, hcq " HCQ_VERSION " (executable format version "
       << hcq::abi::FORMAT_VERSION << ")\n";
  });
  cl::ParseCommandLineOptions(argc, argv, "hcq executable runner\n");
  auto fail = [](const Twine &message) {
    WithColor::error() << message << '\n';
    return 1;
  };
  // The executables in command-line order; each --arg belongs to the last
  // executable before it (all of them to the only one, if there is one).
  std::vector<std::pair<unsigned, std::string>> files;
  if (!inputFile.empty())
    files.push_back({inputFile.getPosition(), inputFile});
  for (auto [i, file] : llvm::enumerate(exeFiles))
    files.push_back({exeFiles.getPosition(i), file});
  llvm::sort(files);
  if (files.empty())
    return fail("no executable: give a file, or --exe FILE for each");
  if (timeoutMs == 0)
    return fail("--timeout-ms must be positive: a wait that may not wait at "
                "all reports a hang on a healthy run");
  if (runs == 0)
    return fail("--runs must be at least 1");
  if (ringBytes < 64 || ringBytes % 64)
    return fail("--ring-bytes must be a positive multiple of 64, got " +
                Twine(ringBytes));
  std::vector<Program> programs(files.size());
  for (auto [i, file] : llvm::enumerate(files))
    programs[i].path = file.second;
  // Each of these belongs to the last executable before it on the command
  // line; --arg and --input keep their order between them.
  auto ownerAt = [&](unsigned position) {
    size_t owner = 0;
    for (size_t p = 1; p < files.size(); ++p)
      if (files[p].first < position)
        owner = p;
    return owner;
  };
  std::vector<std::tuple<unsigned, bool, std::string>> specs;
  for (auto [i, spec] : llvm::enumerate(argSpecs))
    specs.push_back({argSpecs.getPosition(i), false, spec});
  for (auto [i, spec] : llvm::enumerate(inputSpecs))
    specs.push_back({inputSpecs.getPosition(i), true, spec});
  llvm::sort(specs, [](const auto &a, const auto &b) {
    return std::get<0>(a) < std::get<0>(b);
  });
  for (auto &[position, typed, spec] : specs)
    programs[ownerAt(position)].argSpecs.push_back({typed, spec});
  for (auto [i, spec] : llvm::enumerate(outputSpecs))
    programs[ownerAt(outputSpecs.getPosition(i))].outputs.push_back(spec);
  for (auto [i, spec] : llvm::enumerate(expectedOutputs))
    programs[ownerAt(expectedOutputs.getPosition(i))].expected.push_back(spec);
  for (Program &program : programs)
    if (Error e = readProgram(program, argv[0]))
      return fail(toString(std::move(e)));
  if (listArguments) {
    for (auto [p, program] : llvm::enumerate(programs)) {
      if (programs.size() > 1)
        outs() << "exe " << p << ' ';
      outs() << '@' << program.exe.name << ", " << program.exe.numArgs
             << " arguments\n";
      for (auto [i, argument] : llvm::enumerate(program.exe.arguments))
        outs() << "  " << i << ' ' << formatArgument(argument, i) << '\n';
    }
    return 0;
  }
  // The outputs: the buffer arguments each schedule writes, in order.
  for (Program &program : programs) {
    size_t outputs = llvm::count_if(program.exe.arguments, [](auto &a) {
      return a.access == ArgumentAccess::write ||
             a.access == ArgumentAccess::readwrite;
    });
    for (auto [flag, given] : {std::pair{"--output", program.outputs.size()},
                               {"--expected_output", program.expected.size()}})
      if (given > outputs)
        return fail(Twine(given) + " " + flag + " options for @" +
                    program.exe.name + ", which writes " + Twine(outputs) +
                    " buffer" + (outputs == 1 ? "" : "s"));
    for (StringRef output : program.outputs)
      if (!output.starts_with("@") || output.size() == 1)
        return fail("bad --output '" + output + "' (expected @FILE)");
  }
  BufferPool pool;
  for (Program &program : programs)
    if (Error e = makeArguments(program, pool))
      return fail(toString(std::move(e)));

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
  options.ringBytes = ringBytes;
  // One runtime: every executable shares its devices.
  std::shared_ptr<Runtime> runtime = Runtime::create(std::move(options));
  // A GPU reads only its own memory: buffers on hardware AMD devices are
  // copied into it (once per buffer, however many executables use it).
  if (amdDevice == AMDDevice::Hardware)
    for (Program &program : programs) {
      std::vector<ArgumentUse> uses = getArgumentUses(program.exe);
      for (auto [i, index] : llvm::enumerate(program.buffers)) {
        if (index < 0 || i >= uses.size())
          continue;
        std::vector<HostBuffer> &lanes = pool.buffers[index];
        const std::vector<DeviceId> &devices = uses[i].devices;
        for (auto [lane, buffer] : llvm::enumerate(lanes)) {
          if (lane >= devices.size() ||
              devices[lane].kind != hcq::DeviceKind::AMD)
            continue;
          if (!buffer.device) {
            Expected<Buffer> allocated =
                runtime->allocate(devices[lane], buffer.bytes.size());
            if (!allocated)
              return fail(toString(allocated.takeError()));
            buffer.device = std::move(*allocated);
            std::memcpy(buffer.device.hostView(), buffer.bytes.data(),
                        buffer.bytes.size());
          }
          program.arguments[i].lanes[lane] = buffer.device.hostView();
        }
      }
    }
  bool tracing = !traceFile.empty();
  for (Program &program : programs) {
    Expected<std::unique_ptr<LoadedExecutable>> loaded =
        runtime->load(program.exe);
    if (!loaded)
      return fail(programs.size() > 1
                      ? program.path + ": " + toString(loaded.takeError())
                      : toString(loaded.takeError()));
    program.loaded = std::move(*loaded);
    if (tracing && program.exe.profile.empty())
      return fail("--trace: '" + program.path +
                  "' has no timestamps; compile it with profile=true "
                  "(--pipeline-options=profile=true)");
  }
  // Tracing reads each run's timestamps back, so it waits for each run.
  std::vector<ProfileEvent> events;
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < runs; ++i)
    for (Program &program : programs) {
      std::string which =
          "run " + std::to_string(i) +
          (programs.size() > 1 ? " of " + program.path : std::string()) + ": ";
      if (Error e = program.loaded->run(program.arguments))
        return fail(which + toString(std::move(e)));
      if (!tracing)
        continue;
      if (Error e = program.loaded->synchronize())
        return fail(which + toString(std::move(e)));
      for (ProfileEvent &event : program.loaded->profile()) {
        event.run = i;
        events.push_back(std::move(event));
      }
    }
  auto submitted = std::chrono::steady_clock::now();
  if (Error e = runtime->synchronize())
    return fail(toString(std::move(e)));
  auto finished = std::chrono::steady_clock::now();

  raw_ostream &os = outs();
  for (auto [p, program] : llvm::enumerate(programs))
    for (auto [i, index] : llvm::enumerate(program.buffers)) {
      if (index < 0)
        continue;
      const std::vector<HostBuffer> &lanes = pool.buffers[index];
      for (auto [lane, buffer] : llvm::enumerate(lanes)) {
        if (programs.size() > 1)
          os << "exe " << p << ' ';
        os << "arg " << i;
        if (lanes.size() > 1)
          os << " lane " << lane;
        os << ':';
        uint64_t elements =
            buffer.bytes.size() /
            hcq::run::elementBytes(buffer.type).value_or(buffer.bytes.size());
        for (unsigned e = 0; e < printCount && e < elements; ++e) {
          os << ' ' << hcq::run::formatElement(buffer.type, buffer.data(), e);
        }
        os << '\n';
      }
    }
  // Outputs and expected outputs: the written buffer arguments in order
  // (lane 0 of a multi-device one).
  bool mismatch = false;
  for (Program &program : programs) {
    size_t k = 0;
    for (auto [i, info] : llvm::enumerate(program.exe.arguments)) {
      if (info.access != ArgumentAccess::write &&
          info.access != ArgumentAccess::readwrite)
        continue;
      size_t output = k++;
      int index = i < program.buffers.size() ? program.buffers[i] : -1;
      if (index < 0 || (output >= program.outputs.size() &&
                        output >= program.expected.size()))
        continue;
      const HostBuffer &buffer = pool.buffers[index].front();
      std::optional<unsigned> size = hcq::run::elementBytes(buffer.type);
      uint64_t count = size ? buffer.bytes.size() / *size : 0;
      if (output < program.outputs.size())
        if (Error e = hcq::run::writeValue(
                StringRef(program.outputs[output]).drop_front(), buffer.type,
                buffer.data(), count))
          return fail(toString(std::move(e)));
      if (output >= program.expected.size())
        continue;
      Expected<hcq::run::TypedValue> expected =
          hcq::run::parseTypedValue(program.expected[output], maxBufferBytes);
      if (!expected)
        return fail("--expected_output: " + toString(expected.takeError()));
      if (expected->type != buffer.type)
        return fail("--expected_output '" + program.expected[output] + "' is " +
                    expected->type + ", output " + Twine(output) + " (" +
                    formatArgument(info, i) + ") " + buffer.type);
      if (std::optional<std::string> why =
              hcq::run::compareValues(buffer.type, buffer.data(), count,
                                      *expected, expectedThreshold)) {
        WithColor::error() << "output " << output << " ("
                           << formatArgument(info, i)
                           << ") is not as expected: " << *why << '\n';
        mismatch = true;
      }
    }
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
  return mismatch ? 1 : 0;
}
