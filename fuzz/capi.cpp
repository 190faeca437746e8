//===- capi.cpp - Fuzz sequences of C API calls ---------------------------===//
//
// The input is a program of C API calls (include/hcq-c/runtime.h) over small
// pools of handles: options, runtimes, buffers, executables and statuses,
// each slot live, released (its stale handle kept and used again) or never
// set, and handles of one kind passed as another or as junk numbers. Every
// call must return, never crash, and answer with a status code the header
// names; what the caller owns (a run's lanes) is always memory the caller
// really has, as a correct caller's would be, or NULL.
//
// Executables: two CPU schedules compiled once at start (a launch of an
// in-process kernel with a bound variable, and a copy between two buffers),
// loaded as they are, with a byte changed, or as bytes from the input.
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "hcq-c/runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

/// The in-process CPU kernel of the launch schedule: x[i] *= 2 for i < n.
void scaleKernel(const uint64_t *args, uint32_t, uint32_t, uint32_t) {
  auto *x = reinterpret_cast<float *>(args[0]);
  uint32_t n = uint32_t(args[1]);
  for (uint32_t i = 0; i < n && i < 16; ++i)
    x[i] *= 2;
}

/// The bytes of the two executables, compiled once.
std::vector<uint8_t> executables[2];
/// Bytes per buffer argument lane of each (both take 16 f32 per lane).
constexpr uint64_t ARGUMENT_BYTES = 64;

std::vector<uint8_t> compile(const char *source) {
  hcq::PipelineOptions options;
  std::optional<hcq::runtime::Executable> exe =
      hcq::test::compileExecutable(source, options);
  if (!exe) {
    std::fprintf(stderr, "capi fuzzer: cannot compile its executables\n");
    std::abort();
  }
  return hcq::runtime::writeExecutable(*exe);
}

/// Reads the program: each call takes what it needs, zeros once it is done.
struct Program {
  const uint8_t *data;
  size_t size;
  uint8_t byte() { return size ? (--size, *data++) : 0; }
  uint64_t number() {
    // Mostly small numbers, sometimes edges and whole words.
    switch (byte() % 8) {
    case 0:
      return 0;
    case 1:
      return ~uint64_t(0);
    case 2:
      return uint64_t(1) << (byte() % 64);
    case 3: {
      uint64_t v = 0;
      for (int i = 0; i < 8; ++i)
        v = v << 8 | byte();
      return v;
    }
    default:
      return byte();
    }
  }
};

/// A pool slot: the handle as the caller last had it (possibly released).
template <typename Handle> struct Pool {
  Handle slots[4] = {};
  bool live[4] = {};
  /// A slot's handle, a junk number, or NULL.
  Handle pick(Program &p) {
    uint8_t b = p.byte();
    if (b % 16 == 15)
      return reinterpret_cast<Handle>(uintptr_t(p.number()));
    return slots[b % 4];
  }
  int slot(Program &p) { return p.byte() % 4; }
};

/// HCQ_FUZZ_CAPI_TRACE set: every failing call's status is printed, to see
/// what a program does.
const bool trace = std::getenv("HCQ_FUZZ_CAPI_TRACE") != nullptr;

/// Every status code a call may answer with is one the header names.
void check(hcq_status_t status) {
  hcq_status_code_t code = hcq_status_code(status);
  if (trace)
    std::fprintf(stderr, "status %u %s\n", code, hcq_status_message(status));
  if (code > HCQ_STATUS_FAILED_PRECONDITION) {
    std::fprintf(stderr, "capi fuzzer: status code %u: %s\n", code,
                 hcq_status_message(status));
    std::abort();
  }
  (void)hcq_status_message(status);
  hcq_status_free(status);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  executables[0] = compile(R"mlir(
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "fuzz_scale" library "libfuzz-none.so"
hcq.schedule @launch(%x: !hcq.buffer<16xf32, CPU:0>, %n: i32) {
  hcq.launch @scale(%x : !hcq.buffer<16xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
}
)mlir");
  executables[1] = compile(R"mlir(
hcq.schedule @copy(%dst: !hcq.buffer<16xf32, CPU:0>, %src: !hcq.buffer<16xf32, CPU:0>) {
  hcq.copy %dst[0, 64], %src[0, 64] : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>
}
)mlir");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Program p{data, size};
  Pool<hcq_runtime_options_t> options;
  Pool<hcq_runtime_t> runtimes;
  Pool<hcq_buffer_t> buffers;
  Pool<hcq_executable_t> executablesLoaded;
  Pool<hcq_status_t> statuses;
  for (int step = 0; step < 64 && p.size; ++step) {
    switch (p.byte() % 22) {
    case 0: {
      int s = options.slot(p);
      if (!options.live[s]) {
        options.slots[s] = hcq_runtime_options_create();
        options.live[s] = options.slots[s] != nullptr;
      }
      break;
    }
    case 1: {
      int s = options.slot(p);
      check(hcq_runtime_options_free(options.slots[s]));
      options.live[s] = false;
      break;
    }
    case 2:
      // Never hardware: a machine with a GPU would run the fuzzer's
      // programs on it.
      {
        uint32_t device = p.byte() % 2 ? HCQ_AMD_EMULATED : p.byte();
        if (device == HCQ_AMD_HARDWARE)
          device = 0xFF; // an unknown value instead
        check(hcq_runtime_options_set_amd_device(options.pick(p), device));
      }
      break;
    case 3: {
      hcq_runtime_options_t o = options.pick(p);
      check(hcq_runtime_options_set_wait_timeout(o, p.number() | 1000));
      break;
    }
    case 4: {
      hcq_runtime_options_t o = options.pick(p);
      check(hcq_runtime_options_set_ring_bytes(o, p.number()));
      break;
    }
    case 5: {
      hcq_runtime_options_t o = options.pick(p);
      const char *symbol = p.byte() % 4 ? "fuzz_scale" : nullptr;
      hcq_cpu_kernel_t kernel = p.byte() % 4 ? scaleKernel : nullptr;
      check(hcq_runtime_options_register_cpu_kernel(o, symbol, kernel));
      break;
    }
    case 6: {
      hcq_runtime_options_t o = options.pick(p);
      check(hcq_runtime_options_add_library_path(
          o, p.byte() % 2 ? "/nonexistent" : nullptr));
      break;
    }
    case 7: {
      int s = runtimes.slot(p);
      if (runtimes.live[s])
        break;
      hcq_runtime_options_t o = options.pick(p);
      hcq_runtime_t made = nullptr;
      hcq_status_t status = hcq_runtime_create(o, &made);
      runtimes.live[s] = status == nullptr;
      if (status == nullptr)
        runtimes.slots[s] = made;
      check(status);
      break;
    }
    case 8: {
      int s = runtimes.slot(p);
      check(hcq_runtime_release(runtimes.slots[s]));
      runtimes.live[s] = false;
      break;
    }
    case 9:
      check(hcq_runtime_synchronize(runtimes.pick(p)));
      break;
    case 10: {
      int s = buffers.slot(p);
      if (buffers.live[s])
        break;
      hcq_device_t device{p.byte() % 3 ? HCQ_DEVICE_CPU : uint32_t(p.byte()),
                          p.byte() % 4 ? 0u : uint32_t(p.byte())};
      uint64_t bytes = p.byte() % 4 ? ARGUMENT_BYTES : p.number() % (1 << 20);
      hcq_runtime_t r = runtimes.pick(p);
      hcq_buffer_t made = nullptr;
      hcq_status_t status = hcq_buffer_allocate(r, device, bytes, &made);
      buffers.live[s] = status == nullptr;
      if (status == nullptr)
        buffers.slots[s] = made;
      check(status);
      break;
    }
    case 11: {
      int s = buffers.slot(p);
      check(hcq_buffer_release(buffers.slots[s]));
      buffers.live[s] = false;
      break;
    }
    case 12: {
      hcq_buffer_t b = buffers.pick(p);
      (void)hcq_buffer_host_view(b);
      (void)hcq_buffer_device_address(b);
      (void)hcq_buffer_size(b);
      break;
    }
    case 13: {
      int s = executablesLoaded.slot(p);
      if (executablesLoaded.live[s])
        break;
      std::vector<uint8_t> bytes;
      uint8_t how = p.byte();
      if (how % 4 == 3) {
        // Bytes from the input.
        size_t n = std::min<size_t>(p.byte() * 8, p.size);
        bytes.assign(p.data, p.data + n);
        p.data += n;
        p.size -= n;
      } else {
        bytes = executables[how % 2];
        if (how % 4 == 2 && !bytes.empty())
          bytes[p.number() % bytes.size()] ^= uint8_t(1 + p.byte() % 255);
      }
      hcq_runtime_t r = runtimes.pick(p);
      hcq_executable_t made = nullptr;
      hcq_status_t status = hcq_executable_load_memory(
          r, bytes.empty() ? nullptr : bytes.data(), bytes.size(), &made);
      executablesLoaded.live[s] = status == nullptr;
      if (status == nullptr)
        executablesLoaded.slots[s] = made;
      check(status);
      break;
    }
    case 14: {
      int s = executablesLoaded.slot(p);
      check(hcq_executable_release(executablesLoaded.slots[s]));
      executablesLoaded.live[s] = false;
      break;
    }
    case 15: {
      hcq_executable_t e = executablesLoaded.pick(p);
      (void)hcq_executable_name(e);
      (void)hcq_executable_argument_count(e);
      break;
    }
    case 16: {
      // A run: each argument a buffer whose lanes are live buffers of at
      // least the argument's bytes (or NULL), or a variable.
      hcq_executable_t e = executablesLoaded.pick(p);
      size_t count = p.byte() % 4;
      std::vector<std::vector<void *>> lanes(count);
      std::vector<hcq_argument_t> args(count);
      for (size_t i = 0; i < count; ++i) {
        size_t n = p.byte() % 3;
        for (size_t l = 0; l < n; ++l) {
          int s = buffers.slot(p);
          void *view = buffers.live[s] && hcq_buffer_size(buffers.slots[s]) >=
                                              ARGUMENT_BYTES
                           ? hcq_buffer_host_view(buffers.slots[s])
                           : nullptr;
          lanes[i].push_back(view);
        }
        args[i] = {lanes[i].empty() ? nullptr : lanes[i].data(),
                   lanes[i].size(), int64_t(p.number())};
      }
      check(hcq_executable_run(e, count ? args.data() : nullptr, count));
      break;
    }
    case 17:
      check(hcq_executable_synchronize(executablesLoaded.pick(p)));
      break;
    case 18: {
      hcq_executable_t e = executablesLoaded.pick(p);
      size_t events = hcq_executable_profile(e);
      hcq_profile_event_t event;
      size_t index = events + p.byte() % 2 - 1; // the last, or one past it
      check(hcq_executable_profile_event(e, index, &event));
      check(hcq_executable_profile_event(e, 0, nullptr));
      break;
    }
    case 19: {
      int s = statuses.slot(p);
      hcq_status_free(statuses.slots[s]);
      statuses.slots[s] =
          hcq_status_create(hcq_status_code_t(p.number()), "fuzz");
      statuses.live[s] = statuses.slots[s] != nullptr;
      break;
    }
    case 20: {
      // A status freed (maybe twice), then asked about.
      int s = statuses.slot(p);
      hcq_status_free(statuses.slots[s]);
      statuses.live[s] = false;
      (void)hcq_status_code(statuses.slots[s]);
      (void)hcq_status_message(statuses.slots[s]);
      break;
    }
    case 21:
      // One kind of handle passed as another.
      check(hcq_runtime_release(
          reinterpret_cast<hcq_runtime_t>(buffers.pick(p))));
      check(hcq_buffer_release(
          reinterpret_cast<hcq_buffer_t>(executablesLoaded.pick(p))));
      check(hcq_executable_run(
          reinterpret_cast<hcq_executable_t>(runtimes.pick(p)), nullptr, 0));
      break;
    }
  }
  // Whatever is left goes, as a caller's cleanup would.
  for (int s = 0; s < 4; ++s) {
    if (executablesLoaded.live[s])
      check(hcq_executable_release(executablesLoaded.slots[s]));
    if (buffers.live[s])
      check(hcq_buffer_release(buffers.slots[s]));
    if (runtimes.live[s])
      check(hcq_runtime_release(runtimes.slots[s]));
    if (options.live[s])
      check(hcq_runtime_options_free(options.slots[s]));
    if (statuses.live[s])
      hcq_status_free(statuses.slots[s]);
  }
  return 0;
}
