#!/usr/bin/env python3
"""Runs the bundled CPU example through hcq's C API with ctypes (no numpy).

examples/cpu-chain.mlir computes sum((a + b) * s) over 64 floats with three
CPU kernels. Compile it, then run this script:

  mkdir -p /tmp/chain && build/bin/hcq-translate --hcq-to-executable \
      examples/cpu-chain.mlir -o /tmp/chain/chain.hcqx
  python3 examples/python/run_cpu_chain.py build/lib/libhcq-runtime.so \
      /tmp/chain/chain.hcqx build/test/Inputs

The last argument is the folder of the kernel library the example names
(libhcqtestkernels.so): the runtime looks there, no LD_LIBRARY_PATH needed.
Each run's result is compared with the same arithmetic done in Python.
"""
import ctypes
import sys


class Status(ctypes.c_void_p):
    """hcq_status_t: NULL is success."""


class Device(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint32), ("index", ctypes.c_uint32)]


class Argument(ctypes.Structure):
    _fields_ = [("lanes", ctypes.POINTER(ctypes.c_void_p)),
                ("lane_count", ctypes.c_size_t),
                ("value", ctypes.c_int64)]


HCQ_DEVICE_CPU = 1

# hcq_status_code_t (include/hcq-c/runtime.h): the C++ runtime's
# hcq::ErrorCode numbers. Act on the code; the message is for people.
STATUS_NAMES = {
    1: "INVALID_ARGUMENT", 2: "INTERNAL", 3: "DEADLINE_EXCEEDED",
    4: "DEVICE_FAULT", 5: "INVALID_FILE", 6: "OUT_OF_MEMORY",
    7: "UNAVAILABLE", 8: "FAILED_PRECONDITION",
}


def load_api(path):
    lib = ctypes.CDLL(path)
    handle = ctypes.c_void_p
    signatures = {
        "hcq_status_code": ([Status], ctypes.c_uint32),
        "hcq_status_message": ([Status], ctypes.c_char_p),
        "hcq_status_free": ([Status], None),
        "hcq_version": ([], ctypes.c_char_p),
        "hcq_runtime_options_create": ([], handle),
        "hcq_runtime_options_free": ([handle], Status),
        "hcq_runtime_options_add_library_path": ([handle, ctypes.c_char_p],
                                                 Status),
        "hcq_runtime_create": ([handle, ctypes.POINTER(handle)], Status),
        "hcq_runtime_release": ([handle], Status),
        "hcq_buffer_allocate": ([handle, Device, ctypes.c_uint64,
                                 ctypes.POINTER(handle)], Status),
        "hcq_buffer_release": ([handle], Status),
        "hcq_buffer_host_view": ([handle], ctypes.c_void_p),
        "hcq_executable_load_file": ([handle, ctypes.c_char_p,
                                      ctypes.POINTER(handle)], Status),
        "hcq_executable_release": ([handle], Status),
        "hcq_executable_run": ([handle, ctypes.POINTER(Argument),
                                ctypes.c_size_t], Status),
        "hcq_executable_synchronize": ([handle], Status),
    }
    for name, (args, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = args
        function.restype = result
    return lib


def check(api, status, what):
    if status:
        code = api.hcq_status_code(status)
        message = api.hcq_status_message(status).decode()
        api.hcq_status_free(status)
        sys.exit(f"{what}: {STATUS_NAMES.get(code, code)}: {message}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    api = load_api(sys.argv[1])
    options = api.hcq_runtime_options_create()
    check(api, api.hcq_runtime_options_add_library_path(
        options, sys.argv[3].encode()), "library path")
    runtime = ctypes.c_void_p()
    check(api, api.hcq_runtime_create(options, ctypes.byref(runtime)),
          "runtime")
    check(api, api.hcq_runtime_options_free(options), "options")
    exe = ctypes.c_void_p()
    check(api, api.hcq_executable_load_file(runtime, sys.argv[2].encode(),
                                            ctypes.byref(exe)), "load")

    cpu = Device(HCQ_DEVICE_CPU, 0)
    buffers, views, lanes = [], [], []
    for count in (64, 64, 1):
        buffer = ctypes.c_void_p()
        check(api, api.hcq_buffer_allocate(runtime, cpu, 4 * count,
                                           ctypes.byref(buffer)), "allocate")
        address = api.hcq_buffer_host_view(buffer)
        buffers.append(buffer)
        views.append((ctypes.c_float * count).from_address(address))
        lanes.append((ctypes.c_void_p * 1)(address))
    a, b, total = views
    failures = 0
    for run in range(10):
        for i in range(64):
            a[i] = float((i * 5 + run) % 19 - 9)
            b[i] = float((i * 3 + run) % 7 - 3)
        s = run % 4 + 1
        args = (Argument * 5)(
            Argument(lanes[0], 1, 0), Argument(lanes[1], 1, 0),
            Argument(lanes[2], 1, 0), Argument(None, 0, s),
            Argument(None, 0, 64))
        check(api, api.hcq_executable_run(exe, args, 5), "run")
        check(api, api.hcq_executable_synchronize(exe), "synchronize")
        expected = sum((a[i] + b[i]) * s for i in range(64))
        status = "ok" if total[0] == expected else "MISMATCH"
        failures += total[0] != expected
        print(f"run {run}: sum((a + b) * {s}) = {total[0]:g}, "
              f"in Python {expected:g}: {status}")
    for buffer in buffers:
        check(api, api.hcq_buffer_release(buffer), "release")
    check(api, api.hcq_executable_release(exe), "release")
    check(api, api.hcq_runtime_release(runtime), "release")
    # A second release is refused with a status, not a crash.
    status = api.hcq_executable_release(exe)
    if api.hcq_status_code(status) != 1:
        failures += 1
        print("a second release was not INVALID_ARGUMENT")
    api.hcq_status_free(status)
    print(f"hcq {api.hcq_version().decode()}: "
          f"{'all runs match' if not failures else f'{failures} mismatches'}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
