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
// A .mlir input is compiled first by one call of the hcq-translate beside
// this tool (--hcq-to-executable, which runs --hcq-pipeline), whose output
// it reads from a pipe, so hcq-run itself stays MLIR-free; --schedule picks
// one of several schedules.
//
// Each --arg gives one schedule argument in order: a buffer as
// TYPE:COUNT:INIT (TYPE f32 or i32; INIT arange, fill=V, or file=PATH of raw
// little-endian elements) or a bound variable as i32=V, i64=V, f32=V or
// f64=V (floats passed as their bits). Every --arg, --input, --output and
// --expected_output is checked against the executable's arguments (how
// many, which, buffer or variable, element type, element count) before a
// device is opened. Runs --runs times, then prints every buffer's first
// --print elements and the host time per run; --output writes and
// --expected_output checks every lane of an output on several devices. For
// a buffer on several devices, --input and --expected_output take one
// value for every lane alike, or every lane's elements lane after lane
// (`2x4xf32=...` for 4 elements on 2 lanes, as --output writes them).
//
// Several executables (--exe, each followed by its --arg options; a
// positional file counts as the first) load onto one runtime, so they share
// its devices, queues and timelines, and each run runs them in the order
// given. A buffer named `@NAME=SPEC` is made once; `@NAME` passes the same
// buffer again, to this executable or a later one.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Base/Device.h"
#include "HCQ/Base/File.h"
#include "HCQ/Base/Ranges.h"
#include "HCQ/Base/Strings.h"
#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Runtime/Workgroups.h"

#include "CommandLine.h"
#include "Values.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <map>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

extern char **environ;

using namespace hcq;
using namespace hcq::runtime;

/// hcq-run's options, as --help lists them.
static const run::OptionInfo OPTIONS[] = {
    {"exe", "file",
     "an executable (.hcqx or .mlir) to load; the --arg options after it are "
     "its arguments"},
    {"arg", "value",
     "one argument: TYPE:COUNT:INIT, i32=V, i64=V, f32=V, f64=V, "
     "@NAME=TYPE:COUNT:INIT or @NAME"},
    {"input", "value",
     "the next argument, typed: [DIMSx]TYPE=VALUE, as in 4x64xf32=@x.npy (a "
     ".npy or raw file, decided by its content), 64xf32=0.5 (every element), "
     "4xi32=1,2,3,4 or i32=7; a buffer on several devices takes every lane's "
     "elements, lane after lane, or one lane's for all"},
    {"output", "@FILE",
     "where the next output buffer (an argument the schedule writes) goes "
     "after the runs, .npy if the name says so, else raw"},
    {"expected_output", "value",
     "what the next output buffer must hold after the runs, as --input takes "
     "it (one number checks every element), in every lane of one on several "
     "devices (or each lane's, lane after lane); a mismatch fails"},
    {"expected_f32_threshold", "number",
     "how far a float output may be from --expected_output (default 1e-4)"},
    {"list-arguments", nullptr,
     "print each executable's arguments (index, name, kind, type, shape, how "
     "it is used) and exit"},
    {"runs", "N", "times to run (default 1)"},
    {"print", "N", "elements of each buffer to print (default 8)"},
    {"pipeline-options", "options",
     "for a .mlir input: --hcq-pipeline's options (space-separated: "
     "'batch-size=4 profile=true')"},
    {"schedule", "name", "for a .mlir input of several schedules: which"},
    {"amd", "none|emulated|hardware",
     "the device AMD:N values run on: none (executables using AMD devices "
     "fail; the default), emulated (PM4/SDMA executed in software, kernels as "
     "CPU twins) or hardware (AMD GPUs through the kernel driver, KFD)"},
    {"twins", "library",
     "a library of CPU twins of AMD kernels (hcq_twin_<symbol>), for "
     "--amd=emulated"},
    {"library-path", "folder",
     "a folder where kernel and twin libraries named without a '/' are "
     "looked for, before LD_LIBRARY_PATH (repeatable, in order)"},
    {"timeout-ms", "MS", "wait timeout in milliseconds (default 30000)"},
    {"device-timeout-ms", "DEVICE=MS",
     "one device's wait timeout, overriding --timeout-ms"},
    {"trace", "file.json",
     "write every run's per-call durations as a Chrome trace (the executable "
     "needs profile=true)"},
    {"max-buffer-bytes", "N",
     "the largest buffer an --arg or --input may make (default 1 GiB)"},
    {"ring-bytes", "N",
     "bytes of each device queue's ring, a multiple of 64 (default 1 MiB); "
     "AMD queues take a power of two from 1024 to 2^30"},
    {"workgroup-threads", "N",
     "threads at most running one host launch's workgroups (a CPU kernel or "
     "an AMD kernel's CPU twin), its queue's own included: 1..1024 (default: "
     "HCQ_WORKGROUP_THREADS when set, else the CPUs hcq-run may run on)"},
    {"help", nullptr, "print this and exit"},
    {"version", nullptr, "print hcq-run's version and exit"},
};

/// The largest --ring-bytes (as the C API's HCQ_MAX_RING_BYTES).
constexpr uint64_t MAX_RING_BYTES = uint64_t(1) << 30;

/// The options' values, once parsed and checked.
struct Settings {
  uint64_t maxBufferBytes = uint64_t(1) << 30;
  double expectedThreshold = 1e-4;
  unsigned runs = 1, printCount = 8, timeoutMs = 30000;
  uint64_t ringBytes = 1 << 20;
  /// 0: the runtime's default.
  unsigned workgroupThreads = 0;
  AMDDevice amd = AMDDevice::None;
  std::string pipelineOptions, scheduleName, traceFile;
};
static Settings settings;

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

Expected<HostBuffer> makeBuffer(std::string_view spec) {
  auto [type, rest] = splitOnce(spec, ':');
  auto [countText, initText] = splitOnce(rest, ':');
  std::optional<uint64_t> count = parseUnsigned(countText);
  if ((type != "f32" && type != "i32") || !count ||
      rest.size() == countText.size())
    return makeError("bad buffer argument '", spec,
                     "' (expected f32|i32:COUNT:INIT)");
  // Sizes in 64 bits, and a limit: a buffer the host cannot hold is
  // refused by name, not attempted.
  if (*count > settings.maxBufferBytes / 4)
    return makeError("buffer argument '", spec, "' is ", *count,
                     " elements, more than --max-buffer-bytes (",
                     settings.maxBufferBytes, " bytes) allows");
  HostBuffer buffer{std::string(type), std::vector<uint8_t>(*count * 4), {}};
  std::string_view init = initText;
  if (consumeFront(init, "file=")) {
    if (Error e = readFilePrefix(std::string(init), buffer.bytes))
      return std::move(e);
    return buffer;
  }
  std::optional<double> fill = 0.0;
  bool arange = init == "arange";
  if (!arange &&
      (!consumeFront(init, "fill=") || !(fill = run::parseNumber(init))))
    return makeError("bad init in '", spec,
                     "' (expected arange, fill=V or file=PATH)");
  for (uint64_t i = 0; i < *count; ++i) {
    double v = arange ? double(i) : *fill;
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

/// The folder this program lives in (from /proc/self/exe).
std::string programFolder() {
  char path[4096];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0)
    return ".";
  std::string_view self(path, size_t(n));
  size_t slash = self.rfind('/');
  return slash == std::string_view::npos ? "."
                                         : std::string(self.substr(0, slash));
}

/// Compiles `mlir` with one call of the hcq-translate installed beside this
/// tool (--hcq-to-executable, which runs --hcq-pipeline first) and reads
/// the executable it writes to a pipe: no file, no folder. Its diagnostics
/// pass through on stderr.
Expected<Executable> compileSchedule(const std::string &mlir) {
  std::string translate = programFolder() + "/hcq-translate";
  if (::access(translate.c_str(), X_OK) != 0)
    return makeError("cannot compile '", mlir, "': no hcq-translate at ",
                     translate);
  std::vector<std::string> args = {translate, "--hcq-to-executable", mlir, "-o",
                                   "-"};
  if (!settings.pipelineOptions.empty())
    args.push_back("--hcq-pipeline-options=" + settings.pipelineOptions);
  if (!settings.scheduleName.empty())
    args.push_back("--hcq-executable=" + settings.scheduleName);
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);

  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0)
    return makeError("cannot make a pipe: ", std::strerror(errno));
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  pid_t pid;
  int spawned =
      ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    return makeError("cannot start ", translate, ": ", std::strerror(spawned));
  }
  // At most what an executable may be: a runaway writer is cut off, not
  // buffered without bound.
  constexpr uint64_t limit = MAX_EXECUTABLE_BYTES + 64;
  std::vector<uint8_t> bytes;
  std::string readError;
  for (;;) {
    uint8_t chunk[1 << 16];
    ssize_t n = ::read(out[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      readError = std::strerror(errno);
      break;
    }
    if (n == 0)
      break;
    if (bytes.size() + size_t(n) > limit) {
      readError = "its output is larger than an executable may be";
      break;
    }
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  ::close(out[0]);
  int status;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return makeError("cannot wait for ", translate, ": ",
                       std::strerror(errno));
  if (!readError.empty())
    return makeError("cannot read what hcq-translate compiled from '", mlir,
                     "': ", readError);
  if (WIFSIGNALED(status))
    return makeError("hcq-translate was killed by signal ", WTERMSIG(status),
                     " compiling '", mlir, "'");
  if (WEXITSTATUS(status) != 0)
    return makeError("hcq-translate could not compile '", mlir, "'");
  return readExecutable(bytes);
}

/// One executable of the command line, with its arguments.
struct Program {
  std::string path;
  /// Its --arg and --input options in order; true for --input.
  std::vector<std::pair<bool, std::string>> argSpecs;
  std::vector<std::string> outputs, expected;
  /// The arguments the schedule writes (its outputs), in order, and the
  /// parsed --expected_output of each of the first ones.
  std::vector<size_t> outputArgs;
  std::vector<run::TypedValue> expectedValues;
  Executable exe;
  /// How the executable's plan uses each argument (getArgumentUses).
  std::vector<ArgumentUse> uses;
  std::vector<Argument> arguments;
  /// Per argument: the host buffer it passes (an index into the pool), or
  /// -1 for a variable.
  std::vector<int> buffers;
  std::unique_ptr<LoadedExecutable> loaded;
};

/// Reads (or compiles) `path` into `program`.
Error readProgram(Program &program) {
  // A file is read as its header says: one of another size is refused
  // before it is read.
  Expected<Executable> exe = endsWith(program.path, ".mlir")
                                 ? compileSchedule(program.path)
                                 : readExecutableFile(program.path);
  if (!exe)
    return exe.takeError();
  program.exe = std::move(*exe);
  program.uses = getArgumentUses(program.exe);
  return Error::success();
}

/// Host buffers, each with one copy per lane, shared by name between
/// programs.
struct BufferPool {
  std::vector<std::vector<HostBuffer>> buffers;
  std::map<std::string, int, std::less<>> named;
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
                        const std::string &spec) {
  auto error = [&](const std::string &message) {
    return makeError(ErrorCode::InvalidArgument, "argument ", i, " (",
                     formatArgument(info, i), "): --input '", spec, "' ",
                     message);
  };
  Expected<run::TypedValue> value =
      run::parseTypedValue(spec, settings.maxBufferBytes);
  if (!value)
    return value.takeError();
  if (value->type != info.elementType)
    return error("is " + value->type + ", the argument " + info.elementType);
  if (value->isScalar()) {
    if (info.isBuffer)
      return error(concat("is a scalar; give the buffer's shape, as in ",
                          info.count, "x", info.elementType, "=..."));
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
  // One value fills every lane alike; as many as the lanes' elements give
  // each lane its own part, lane after lane (the (LANES, N) that --output
  // writes), so that lanes can differ.
  size_t lanes = use ? std::max<size_t>(use->lanes, 1) : 1;
  bool perLane = lanes > 1 && value->count() == lanes * info.count;
  if (value->count() != info.count && !perLane)
    return error(
        concat("has ", value->count(), " elements, the argument ", info.count,
               lanes > 1 ? concat(" (or ", lanes * info.count, ", ", info.count,
                                  " for each of its ", lanes, " lanes)")
                         : std::string()));
  std::vector<HostBuffer> &buffers = pool.buffers.emplace_back();
  if (!perLane) {
    buffers.push_back({value->type, std::move(value->bytes), {}});
  } else {
    size_t laneBytes = value->bytes.size() / lanes;
    for (size_t lane = 0; lane < lanes; ++lane) {
      auto begin = value->bytes.begin() + lane * laneBytes;
      buffers.push_back(
          {value->type, std::vector<uint8_t>(begin, begin + laneBytes), {}});
    }
  }
  passBuffer(program, pool, pool.buffers.size() - 1, use);
  return Error::success();
}

/// Turns `program`'s --arg and --input options into its arguments, each
/// checked against the argument the executable declares (buffer or
/// variable, element type, element count), and all of them against how
/// many it takes.
Error makeArguments(Program &program, BufferPool &pool) {
  const Executable &exe = program.exe;
  const std::vector<ArgumentUse> &declared = program.uses;
  for (size_t i = 0; i < program.argSpecs.size(); ++i) {
    bool typed = program.argSpecs[i].first;
    const std::string &specText = program.argSpecs[i].second;
    std::string_view spec = specText;
    if (i >= exe.arguments.size())
      return makeError(ErrorCode::InvalidArgument,
                       typed ? "--input '" : "--arg '", specText,
                       "' would be argument ", i, ", and @", exe.name,
                       " takes ", exe.arguments.size(), " argument",
                       exe.arguments.size() == 1 ? "" : "s");
    const ArgumentInfo &info = exe.arguments[i];
    const ArgumentUse *d =
        i < declared.size() && declared[i].kind != ArgumentUse::Unused
            ? &declared[i]
            : nullptr;
    if (typed) {
      if (Error e = makeTypedArgument(program, pool, i, info, d, specText))
        return e;
      continue;
    }
    auto error = [&](const auto &...parts) {
      return makeError(ErrorCode::InvalidArgument, "argument ", i, " (",
                       formatArgument(info, i), "): --arg '", specText, "' ",
                       parts...);
    };
    // A variable: TYPE=V, of the argument's own type.
    std::string_view type = spec.substr(0, 4);
    bool isVariable =
        type == "f32=" || type == "f64=" || type == "i32=" || type == "i64=";
    type = type.substr(0, 3);
    if (isVariable) {
      if (info.isBuffer)
        return error("gives a variable; the argument is a buffer (give ",
                     info.elementType, ":", info.count, ":INIT)");
      if (type != info.elementType)
        return error("is ", type, ", the argument ", info.elementType);
      std::string_view text = spec.substr(4);
      if (type == "f32" || type == "f64") {
        std::optional<double> v = run::parseNumber(text);
        if (!v)
          return error("has a bad value '", text, "'");
        program.arguments.push_back(type == "f32" ? Argument::f32(float(*v))
                                                  : Argument::f64(*v));
      } else {
        std::optional<int64_t> v = parseSigned(text);
        if (!v)
          return error("has a bad value '", text, "'");
        if (type == "i32" && (*v < INT32_MIN || *v > INT32_MAX))
          return error("does not fit an i32");
        program.arguments.push_back(Argument::variable(*v));
      }
      program.buffers.push_back(-1);
      continue;
    }
    // A buffer: TYPE:COUNT:INIT, @NAME=TYPE:COUNT:INIT or @NAME.
    if (!info.isBuffer)
      return error("gives a buffer; the argument is a variable (give ",
                   info.elementType, "=V)");
    int index;
    if (consumeFront(spec, "@")) {
      auto [name, init] = splitOnce(spec, '=');
      if (name.empty())
        return makeError(ErrorCode::InvalidArgument, "bad buffer argument '",
                         specText,
                         "' (expected @NAME or @NAME=TYPE:COUNT:INIT)");
      auto it = pool.named.find(name);
      if (init.empty() && it == pool.named.end())
        return makeError(ErrorCode::InvalidArgument, "--arg '", specText,
                         "' names no buffer: define it first as @", name,
                         "=TYPE:COUNT:INIT");
      if (!init.empty() && it != pool.named.end())
        return makeError(ErrorCode::InvalidArgument, "--arg '", specText,
                         "': buffer @", name, " is defined twice");
      if (init.empty()) {
        index = it->second;
      } else {
        Expected<HostBuffer> buffer = makeBuffer(init);
        if (!buffer)
          return buffer.takeError();
        index = pool.buffers.size();
        pool.buffers.emplace_back().push_back(std::move(*buffer));
        pool.named[std::string(name)] = index;
      }
    } else {
      Expected<HostBuffer> buffer = makeBuffer(spec);
      if (!buffer)
        return buffer.takeError();
      index = pool.buffers.size();
      pool.buffers.emplace_back().push_back(std::move(*buffer));
    }
    const HostBuffer &buffer = pool.buffers[index].front();
    uint64_t count = buffer.bytes.size() / 4;
    if (buffer.type != info.elementType)
      return error("is ", buffer.type, ", the argument ", info.elementType);
    if (count != info.count)
      return error("has ", count, " elements, the argument ", info.count);
    if (d && buffer.bytes.size() < d->bytes)
      return error("is ", buffer.bytes.size(), " bytes, the executable uses ",
                   d->bytes);
    passBuffer(program, pool, index, d);
  }
  if (program.argSpecs.size() < exe.arguments.size()) {
    size_t i = program.argSpecs.size();
    return makeError(
        ErrorCode::InvalidArgument, "@", exe.name, " takes ",
        exe.arguments.size(), " arguments, given ", i, ": argument ", i, " (",
        formatArgument(exe.arguments[i], i), ") has no --arg or --input");
  }
  return Error::success();
}

/// Checks `program`'s --output and --expected_output options against the
/// arguments its schedule writes (its outputs, in order): how many, the
/// file to write, and each expected value's element type and count.
Error checkOutputs(Program &program) {
  const Executable &exe = program.exe;
  for (auto [i, info] : enumerate(exe.arguments))
    if (info.isBuffer && (info.access == ArgumentAccess::write ||
                          info.access == ArgumentAccess::readwrite))
      program.outputArgs.push_back(i);
  size_t outputs = program.outputArgs.size();
  for (auto [flag, given] : {std::pair{"--output", program.outputs.size()},
                             {"--expected_output", program.expected.size()}})
    if (given > outputs)
      return makeError(ErrorCode::InvalidArgument, given, " ", flag,
                       " options for @", exe.name, ", which writes ", outputs,
                       " buffer", outputs == 1 ? "" : "s");
  auto which = [&](size_t k) {
    size_t i = program.outputArgs[k];
    return concat("output ", k, " (argument ", i, ", ",
                  formatArgument(exe.arguments[i], i), ")");
  };
  for (auto [k, output] : enumerate(program.outputs)) {
    if (!startsWith(output, "@") || output.size() == 1)
      return makeError(ErrorCode::InvalidArgument, "bad --output '", output,
                       "' (expected @FILE)");
    // The file is written after the runs: its folder must be there now.
    std::string path = output.substr(1);
    size_t slash = path.rfind('/');
    std::string folder = slash == std::string::npos ? "."
                         : slash == 0               ? "/"
                                                    : path.substr(0, slash);
    struct stat st;
    if (::stat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        ::access(folder.c_str(), W_OK) != 0)
      return makeError(ErrorCode::InvalidArgument, "--output '", output,
                       "' for ", which(k), ": cannot write into folder '",
                       folder, "'");
  }
  for (auto [k, text] : enumerate(program.expected)) {
    const ArgumentInfo &info = exe.arguments[program.outputArgs[k]];
    Expected<run::TypedValue> value =
        run::parseTypedValue(text, settings.maxBufferBytes);
    if (!value)
      return prependContext(
          concat("--expected_output '", text, "' for ", which(k), ": "),
          value.takeError());
    if (value->type != info.elementType)
      return makeError(ErrorCode::InvalidArgument, "--expected_output '", text,
                       "' for ", which(k), " is ", value->type, ", the output ",
                       info.elementType);
    size_t lanes =
        std::max<size_t>(program.uses[program.outputArgs[k]].lanes, 1);
    if (value->count() != 1 && value->count() != info.count &&
        (lanes == 1 || value->count() != lanes * info.count))
      return makeError(
          ErrorCode::InvalidArgument, "--expected_output '", text, "' for ",
          which(k), " has ", value->count(), " elements, the output ",
          info.count,
          lanes > 1 ? concat(" on ", lanes,
                             " lanes (give one, for every element, all, or "
                             "all of every lane: ",
                             lanes * info.count, ")")
                    : std::string(" (give one, for every element, or all)"));
    program.expectedValues.push_back(std::move(*value));
  }
  return Error::success();
}

/// Reads the options into `settings`; an error names the bad one.
Error readSettings(const run::CommandLine &cl) {
  auto number = [&](const char *name, auto &field) -> Error {
    std::optional<std::string> text = cl.last(name);
    if (!text)
      return Error::success();
    std::optional<uint64_t> n = parseUnsigned(*text);
    using Field = std::decay_t<decltype(field)>;
    if (!n || *n > uint64_t(std::numeric_limits<Field>::max()))
      return makeError("--", name, "=", *text, ": not a number of the range ",
                       "0..", uint64_t(std::numeric_limits<Field>::max()));
    field = Field(*n);
    return Error::success();
  };
  if (Error e = number("runs", settings.runs))
    return e;
  if (Error e = number("print", settings.printCount))
    return e;
  if (Error e = number("timeout-ms", settings.timeoutMs))
    return e;
  if (Error e = number("max-buffer-bytes", settings.maxBufferBytes))
    return e;
  if (Error e = number("ring-bytes", settings.ringBytes))
    return e;
  if (Error e = number("workgroup-threads", settings.workgroupThreads))
    return e;
  if (std::optional<std::string> t = cl.last("expected_f32_threshold")) {
    std::optional<double> v = run::parseNumber(*t);
    if (!v || !(*v >= 0))
      return makeError("--expected_f32_threshold=", *t,
                       ": not a number of at least 0");
    settings.expectedThreshold = *v;
  }
  if (std::optional<std::string> amd = cl.last("amd")) {
    if (*amd == "none")
      settings.amd = AMDDevice::None;
    else if (*amd == "emulated")
      settings.amd = AMDDevice::Emulated;
    else if (*amd == "hardware")
      settings.amd = AMDDevice::Hardware;
    else
      return makeError("--amd=", *amd, ": expected none, emulated or hardware");
  }
  settings.pipelineOptions = cl.last("pipeline-options").value_or("");
  settings.scheduleName = cl.last("schedule").value_or("");
  settings.traceFile = cl.last("trace").value_or("");
  return Error::success();
}
} // namespace

/// Prints "error: MESSAGE" (in red on a terminal, as LLVM's tools do).
void printError(const std::string &message) {
  bool color = ::isatty(STDERR_FILENO);
  std::fprintf(stderr, "%s%s%s %s\n", color ? "\033[0;1;31m" : "",
               "error:", color ? "\033[0m" : "", message.c_str());
}

/// Checks the settings readSettings read, and returns --device-timeout-ms's
/// timeouts by device.
Expected<NameMap<std::chrono::milliseconds>>
checkSettings(const run::CommandLine &cl) {
  if (settings.timeoutMs == 0)
    return makeError(
        ErrorCode::InvalidArgument,
        "--timeout-ms must be positive: a wait that may not wait at "
        "all reports a hang on a healthy run");
  if (settings.runs == 0)
    return makeError(ErrorCode::InvalidArgument, "--runs must be at least 1");
  if (settings.ringBytes < 64 || settings.ringBytes % 64)
    return makeError(
        ErrorCode::InvalidArgument,
        concat("--ring-bytes must be a positive multiple of 64, got ",
               settings.ringBytes));
  if (cl.last("workgroup-threads") &&
      (settings.workgroupThreads < 1 ||
       settings.workgroupThreads > MAX_WORKGROUP_THREADS))
    return makeError(ErrorCode::InvalidArgument,
                     concat("--workgroup-threads must be 1..",
                            MAX_WORKGROUP_THREADS, ", got ",
                            settings.workgroupThreads));
  if (settings.ringBytes > MAX_RING_BYTES)
    return makeError(ErrorCode::InvalidArgument,
                     concat("--ring-bytes must be at most ", MAX_RING_BYTES,
                            " (1 GiB), got ", settings.ringBytes));
  NameMap<std::chrono::milliseconds> deviceTimeouts;
  for (const run::Occurrence &spec : cl.all("device-timeout-ms")) {
    auto [device, ms] = splitOnce(spec.value, '=');
    Expected<DeviceName> name = parseDeviceName(device);
    std::optional<uint64_t> value = parseUnsigned(ms);
    if (!name || device.find(':') == std::string_view::npos || !value ||
        *value == 0 || *value > UINT32_MAX) {
      if (!name)
        consumeError(name.takeError());
      return makeError(ErrorCode::InvalidArgument,
                       "bad --device-timeout-ms '" + spec.value +
                           "' (expected DEVICE=MS, as in AMD:0=500; MS 1.." +
                           std::to_string(UINT32_MAX) + ")");
    }
    deviceTimeouts[name->str()] = std::chrono::milliseconds(*value);
  }
  return deviceTimeouts;
}

/// A GPU reaches only memory in its VM: buffers on hardware AMD devices
/// are copied into the GPU's memory, and CPU ones into the runtime's host
/// memory, which it registers with the GPUs (once per buffer, however many
/// executables use it).
Error placeOnGPUs(Runtime &runtime, std::vector<Program> &programs,
                  BufferPool &pool) {
  for (Program &program : programs) {
    const std::vector<ArgumentUse> &uses = program.uses;
    for (auto [i, index] : enumerate(program.buffers)) {
      if (index < 0 || i >= uses.size())
        continue;
      std::vector<HostBuffer> &lanes = pool.buffers[index];
      const std::vector<DeviceId> &devices = uses[i].devices;
      for (auto [lane, buffer] : enumerate(lanes)) {
        if (lane >= devices.size() || (devices[lane].kind != DeviceKind::AMD &&
                                       devices[lane].kind != DeviceKind::CPU))
          continue;
        if (!buffer.device) {
          Expected<Buffer> allocated =
              runtime.allocate(devices[lane], buffer.bytes.size());
          if (!allocated)
            return allocated.takeError();
          buffer.device = std::move(*allocated);
          std::memcpy(buffer.device.hostView(), buffer.bytes.data(),
                      buffer.bytes.size());
        }
        program.arguments[i].lanes[lane] = buffer.device.hostView();
      }
    }
  }
  return Error::success();
}

/// Prints every buffer argument's first --print elements, lane by lane.
void printBuffers(const std::vector<Program> &programs,
                  const BufferPool &pool) {
  for (auto [p, program] : enumerate(programs))
    for (auto [i, index] : enumerate(program.buffers)) {
      if (index < 0)
        continue;
      const std::vector<HostBuffer> &lanes = pool.buffers[index];
      for (auto [lane, buffer] : enumerate(lanes)) {
        std::string line;
        if (programs.size() > 1)
          line += concat("exe ", p, ' ');
        line += concat("arg ", i);
        if (lanes.size() > 1)
          line += concat(" lane ", lane);
        line += ':';
        uint64_t elements =
            buffer.bytes.size() /
            run::elementBytes(buffer.type).value_or(buffer.bytes.size());
        for (unsigned e = 0; e < settings.printCount && e < elements; ++e)
          line += ' ' + run::formatElement(buffer.type, buffer.data(), e);
        std::printf("%s\n", line.c_str());
      }
    }
}

/// Writes each --output and compares each --expected_output: the written
/// buffer arguments in order, every lane of one on several devices (the
/// file holds them all; each lane is compared). Each mismatch is printed;
/// returns whether there was one.
Expected<bool> writeAndCheckOutputs(std::vector<Program> &programs,
                                    const BufferPool &pool) {
  bool mismatch = false;
  for (Program &program : programs) {
    for (auto [k, i] : enumerate(program.outputArgs)) {
      if (k >= program.outputs.size() && k >= program.expectedValues.size())
        break;
      const ArgumentInfo &info = program.exe.arguments[i];
      int index = i < program.buffers.size() ? program.buffers[i] : -1;
      if (index < 0)
        continue;
      const std::vector<HostBuffer> &buffers = pool.buffers[index];
      size_t laneCount = std::min<size_t>(
          buffers.size(), std::max<size_t>(program.uses[i].lanes, 1));
      const HostBuffer &first = buffers.front();
      std::optional<unsigned> size = run::elementBytes(first.type);
      uint64_t count = size ? first.bytes.size() / *size : 0;
      std::vector<const uint8_t *> lanes;
      for (size_t lane = 0; lane < laneCount; ++lane)
        lanes.push_back(buffers[lane].data());
      if (k < program.outputs.size())
        if (Error e = run::writeValue(program.outputs[k].substr(1), first.type,
                                      lanes, count))
          return std::move(e);
      if (k >= program.expectedValues.size())
        continue;
      const run::TypedValue &expected = program.expectedValues[k];
      // A value of every lane's elements gives each lane its own part.
      bool perLane = laneCount > 1 && expected.count() != count &&
                     expected.count() == laneCount * count;
      for (auto [lane, data] : enumerate(lanes)) {
        run::TypedValue part;
        if (perLane) {
          size_t laneBytes = expected.bytes.size() / laneCount;
          auto begin = expected.bytes.begin() + lane * laneBytes;
          part = {expected.type, {count}, {begin, begin + laneBytes}};
        }
        std::optional<std::string> why = run::compareValues(
            first.type, data, count, perLane ? part : expected,
            settings.expectedThreshold);
        if (!why)
          continue;
        std::string where =
            concat("output ", k, " (", formatArgument(info, i), ")");
        if (laneCount > 1)
          where += concat(" lane ", lane,
                          lane < program.uses[i].devices.size()
                              ? " (" + program.uses[i].devices[lane].str() + ")"
                              : std::string());
        std::fflush(stdout);
        printError(where + " is not as expected: " + *why);
        mismatch = true;
      }
    }
  }
  return mismatch;
}

int main(int argc, char **argv) {
  auto fail = [](const std::string &message) {
    std::fflush(stdout);
    printError(message);
    return 1;
  };
  Expected<run::CommandLine> parsed =
      run::CommandLine::parse(argc, argv, OPTIONS);
  if (!parsed)
    return fail(toString(parsed.takeError()));
  const run::CommandLine &cl = *parsed;
  if (cl.has("help")) {
    std::fputs(run::formatHelp("hcq-run [options] <file.hcqx|file.mlir>\n\n"
                               "Runs hcq executables (or schedules, compiled "
                               "by the hcq-translate beside it).",
                               OPTIONS)
                   .c_str(),
               stdout);
    return 0;
  }
  if (cl.has("version")) {
    std::printf("hcq-run, hcq " HCQ_VERSION " (executable format version %u)\n",
                unsigned(abi::FORMAT_VERSION));
    return 0;
  }
  if (Error e = readSettings(cl))
    return fail(toString(std::move(e)));
  if (cl.positionals.size() > 1)
    return fail(concat("more than one file: '", cl.positionals[1].value,
                       "' (give each further executable as --exe FILE)"));
  // The executables in command-line order; each --arg belongs to the last
  // executable before it (all of them to the only one, if there is one).
  std::vector<std::pair<unsigned, std::string>> files;
  for (const run::Occurrence &file : cl.positionals)
    files.push_back({file.position, file.value});
  for (const run::Occurrence &file : cl.all("exe"))
    files.push_back({file.position, file.value});
  std::sort(files.begin(), files.end());
  if (files.empty())
    return fail("no executable: give a file, or --exe FILE for each");
  Expected<NameMap<std::chrono::milliseconds>> deviceTimeouts =
      checkSettings(cl);
  if (!deviceTimeouts)
    return fail(toString(deviceTimeouts.takeError()));
  std::vector<Program> programs(files.size());
  for (auto [i, file] : enumerate(files))
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
  for (const run::Occurrence &spec : cl.all("arg"))
    specs.push_back({spec.position, false, spec.value});
  for (const run::Occurrence &spec : cl.all("input"))
    specs.push_back({spec.position, true, spec.value});
  std::sort(specs.begin(), specs.end(), [](const auto &a, const auto &b) {
    return std::get<0>(a) < std::get<0>(b);
  });
  for (auto &[position, typed, spec] : specs)
    programs[ownerAt(position)].argSpecs.push_back({typed, spec});
  for (const run::Occurrence &spec : cl.all("output"))
    programs[ownerAt(spec.position)].outputs.push_back(spec.value);
  for (const run::Occurrence &spec : cl.all("expected_output"))
    programs[ownerAt(spec.position)].expected.push_back(spec.value);
  for (Program &program : programs)
    if (Error e = readProgram(program))
      return fail(toString(std::move(e)));
  if (cl.has("list-arguments")) {
    for (auto [p, program] : enumerate(programs)) {
      if (programs.size() > 1)
        std::printf("exe %zu ", p);
      std::printf("@%s, %u arguments\n", program.exe.name.c_str(),
                  unsigned(program.exe.numArgs));
      for (auto [i, argument] : enumerate(program.exe.arguments))
        std::printf("  %zu %s\n", i, formatArgument(argument, i).c_str());
    }
    return 0;
  }
  // Everything the command line says of each executable is checked
  // against it before a device is opened.
  bool tracing = !settings.traceFile.empty();
  for (Program &program : programs) {
    if (tracing && program.exe.profile.empty())
      return fail("--trace: '" + program.path +
                  "' has no timestamps; compile it with profile=true "
                  "(--pipeline-options=profile=true)");
    if (Error e = checkOutputs(program))
      return fail(programs.size() > 1
                      ? program.path + ": " + toString(std::move(e))
                      : toString(std::move(e)));
  }
  BufferPool pool;
  for (Program &program : programs)
    if (Error e = makeArguments(program, pool))
      return fail(programs.size() > 1
                      ? program.path + ": " + toString(std::move(e))
                      : toString(std::move(e)));

  RuntimeOptions options;
  options.waitTimeout = std::chrono::milliseconds(settings.timeoutMs);
  options.deviceWaitTimeouts = std::move(*deviceTimeouts);
  options.amd = settings.amd;
  for (const run::Occurrence &library : cl.all("twins"))
    options.twinLibraries.push_back(library.value);
  for (const run::Occurrence &folder : cl.all("library-path"))
    options.librarySearchPaths.push_back(folder.value);
  options.ringBytes = settings.ringBytes;
  if (settings.workgroupThreads)
    setWorkgroupThreads(settings.workgroupThreads);
  // Errors name hcq-run's options; twins cannot be registered here.
  options.optionNames = {{"librarySearchPaths", "--library-path"},
                         {"twinLibraries", "--twins"},
                         {"amdTwins", ""}};
  // One runtime: every executable shares its devices.
  std::shared_ptr<Runtime> runtime = Runtime::create(std::move(options));
  if (settings.amd == AMDDevice::Hardware)
    if (Error e = placeOnGPUs(*runtime, programs, pool))
      return fail(toString(std::move(e)));
  for (Program &program : programs) {
    Expected<std::unique_ptr<LoadedExecutable>> loaded =
        runtime->load(program.exe);
    if (!loaded)
      return fail(programs.size() > 1
                      ? program.path + ": " + toString(loaded.takeError())
                      : toString(loaded.takeError()));
    program.loaded = std::move(*loaded);
  }
  // Tracing reads each run's timestamps back, so it waits for each run.
  std::vector<ProfileEvent> events;
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < settings.runs; ++i)
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

  printBuffers(programs, pool);
  Expected<bool> mismatch = writeAndCheckOutputs(programs, pool);
  if (!mismatch)
    return fail(toString(mismatch.takeError()));
  std::fflush(stdout); // the results come before the timing line
  if (tracing) {
    std::string trace = chromeTrace(events);
    if (Error e = writeFile(settings.traceFile, trace.data(), trace.size()))
      return fail(toString(std::move(e)));
    // Per call name, in order of first appearance: how often it ran and for
    // how long on average.
    std::vector<std::pair<std::string, std::pair<uint64_t, double>>> totals;
    for (const ProfileEvent &e : events) {
      auto it = std::find_if(totals.begin(), totals.end(),
                             [&](const auto &t) { return t.first == e.name; });
      if (it == totals.end())
        it = totals.insert(totals.end(), {e.name, {0, 0.0}});
      ++it->second.first;
      it->second.second += double(e.endNs - e.startNs) / 1000.0;
    }
    for (auto &[name, total] : totals)
      std::fprintf(stderr, "profile: %s, %" PRIu64 " calls, %.2f us mean\n",
                   name.c_str(), total.first, total.second / total.first);
  }
  using us = std::chrono::duration<double, std::micro>;
  std::fprintf(stderr, "%u runs: %.2f us/run submitted, %.2f us/run finished\n",
               settings.runs, us(submitted - start).count() / settings.runs,
               us(finished - start).count() / settings.runs);
  return *mismatch ? 1 : 0;
}
