//===- CommandProcessor.cpp - The emulated AMD command processor ----------===//
//
// Executes PM4 and SDMA packets as docs/amd-facts.md lays them out
// (CommandProcessor.h; docs/runtime.md lists what each packet does).
//
//===----------------------------------------------------------------------===//

#include "CommandProcessor.h"
#include "Queues.h"
#include "WorkgroupPool.h"

#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/SDMA.h"

#include <cstring>

namespace pm4 = hcq::amd::pm4;
namespace sdma = hcq::amd::sdma;

namespace hcq::runtime {

CommandProcessorHost::~CommandProcessorHost() = default;
uint64_t CommandProcessorHost::gpuClock() { return nowNs(); }

/// The builtin copy kernel (lib/Target/AMD/Builtins/copy.cl): kernel
/// arguments dst (8 bytes), src (8), element bytes (4); workgroup x copies
/// element x.
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

namespace {

// Fields the command processor reads beyond what the encoder writes.
// WAIT_REG_MEM / POLL_REGMEM compare functions [nvd WAIT_REG_MEM_FUNCTION,
// sd6 POLL_REGMEM_HEADER_FUNC]: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >.
bool compare(uint32_t function, uint32_t value, uint32_t ref) {
  switch (function) {
  case 0:
    return true;
  case 1:
    return value < ref;
  case 2:
    return value <= ref;
  case 3:
    return value == ref;
  case 4:
    return value != ref;
  case 5:
    return value >= ref;
  case 6:
    return value > ref;
  }
  return false;
}
/// The dwords the command processor may read: a ring between its read and
/// write pointers (positions wrap at the ring's size), or an indirect buffer.
} // namespace

struct CommandProcessor::Dwords {
  const uint32_t *base;
  uint64_t size; // dwords in memory
  uint64_t end;  // first position not pushed
  bool ring;
  uint64_t address; // the indirect buffer's, for messages

  uint32_t at(uint64_t pos) const { return base[ring ? pos % size : pos]; }
  std::string where(uint64_t pos) const {
    if (ring)
      return "ring offset 0x" + toHex((pos % size) * 4);
    return "indirect buffer 0x" + toHex(address) + " dword " +
           std::to_string(pos);
  }
};

namespace {
uint64_t address(uint32_t lo, uint32_t hi) { return (uint64_t(hi) << 32) | lo; }
} // namespace

Error CommandProcessor::execute(uint64_t w) {
  uint64_t unit = isPM4 ? 1 : 4; // pointer units per dword
  uint64_t r = rptr.load(std::memory_order_relaxed);
  Dwords dwords{reinterpret_cast<const uint32_t *>(ring), ringBytes / 4,
                w / unit, /*ring=*/true, 0};
  while (r < w) {
    uint64_t pos = r / unit;
    if (Error e =
            isPM4 ? stepPM4(dwords, pos, /*depth=*/0) : stepSDMA(dwords, pos))
      return e;
    r = pos * unit;
    rptr.store(r, std::memory_order_release);
  }
  return Error::success();
}

/// Reads the `n` dwords after the header at `pos`.
Error CommandProcessor::body(const Dwords &dwords, uint64_t pos, uint64_t n,
                             std::vector<uint32_t> &out,
                             std::string_view packet) {
  if (pos + 1 + n > dwords.end)
    return runtimeError(std::string(packet) + " at " + dwords.where(pos) +
                        " runs past the end of what was pushed");
  out.clear();
  for (uint64_t i = 0; i < n; ++i)
    out.push_back(dwords.at(pos + 1 + i));
  return Error::success();
}

/// Waits until `compare(function, *address & mask, ref)`; a wait that
/// times out is reported and the queue goes on.
void CommandProcessor::waitMemory(uint64_t at, uint32_t function, uint32_t ref,
                                  uint32_t mask) {
  auto &value = *reinterpret_cast<std::atomic<uint32_t> *>(at);
  if (!waitUntil(
          [&] {
            return compare(function,
                           value.load(std::memory_order_acquire) & mask, ref) ||
                   host.abandonWaits();
          },
          value, waitTimeout))
    host.waitTimedOut(at, ref, value.load());
}

//===--------------------------------------------------------------------===//
// PM4
//===--------------------------------------------------------------------===//

Error CommandProcessor::stepPM4(const Dwords &dwords, uint64_t &pos,
                                unsigned depth) {
  uint32_t header = dwords.at(pos);
  // Where the packet is, for messages: formatted only on an error.
  auto where = [&] { return dwords.where(pos); };
  // One-dword fillers [sid PKT2_NOP_PAD, PKT3_NOP_PAD].
  if (header == 0x80000000 || header == pm4::NOP_PAD) {
    ++pos;
    return Error::success();
  }
  if (pm4::packetType(header) != 3)
    return runtimeError("PM4 packet of type " +
                        std::to_string(pm4::packetType(header)) +
                        " (header 0x" + toHex(header) + ") at " + where());
  uint32_t opcode = pm4::packetOpcode(header);
  uint64_t n = pm4::packetCount(header) + 1;
  if (opcode == pm4::NOP) {
    if (pos + 1 + n > dwords.end)
      return runtimeError("NOP at " + where() +
                          " runs past the end of what was pushed");
    pos += 1 + n;
    return Error::success();
  }
  std::vector<uint32_t> b;
  auto need = [&](uint64_t count, std::string_view name) -> Error {
    if (n < count)
      return runtimeError(std::string(name) + " at " + where() + " has " +
                          std::to_string(n) + " body dwords, " +
                          std::to_string(count) + " needed");
    return body(dwords, pos, n, b, name);
  };
  switch (opcode) {
  case pm4::INDIRECT_BUFFER: {
    namespace ib = pm4::indirect_buffer;
    if (Error e = need(ib::BODY_DWORDS, "INDIRECT_BUFFER"))
      return e;
    if (depth > 0)
      return runtimeError("INDIRECT_BUFFER at " + where() +
                          " inside an indirect buffer (not emulated)");
    if (!(b[ib::CONTROL] & pm4::IB_VALID))
      return runtimeError("INDIRECT_BUFFER at " + where() +
                          " without its VALID bit");
    uint64_t base =
        address(b[ib::BASE_LO] & ~3u, b[ib::BASE_HI] & pm4::IB_BASE_HI_MASK);
    uint64_t size = pm4::ibSizeOf(b[ib::CONTROL]);
    Dwords inner{reinterpret_cast<const uint32_t *>(base), size, size,
                 /*ring=*/false, base};
    for (uint64_t at = 0; at < size;)
      if (Error e = stepPM4(inner, at, depth + 1))
        return e;
    break;
  }
  case pm4::WAIT_REG_MEM: {
    namespace wrm = pm4::wait_reg_mem;
    if (Error e = need(wrm::BODY_DWORDS, "WAIT_REG_MEM"))
      return e;
    uint32_t function = pm4::waitFunctionOf(b[wrm::CONTROL]),
             memSpace = pm4::waitMemSpaceOf(b[wrm::CONTROL]),
             operation = pm4::waitOperationOf(b[wrm::CONTROL]);
    if (memSpace == 1) {
      waitMemory(address(b[wrm::ADDRESS_LO] & ~3u, b[wrm::ADDRESS_HI]),
                 function, b[wrm::REFERENCE], b[wrm::MASK]);
      if (std::optional<uint64_t> copies = host.sdmaCopiesAroundL2())
        staleL2 |= *copies > copiesAtL2Invalidate;
    } else {
      // The HDP flush handshake (write REQ, poll DONE) is the only register
      // wait the encoder emits, on the registers the GPU has them at; host
      // memory needs no flush.
      std::optional<CommandProcessorHost::HdpFlushRegisters> hdp =
          host.hdpFlushRegisters();
      if (!(operation == 1 && hdp && b[wrm::REGISTER] == hdp->request &&
            b[wrm::REGISTER_DONE] == hdp->done))
        return runtimeError(
            "WAIT_REG_MEM on registers 0x" + toHex(b[wrm::REGISTER]) + "/0x" +
            toHex(b[wrm::REGISTER_DONE]) + " at " + where() +
            (hdp ? ", not the GPU's HDP flush registers 0x" +
                       toHex(hdp->request) + "/0x" + toHex(hdp->done)
                 : std::string(": the GPU's HDP flush registers are not "
                               "known")));
    }
    break;
  }
  case pm4::RELEASE_MEM: {
    if (Error e = need(pm4::release_mem::BODY_DWORDS, "RELEASE_MEM"))
      return e;
    // End of pipe: every earlier dispatch has finished, since twins run
    // to completion; the fence orders their writes before the store.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    namespace rm = pm4::release_mem;
    uint32_t dataSel = pm4::releaseDataSelOf(b[rm::SELECT]);
    uint64_t at = address(b[rm::ADDRESS_LO], b[rm::ADDRESS_HI]);
    if (dataSel == pm4::DATA_SEL_LOW32)
      reinterpret_cast<std::atomic<uint32_t> *>(at)->store(
          b[rm::DATA_LO], std::memory_order_release);
    else if (dataSel == pm4::DATA_SEL_64)
      word(at).store(address(b[rm::DATA_LO], b[rm::DATA_HI]),
                     std::memory_order_release);
    else if (dataSel == pm4::DATA_SEL_GPU_CLOCK)
      word(at).store(host.gpuClock(), std::memory_order_release);
    else if (dataSel != pm4::DATA_SEL_NONE)
      return runtimeError("RELEASE_MEM at " + where() + " with DATA_SEL " +
                          std::to_string(dataSel) + " (not emulated)");
    // INT_SEL [26:24]: any non-zero value interrupts, with the context id
    // in the last dword [nvd/s15 PACKET3_RELEASE_MEM_INT_SEL].
    if (pm4::releaseIntSelOf(b[rm::SELECT]))
      host.interrupt(b[rm::CONTEXT_ID]);
    break;
  }
  case pm4::ACQUIRE_MEM:
    if (Error e = need(pm4::acquire_mem::BODY_DWORDS_GFX9, "ACQUIRE_MEM"))
      return e;
    // Cache invalidation: host memory has one coherent view.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (std::optional<uint64_t> copies = host.sdmaCopiesAroundL2();
        copies && (b[pm4::acquire_mem::COHER_CNTL] & pm4::COHER_TC)) { // gfx9
      copiesAtL2Invalidate = *copies;
      staleL2 = false;
    }
    break;
  case pm4::EVENT_WRITE: {
    if (Error e = need(1, "EVENT_WRITE"))
      return e;
    // CS_PARTIAL_FLUSH waits for earlier dispatches: twins already ran.
    if (pm4::eventTypeOf(b[0]) != pm4::CS_PARTIAL_FLUSH)
      return runtimeError("EVENT_WRITE of event 0x" +
                          toHex(pm4::eventTypeOf(b[0])) + " at " + where() +
                          " (not emulated)");
    break;
  }
  case pm4::SET_SH_REG: {
    if (Error e = need(2, "SET_SH_REG"))
      return e;
    uint64_t first = b[0], count = n - 1;
    if (first + count > sh.size())
      return runtimeError("SET_SH_REG at " + where() + " writes registers 0x" +
                          toHex(first) + "..+" + std::to_string(count) +
                          ", past the SH window");
    for (uint64_t i = 0; i < count; ++i)
      sh[first + i] = b[1 + i];
    break;
  }
  case pm4::DISPATCH_DIRECT: {
    namespace dd = pm4::dispatch_direct;
    if (Error e = need(dd::BODY_DWORDS, "DISPATCH_DIRECT"))
      return e;
    if (Error e = dispatch({b[dd::X], b[dd::Y], b[dd::Z]}, where))
      return e;
    break;
  }
  default:
    return runtimeError("unknown PM4 opcode 0x" + toHex(opcode) + " at " +
                        where());
  }
  pos += 1 + n;
  return Error::success();
}

/// Runs the CPU twin of the program in COMPUTE_PGM_LO/HI once per
/// workgroup, with the pointers the kernel's user SGPRs would hold.
Error CommandProcessor::dispatch(std::array<uint32_t, 3> groups,
                                 std::function<std::string()> where) {
  namespace reg = pm4::reg;
  uint64_t entry = address(sh[reg::COMPUTE_PGM_LO], sh[reg::COMPUTE_PGM_LO + 1])
                   << 8;
  const TwinProgram *found = host.findProgram(entry);
  if (!found)
    return runtimeError("DISPATCH_DIRECT at " + where() + " of program 0x" +
                        toHex(entry) +
                        ", which is no loaded kernel with a CPU twin");
  // Where the hardware puts each wave's scratch: all of it must be GPU
  // memory, or waves on the last shader engines write past it.
  uint32_t tmpring = sh[reg::COMPUTE_TMPRING_SIZE];
  uint64_t waveSize = pm4::tmpringWaveSizeOf(tmpring),
           waves = pm4::tmpringWavesOf(tmpring);
  if (auto layout = host.scratchLayout(); layout && waveSize) {
    uint64_t base = address(sh[reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO],
                            sh[reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO + 1])
                    << 8;
    uint64_t bytes =
        waves * layout->waveMultiplier * waveSize * layout->unitBytes;
    if (!host.isGpuMemory(base, bytes)) {
      host.memoryFault(base, bytes, /*write=*/true);
      return runtimeError("DISPATCH_DIRECT at " + where() + ": its scratch, " +
                          std::to_string(waves) + " waves x " +
                          std::to_string(layout->waveMultiplier) + " x " +
                          std::to_string(waveSize * layout->unitBytes) +
                          " bytes from 0x" + toHex(base) +
                          ", runs past the GPU memory there");
    }
  }
  if (staleL2)
    return runtimeError("DISPATCH_DIRECT at " + where() +
                        " after a wait that an SDMA copy finished before, "
                        "with no ACQUIRE_MEM invalidating L2 (COHER_TC) in "
                        "between: the kernel may read stale lines");
  const TwinProgram &program = *found;
  auto userData = [&](unsigned i) {
    return address(sh[reg::COMPUTE_USER_DATA_0 + i],
                   sh[reg::COMPUTE_USER_DATA_0 + i + 1]);
  };
  // The kernel reads its arguments and goes through its buffer pointers:
  // memory outside the GPU's VM there is a page fault before any of its
  // work is done. The twin's own accesses are not seen, so only the byte
  // each pointer points at is checked (a null pointer, which a kernel may
  // be given for a buffer it does not touch, is not).
  uint64_t kernargs = userData(program.kernargUserData);
  if (program.kernargBytes &&
      !host.isGpuMemory(kernargs, program.kernargBytes)) {
    host.memoryFault(kernargs, program.kernargBytes, /*write=*/false);
    return runtimeError("DISPATCH_DIRECT at " + where() + ": kernel " +
                        program.name + "'s arguments at 0x" + toHex(kernargs) +
                        " are not GPU memory");
  }
  for (const amd::KernelInfo::BufferArgument &arg : program.bufferArguments) {
    uint64_t pointer;
    std::memcpy(&pointer, reinterpret_cast<const void *>(kernargs + arg.offset),
                8);
    if (!pointer || host.isGpuMemory(pointer, 1))
      continue;
    host.memoryFault(pointer, 1, /*write=*/!arg.readOnly);
    return runtimeError("DISPATCH_DIRECT at " + where() + ": kernel " +
                        program.name + "'s argument at byte " +
                        std::to_string(arg.offset) + " points at 0x" +
                        toHex(pointer) + ", which is not GPU memory");
  }
  hcq_amd_workgroup wg;
  wg.kernargs = reinterpret_cast<const void *>(kernargs);
  wg.dispatch_packet = program.dispatchUserData < 0
                           ? nullptr
                           : reinterpret_cast<const void *>(
                                 userData(unsigned(program.dispatchUserData)));
  for (unsigned d = 0; d < 3; ++d) {
    wg.num_groups[d] = groups[d];
    wg.local_size[d] = pm4::numThreadsOf(sh[reg::COMPUTE_NUM_THREAD_X + d]);
  }
  // Workgroups may run on several threads at once (WorkgroupPool.h), each
  // with a copy of `wg` of its own.
  auto workgroup = [&](uint64_t x, uint64_t y, uint64_t z) {
    hcq_amd_workgroup mine = wg;
    mine.group_id[0] = uint32_t(x);
    mine.group_id[1] = uint32_t(y);
    mine.group_id[2] = uint32_t(z);
    program.twin(&mine);
  };
  running.store(&program, std::memory_order_release);
  runGrid(WorkgroupPool::process(), groups[0], groups[1], groups[2], workgroup);
  running.store(nullptr, std::memory_order_release);
  return Error::success();
}

//===--------------------------------------------------------------------===//
// SDMA
//===--------------------------------------------------------------------===//

Error CommandProcessor::stepSDMA(const Dwords &dwords, uint64_t &pos) {
  uint32_t header = dwords.at(pos);
  // Where the packet is, for messages: formatted only on an error.
  auto where = [&] { return dwords.where(pos); };
  uint32_t op = sdma::headerOp(header), subOp = sdma::headerSubOp(header);
  std::vector<uint32_t> b;
  // The whole packet, header first, as the layouts in SDMA.h count.
  auto packet = [&](uint64_t total, std::string_view name) -> Error {
    if (Error e = body(dwords, pos, total - 1, b, name))
      return e;
    b.insert(b.begin(), header);
    return Error::success();
  };
  uint64_t length;
  switch (op) {
  case sdma::OP_NOP:
    length = 1 + sdma::nopCountOf(header);
    if (pos + length > dwords.end)
      return runtimeError("NOP at " + where() +
                          " runs past the end of what was pushed");
    break;
  case sdma::OP_COPY: {
    if (subOp != sdma::SUBOP_COPY_LINEAR)
      return runtimeError("COPY sub-op " + std::to_string(subOp) + " at " +
                          where() + " (not emulated)");
    length = sdma::COPY_LINEAR_DWORDS;
    if (Error e = packet(length, "COPY_LINEAR"))
      return e;
    namespace cl = sdma::copy_linear;
    uint64_t bytes = uint64_t(b[cl::COUNT] & sdma::COPY_COUNT_MASK) + 1;
    uint64_t src = address(b[cl::SRC_LO], b[cl::SRC_HI]),
             dst = address(b[cl::DST_LO], b[cl::DST_HI]);
    // The engine reads the source, then writes the destination, through
    // the GPU's page tables: either outside them is a page fault.
    for (auto [at, write] : {std::pair{src, false}, std::pair{dst, true}})
      if (host.checksCopyAddresses() && !host.isGpuMemory(at, bytes)) {
        host.memoryFault(at, bytes, write);
        return runtimeError("COPY_LINEAR at " + where() + " " +
                            (write ? "writes" : "reads") + " " +
                            std::to_string(bytes) + " bytes at 0x" + toHex(at) +
                            ", outside the GPU's memory");
      }
    std::memmove(reinterpret_cast<void *>(dst),
                 reinterpret_cast<const void *>(src), bytes);
    host.noteSdmaCopy();
    break;
  }
  case sdma::OP_FENCE:
    length = sdma::FENCE_DWORDS;
    if (Error e = packet(length, "FENCE"))
      return e;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    reinterpret_cast<std::atomic<uint32_t> *>(
        address(b[sdma::fence::ADDRESS_LO], b[sdma::fence::ADDRESS_HI]))
        ->store(b[sdma::fence::DATA], std::memory_order_release);
    break;
  case sdma::OP_TRAP:
    length = sdma::TRAP_DWORDS;
    if (Error e = packet(length, "TRAP"))
      return e;
    host.interrupt(b[sdma::trap::INT_CONTEXT] & sdma::TRAP_INT_CONTEXT_MASK);
    break;
  case sdma::OP_POLL_REGMEM:
    length = sdma::POLL_REGMEM_DWORDS;
    if (Error e = packet(length, "POLL_REGMEM"))
      return e;
    namespace pr = sdma::poll_regmem;
    if (header & sdma::POLL_MEM)
      waitMemory(address(b[pr::ADDRESS_LO] & ~3u, b[pr::ADDRESS_HI]),
                 sdma::pollFunctionOf(header), b[pr::VALUE], b[pr::MASK]);
    else if (!(header & sdma::POLL_HDP_FLUSH))
      return runtimeError("POLL_REGMEM on register 0x" +
                          toHex(b[pr::ADDRESS_LO]) + " at " + where() +
                          " (not emulated)");
    else if (std::optional<CommandProcessorHost::HdpFlushRegisters> hdp =
                 host.hdpFlushRegisters();
             !hdp || b[pr::REGISTER_REQUEST] != hdp->request << 2 ||
             b[pr::REGISTER_DONE] != hdp->done << 2)
      return runtimeError(
          "POLL_REGMEM HDP flush at " + where() + " on byte addresses 0x" +
          toHex(b[pr::REGISTER_REQUEST]) + "/0x" + toHex(b[pr::REGISTER_DONE]) +
          (hdp ? ", not the GPU's HDP flush registers 0x" +
                     toHex(hdp->request << 2) + "/0x" + toHex(hdp->done << 2)
               : std::string(": the GPU's HDP flush registers are not "
                             "known")));
    break;
  case sdma::OP_TIMESTAMP:
    if (subOp != sdma::SUBOP_TIMESTAMP_GET_GLOBAL)
      return runtimeError("TIMESTAMP sub-op " + std::to_string(subOp) + " at " +
                          where() + " (not emulated)");
    length = sdma::TIMESTAMP_DWORDS;
    if (Error e = packet(length, "TIMESTAMP"))
      return e;
    word(address(b[sdma::timestamp::ADDRESS_LO] & ~7u,
                 b[sdma::timestamp::ADDRESS_HI]))
        .store(host.gpuClock(), std::memory_order_release);
    break;
  default:
    return runtimeError("unknown SDMA opcode " + std::to_string(op) + " at " +
                        where());
  }
  pos += length;
  return Error::success();
}

} // namespace hcq::runtime
