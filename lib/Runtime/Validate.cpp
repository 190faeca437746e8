//===- Validate.cpp - Every check of an executable and its linked plan ----===//
//
// Messages name records as docs/executable-format.md does ("plan step 3",
// "submitter 1", "kernel @k", an op name for a step kind), never a bare enum
// number.
//
//===----------------------------------------------------------------------===//

#include "Validate.h"

#include "HCQ/Base/Ranges.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace hcq::runtime {

Error formatError(const std::string &why) {
  return Error::failure(ErrorCode::InvalidFile,
                        "invalid hcq executable: " + why);
}

Error validateExecutable(const Executable &exe) {
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
        return formatError("submitter " + std::to_string(i) + " has an " +
                           abi::getStepKindName(step.kind) + " step with " +
                           std::to_string(step.operands.size()) +
                           " operands, fewer than the " +
                           std::to_string(abi::getStepOperandCount(step.kind)) +
                           " it reads");
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

namespace {

/// Plan step `i` as messages name it.
std::string describePlanStep(const Executable &exe, size_t i) {
  const PlanStep &step = exe.plan[i];
  std::string what = "plan step " + std::to_string(i);
  switch (step.kind) {
  case PlanStepKind::Call:
    return what + " (a call of submitter " + std::to_string(step.callee) + ")";
  case PlanStepKind::HostCall:
    return what + " (host call '" + step.name + "')";
  case PlanStepKind::Copy:
    return what + " (a host copy)";
  case PlanStepKind::Launch:
    return what + " (a host launch of kernel " + exe.kernels[step.callee].name +
           ")";
  }
  return what;
}

/// Value `v` as messages name it: its index and what it is.
std::string describeValue(const Executable &exe, uint32_t v) {
  const Value &value = exe.values[v];
  std::string what = "value " + std::to_string(v);
  switch (value.kind) {
  case ValueKind::Input:
    return what + " (buffer argument " + std::to_string(value.index) + ")";
  case ValueKind::Variable:
    return what + " (variable argument " + std::to_string(value.index) + ")";
  case ValueKind::Alloc:
    return what + " (an hcq.alloc)";
  case ValueKind::Program:
    return what + " (the program of kernel " + exe.kernels[value.index].name +
           ")";
  case ValueKind::Placeholder:
    return what + " (placeholder " + abi::getPlaceholderTagName(value.tag) +
           ")";
  }
  return what;
}

/// The patch group `step` of a call, with `ops` its operands as the call's
/// values: the offsets it reads from its offset table, as linked, are
/// inside the target, and the input slots inside the inputs table. Returns
/// why not, or nothing.
std::string checkPatchGroup(const Executable &exe,
                            const std::vector<std::vector<uint64_t>> &addresses,
                            const Step &step, Span<const uint32_t> ops) {
  uint32_t target = ops[0], offsets = ops[1], source = ops[2];
  const PatchGroup &group = step.patch;
  uint64_t start = group.start, count = group.count, bits = group.bits;
  if (bits != 32 && bits != 64)
    return "it patches " + std::to_string(bits) + "-bit words";
  if (start + count < start || (start + count) * 8 > exe.values[offsets].bytes)
    return "it reads entries " + std::to_string(start) + ".." +
           std::to_string(start + count) + " of a " +
           std::to_string(exe.values[offsets].bytes / 8) +
           "-entry offset table";
  size_t lanes = addresses[target].size();
  const Word &w = group.word;
  if (w.kind == WordKind::load && addresses[source].size() != 1 &&
      addresses[source].size() < lanes)
    return "it loads from " + describeValue(exe, source) + " of " +
           std::to_string(addresses[source].size()) +
           " lanes into a target of " + std::to_string(lanes);
  if (w.kind == WordKind::variable &&
      exe.values[source].kind != ValueKind::Variable)
    return "its variable word's source is " + describeValue(exe, source) +
           ", no variable";
  if (w.kind == WordKind::constant)
    return "it patches constant words";
  const auto *table = reinterpret_cast<const uint32_t *>(addresses[offsets][0]);
  uint64_t slots = exe.values[source].bytes / 8;
  for (uint64_t e = start; e < start + count; ++e) {
    uint64_t offset = table[2 * e], slot = table[2 * e + 1];
    if (offset + bits / 8 > exe.values[target].bytes)
      return "entry " + std::to_string(e) + " patches byte " +
             std::to_string(offset) + " of a " +
             std::to_string(exe.values[target].bytes) + "-byte blob";
    if (w.kind == WordKind::address && slot + (lanes > 1 ? lanes : 1) > slots)
      return "entry " + std::to_string(e) + " reads inputs slot " +
             std::to_string(slot) + " of " + std::to_string(slots);
  }
  return {};
}

} // namespace

Error validateLinkedPlan(const Executable &exe,
                         const std::vector<std::vector<uint64_t>> &addresses) {
  for (auto [i, table] : enumerate(exe.inputs))
    if (table.slots.size() > exe.values[table.table].bytes / 8)
      return formatError("inputs table " + std::to_string(i) + " of " +
                         std::to_string(exe.values[table.table].bytes / 8) +
                         " slots fills " + std::to_string(table.slots.size()));
  for (auto [i, step] : enumerate(exe.plan)) {
    auto bad = [&, i = i](const std::string &why) {
      return formatError(describePlanStep(exe, i) + ": " + why);
    };
    if (step.kind == PlanStepKind::Copy) {
      const CopyRanges &r = step.copy;
      for (auto [v, offset, bytes] :
           {std::tuple{step.operands[0], r.dstOffset, r.dstBytes},
            std::tuple{step.operands[1], r.srcOffset, r.srcBytes}}) {
        uint64_t size = exe.values[v].bytes;
        if (offset > size || bytes > size - offset)
          return bad("it copies bytes " + std::to_string(offset) + ".." +
                     std::to_string(offset + bytes) + " of " +
                     describeValue(exe, v) + ", " + std::to_string(size) +
                     " bytes");
      }
      // Lane by lane: a side has one lane for all, or as many as the other.
      size_t dstLanes = exe.values[step.operands[0]].lanes(),
             srcLanes = exe.values[step.operands[1]].lanes();
      if (dstLanes != srcLanes && dstLanes != 1 && srcLanes != 1)
        return bad("it copies between " + std::to_string(srcLanes) + " and " +
                   std::to_string(dstLanes) + " lanes");
    }
    if (step.kind != PlanStepKind::Call)
      continue;
    std::vector<uint32_t> ops;
    for (auto [j, s] : enumerate(exe.submitters[step.callee].steps)) {
      auto badStep = [&, j = j, kind = s.kind](const std::string &why) {
        return bad("its step " + std::to_string(j) + " (" +
                   abi::getStepKindName(kind) + "): " + why);
      };
      ops.clear();
      for (uint32_t o : s.operands)
        ops.push_back(step.operands[o]);
      // Every operand has one lane for all, or one per lane read.
      auto lanesFit = [&](uint32_t v, size_t lanes) {
        return addresses[v].size() == 1 || addresses[v].size() >= lanes;
      };
      // What steps read and write is linked memory; only a patch group's
      // source may be a variable (or the inputs table it reads).
      for (auto [k, v] : enumerate(ops)) {
        const Value &value = exe.values[v];
        bool isMemory = (value.kind == ValueKind::Placeholder ||
                         value.kind == ValueKind::Alloc) &&
                        !value.devices.empty();
        if (!isMemory && !(s.kind == StepKind::PatchGroup && k == 2))
          return badStep("it reads " + describeValue(exe, v) +
                         ", which is no linked memory");
      }
      bool fits = true;
      switch (s.kind) {
      case StepKind::Fence:
      case StepKind::Finalize:
        fits = lanesFit(ops[1], addresses[ops[0]].size());
        break;
      case StepKind::Push:
        fits = lanesFit(ops[0], s.push.devices.size());
        if (s.push.bytes > exe.values[ops[0]].bytes)
          return badStep("it pushes " + std::to_string(s.push.bytes) +
                         " bytes of " + describeValue(exe, ops[0]) + ", " +
                         std::to_string(exe.values[ops[0]].bytes) + " bytes");
        break;
      case StepKind::PatchGroup:
        if (std::string why = checkPatchGroup(exe, addresses, s, ops);
            !why.empty())
          return badStep(why);
        break;
      case StepKind::Reset:
        break;
      }
      if (!fits)
        return badStep("its operands do not have the lanes it reads");
    }
  }
  return Error::success();
}

} // namespace hcq::runtime
