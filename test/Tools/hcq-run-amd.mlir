// hcq-run on the emulated AMD device: the bundled MLP example (two AMD GPUs,
// host input and output, real gfx1100 code objects) compiled by
// --hcq-pipeline and run with its kernels' host object (compiled from the
// same gpu IR, examples/gpu/mlp.mlir) as their CPU twins: no twin library.
// The PM4 and SDMA words are executed, not printed.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | hcq-translate --hcq-to-executable -o %t/mlp.hcqx

// Tests that one run computes relu(x @ w1) @ w2 across both devices: x row 0
// is 0..63, w1 = 0.5 and w2 = -0.25 everywhere, so every hidden unit of row 0
// is 0.5 * 2016 = 1008 and every output -0.25 * 64 * 1008 = -16128.
// RUN: hcq-run %t/mlp.hcqx --amd=emulated --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=MLP
// MLP: arg 0: 0 1 2 3 4 5 6 7
// MLP-NEXT: arg 1: 0.5 0.5
// MLP-NEXT: arg 2: -0.25 -0.25
// MLP-NEXT: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// MLP-NEXT: 1 runs: {{[0-9.]+}} us/run submitted, {{[0-9.]+}} us/run finished

// Tests that the relu runs between the two matmuls: with w1 = -0.5 every
// hidden unit is negative, relu makes it 0, and so is every output; 1000
// replays leave the same result.
// RUN: hcq-run %t/mlp.hcqx --amd=emulated --arg f32:256:arange --arg f32:4096:fill=-0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=7 --runs 1000 2>&1 | FileCheck %s --check-prefix=RELU
// RELU: arg 3: 0 0 0 0 0 0 0 0
// RELU-NEXT: 1000 runs:

// Tests that without AMD copy queues every copy runs as the builtin copy
// kernel (the host copies, the one between the GPUs): the same result.
// RUN: hcq-run %hcq_src_root/examples/mlp.mlir --pipeline-options=copy-queues=CPU --amd=emulated --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 10 2>&1 | FileCheck %s --check-prefix=KCOPY
// KCOPY: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// KCOPY-NEXT: 10 runs:

// Tests that the example's gfx1100 code objects are refused for gfx942, as
// compile errors passed through (the gfx942 packets run end to end in
// unittests/EmulatedAMDTest.cpp, on gfx942 code objects).
// RUN: not hcq-run %hcq_src_root/examples/mlp.mlir --pipeline-options=target=gfx942 --amd=emulated --arg f32:256:arange 2>&1 | FileCheck %s --check-prefix=GFX9
// GFX9: error: 'hcq.kernel' op has a code object for gfx1100, not gfx942
// GFX9: error: hcq-translate could not compile

// Tests that with profile on, --trace writes every run's calls as a Chrome
// trace: one process per device, one thread per queue, the calls by name in
// order; hcq-run prints how long each took on average. The results stay.
// RUN: hcq-run %hcq_src_root/examples/mlp.mlir --pipeline-options=profile=true --trace=%t/trace.json --runs 2 --amd=emulated --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: arg 3: -16128 -16128
// TRACE: profile: copy#0, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: mlp_kernels_matmul#0, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: mlp_kernels_relu#0, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: copy#1, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: mlp_kernels_matmul#1, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: copy#2, 2 calls, {{[0-9.]+}} us mean
// RUN: %python -c "import json,sys; t=json.load(open(sys.argv[1]))['traceEvents']; print(' '.join(e['args']['name'] if e['ph'] == 'M' else e['name'] + '@' + str(e['args']['run']) for e in t))" %t/trace.json | FileCheck %s --check-prefix=JSON
// JSON: AMD:0 COPY:0 copy#0@0 COMPUTE:0 mlp_kernels_matmul#0@0 mlp_kernels_relu#0@0 copy#1@0 AMD:1 COMPUTE:0 mlp_kernels_matmul#1@0 COPY:0 copy#2@0 copy#0@1 mlp_kernels_matmul#0@1 mlp_kernels_relu#0@1 copy#1@1 mlp_kernels_matmul#1@1 copy#2@1
// RUN: not hcq-run %t/mlp.hcqx --trace=%t/none.json --amd=emulated 2>&1 | FileCheck %s --check-prefix=NOPROFILE
// NOPROFILE: error: --trace: '{{.*}}mlp.hcqx' has no timestamps; compile it with profile=true (--pipeline-options=profile=true)

// Tests that an executable with AMD devices needs --amd, and the emulated
// device a twin for every AMD kernel; each error says what to pass. The
// twinless executable is the example's source compiled as upstream's
// pipeline alone compiles it (no hcq-attach-host-target: code objects, no
// host object). Twin libraries serve code objects with no gpu source (the
// lanes test below runs the OpenCL vadd with one).
// RUN: mkdir -p %t/tk/llvm/bin && ln -sf %ld_lld %t/tk/llvm/bin/
// RUN: hcq-opt %hcq_src_root/examples/gpu/mlp.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100}, gpu.module(convert-scf-to-cf, convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}), gpu-module-to-binary{toolkit=%t/tk})" | hcq-opt --convert-gpu-to-hcq | hcq-translate --hcq-to-executable -o %t/twinless.hcqx
// RUN: not hcq-run %t/mlp.hcqx --arg f32:256:arange --arg f32:4096:fill=1 --arg f32:4096:fill=1 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NOAMD
// NOAMD: error: the executable uses AMD:0, and no AMD device was chosen (RuntimeOptions::amd; hcq-run --amd=emulated or --amd=hardware)
// RUN: not hcq-run %t/twinless.hcqx --amd=emulated --arg f32:256:arange --arg f32:4096:fill=1 --arg f32:4096:fill=1 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NOTWIN
// NOTWIN: error: AMD kernel mlp_kernels_matmul has no CPU twin for the emulated device: define hcq_twin_matmul in a twin library given with --twins, or compile the kernel with a host object{{$}}
// RUN: not hcq-run %t/twinless.hcqx --amd=emulated --twins=%t/nowhere.so --arg f32:256:arange --arg f32:4096:fill=1 --arg f32:4096:fill=1 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NOLIB
// NOLIB: error: cannot load {{.*}}nowhere.so: {{.*}}nowhere.so: cannot open shared object file
// RUN: not hcq-run %t/mlp.hcqx --amd=gpu 2>&1 | FileCheck %s --check-prefix=BADAMD
// BADAMD: error: --amd=gpu: expected none, emulated or hardware

// Tests that a bad per-device timeout is refused by name.
// RUN: not hcq-run %t/mlp.hcqx --amd=emulated --device-timeout-ms=AMD0=5 2>&1 | FileCheck %s --check-prefix=BADTIMEOUT
// BADTIMEOUT: error: bad --device-timeout-ms 'AMD0=5' (expected DEVICE=MS, as in AMD:0=500; MS 1..4294967295)

// Tests that a buffer argument on several devices gets a host buffer per
// lane, each filled alike and printed by lane; and that an argument of the
// wrong kind or size is refused before anything runs.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/lanes.mlir
// RUN: cat %S/Inputs/lanes-amd.mlir >> %t/lanes.mlir
// RUN: hcq-run %t/lanes.mlir --amd=emulated --twins=%inputs/libhcqtestkernels.so --arg f32:64:arange --arg f32:64:fill=0 --arg i32=64 --print 4 2>&1 | FileCheck %s --check-prefix=LANES
// LANES: arg 0 lane 0: 0 1 2 3
// LANES-NEXT: arg 0 lane 1: 0 1 2 3
// LANES-NEXT: arg 1 lane 0: 0 2 4 6
// LANES-NEXT: arg 1 lane 1: 0 2 4 6
// RUN: not hcq-run %t/lanes.mlir --amd=emulated --arg f32:16:arange --arg f32:64:fill=0 --arg i32=64 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: error: argument 0 (%a: buffer 64xf32, read): --arg 'f32:16:arange' has 16 elements, the argument 64
// RUN: not hcq-run %t/lanes.mlir --amd=emulated --arg i32=3 --arg f32:64:fill=0 --arg i32=64 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: argument 0 (%a: buffer 64xf32, read): --arg 'i32=3' gives a variable; the argument is a buffer (give f32:64:INIT)
// RUN: not hcq-run %t/lanes.mlir --amd=emulated --arg f32:64:arange --arg f32:64:fill=0 --arg f32:1:fill=0 2>&1 | FileCheck %s --check-prefix=VAR
// VAR: error: argument 2 (%n: i32): --arg 'f32:1:fill=0' gives a buffer; the argument is a variable (give i32=V)
