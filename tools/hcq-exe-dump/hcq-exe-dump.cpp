//===- hcq-exe-dump.cpp - Print an HCQX executable ------------------------===//
//
// Reads an executable file the way the runtime does (no MLIR) and prints
// what it holds; a truncated or corrupt file is an error and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Base/Device.h"
#include "HCQ/Runtime/Executable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace hcq::runtime;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.hcqx>"),
                                      cl::Required);

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "hcq executable dumper\n");
  sys::fs::file_status status;
  if (!sys::fs::status(inputFile, status) &&
      !sys::fs::is_regular_file(status)) {
    WithColor::error() << "cannot read '" << inputFile
                       << "': not a regular file\n";
    return 1;
  }
  auto buffer = MemoryBuffer::getFile(inputFile, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer) {
    WithColor::error() << "cannot read '" << inputFile
                       << "': " << buffer.getError().message() << '\n';
    return 1;
  }
  ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
      (*buffer)->getBufferSize());
  hcq::Expected<Executable> exe = readExecutable(bytes);
  if (!exe) {
    WithColor::error() << inputFile << ": " << hcq::toString(exe.takeError())
                       << '\n';
    return 1;
  }
  raw_ostream &os = outs();
  os << "executable @" << exe->name << " (" << exe->numArgs << " arguments)\n";
  for (auto [i, argument] : llvm::enumerate(exe->arguments))
    os << "argument " << i << " " << formatArgument(argument, i) << '\n';
  os << "values " << exe->values.size() << ", kernels " << exe->kernels.size()
     << ", blobs " << exe->blobs.size() << ", inputs tables "
     << exe->inputs.size() << ", submitters " << exe->submitters.size()
     << ", plan steps " << exe->plan.size() << ", images " << exe->images.size()
     << "\n";
  for (const Kernel &k : exe->kernels) {
    os << "kernel " << k.name << ": ";
    if (k.target == KernelTarget::amd)
      os << "image " << k.amd.image << " (" << exe->images[k.amd.image].size()
         << " bytes), entry at 0x" << llvm::utohexstr(k.amd.entryOffset)
         << '\n';
    else if (k.target == KernelTarget::builtin)
      os << "the runtime's builtin " << k.symbol << '\n';
    else
      os << k.symbol << " in " << k.library << '\n';
  }
  for (const Blob &b : exe->blobs)
    os << "blob of value " << b.target << ": " << b.data.size() << " bytes, "
       << b.patches.size() << " patches\n";
  static const char *const stepNames[] = {"fence", "reset", "patch_group",
                                          "push", "finalize"};
  for (auto [i, s] : llvm::enumerate(exe->submitters)) {
    os << "submitter " << i << " (" << s.numArgs << " arguments):";
    for (const Step &step : s.steps)
      os << ' ' << stepNames[uint32_t(step.kind)];
    os << '\n';
  }
  static const char *const planNames[] = {"call", "host_call", "copy",
                                          "launch"};
  for (const PlanStep &step : exe->plan) {
    os << "plan: " << planNames[uint32_t(step.kind)];
    if (step.kind == PlanStepKind::Call)
      os << " submitter " << step.callee;
    if (step.kind == PlanStepKind::HostCall)
      os << " \"" << step.name << '"';
    os << '\n';
  }
  for (const ProfileEntry &entry : exe->profile) {
    os << "profile: \"" << entry.name << "\" values " << entry.start << ", "
       << entry.end << " queue " << entry.queue.str() << '\n';
  }
  return 0;
}
