//===- hcq-exe-dump.cpp - Print an HCQX executable ------------------------===//
//
// Reads an executable file the way the runtime does (no MLIR: its header
// first, then only the bytes the header gives) and prints what it holds; a
// truncated, corrupt or oversized file is an error and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Base/Device.h"
#include "HCQ/Base/Ranges.h"
#include "HCQ/Base/Strings.h"
#include "HCQ/Runtime/Executable.h"

#include <cstdio>
#include <cstring>
#include <iostream>

using namespace hcq;
using namespace hcq::runtime;

int main(int argc, char **argv) {
  if (argc == 2 &&
      (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h"))) {
    std::printf("USAGE: hcq-exe-dump <file.hcqx>\n\nPrints what an hcq "
                "executable file holds, read as the runtime reads it.\n");
    return 0;
  }
  if (argc != 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "error: expected one executable file (usage: "
                         "hcq-exe-dump <file.hcqx>)\n");
    return 1;
  }
  std::string inputFile = argv[1];
  Expected<Executable> exe = readExecutableFile(inputFile);
  if (!exe) {
    std::fprintf(stderr, "error: %s\n", toString(exe.takeError()).c_str());
    return 1;
  }
  std::ostream &os = std::cout;
  os << "executable @" << exe->name << " (" << exe->numArgs
     << (exe->numArgs == 1 ? " argument)\n" : " arguments)\n");
  for (auto [i, argument] : enumerate(exe->arguments))
    os << "argument " << i << " " << formatArgument(argument, i) << '\n';
  os << "values " << exe->values.size() << ", kernels " << exe->kernels.size()
     << ", blobs " << exe->blobs.size() << ", inputs tables "
     << exe->inputs.size() << ", submitters " << exe->submitters.size()
     << ", plan steps " << exe->plan.size() << ", images " << exe->images.size()
     << ", host objects " << exe->hostObjects.size() << "\n";
  auto hostObject = [&](const Kernel &k) {
    return "host object " + std::to_string(k.hostObject) + " (" +
           std::to_string(exe->hostObjects[k.hostObject].size()) + " bytes)";
  };
  for (const Kernel &k : exe->kernels) {
    os << "kernel " << k.name << ": ";
    if (k.target == KernelTarget::amd)
      os << "image " << k.amd.image << " (" << exe->images[k.amd.image].size()
         << " bytes), entry at 0x" << toHex(k.amd.entryOffset, /*upper=*/true)
         << (k.hasHostObject() ? ", CPU twin in " + hostObject(k) : "") << '\n';
    else if (k.target == KernelTarget::builtin)
      os << "the runtime's builtin " << k.symbol << '\n';
    else
      os << k.symbol << " in "
         << (k.hasHostObject() ? hostObject(k) : k.library) << '\n';
  }
  for (const Blob &b : exe->blobs)
    os << "blob of value " << b.target << ": " << b.data.size() << " bytes, "
       << b.patches.size() << " patches\n";
  static const char *const stepNames[] = {"fence", "reset", "patch_group",
                                          "push", "finalize"};
  for (auto [i, s] : enumerate(exe->submitters)) {
    os << "submitter " << i << " (" << s.numArgs
       << (s.numArgs == 1 ? " argument):" : " arguments):");
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
