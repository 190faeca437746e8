// The hardware AMD device (--amd=hardware: KFD ioctls, GPU memory, user-mode
// queues and doorbells) run against the simulated kernel driver, which
// answers those system calls and plays the GPU with the emulated command
// processor (test/KFDSim/KFDSim.cpp). The device code is what would run on a
// real GPU; no AMD GPU was involved.
// RUN: rm -rf %t && mkdir -p %t

// Tests that the bundled MLP runs on two gfx1100 GPUs with the right result,
// its kernels' host object their CPU twin (no twin library).
// RUN: %kfdsim HCQ_KFD_SIM_TWINS= HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=MLP
// MLP: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// MLP-NEXT: 1 runs:

// Tests that 1,000 replays leave the relu's result, and that without copy
// queues (every copy a builtin copy kernel) the result is the same. Every
// interrupt the GPUs raise (after each timeline store) names its event by
// id, with the event's mailbox written first: the driver never has to search.
// RUN: %kfdsim HCQ_KFD_SIM_EVENT_COUNTS=1 HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=-0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=7 --runs 1000 2>&1 | FileCheck %s --check-prefix=RELU
// RELU: arg 3: 0 0 0 0 0 0 0 0
// RELU-NEXT: 1000 runs:
// RELU: hcq-kfd-sim: [[N:[1-9][0-9]*]] interrupts ([[N]] by id, 0 searched, 0 signaled nothing)
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --pipeline-options=copy-queues=CPU --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 10 2>&1 | FileCheck %s --check-prefix=KCOPY
// KCOPY: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// KCOPY-NEXT: 10 runs:

// Tests that rings lap many times although the simulated CP reports a
// compute queue's read pointer as the hardware does (32 bits, wrapping at
// the ring's size, once per 64-dword block): 1,000 runs on 4 KiB and on
// 1 KiB rings (the smallest KFD runs as asked). Room comes from the
// completion store closing each push, not from the report. Before, the
// first push after one lap waited for room forever. A smaller ring is
// refused by the runtime, naming the option, since KFD would silently run
// it as 1 KiB.
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --ring-bytes=4096 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 1000 2>&1 | FileCheck %s --check-prefix=LAPS
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --ring-bytes=1024 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 1000 2>&1 | FileCheck %s --check-prefix=LAPS
// LAPS: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// LAPS-NEXT: 1000 runs:
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --ring-bytes=512 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=SMALLRING
// SMALLRING: RuntimeOptions::ringBytes must be a power of two from 1024 to 2^31 for AMD queues, got 512

// Tests that neither synchronize nor ring room depends on the compute
// queue's read-pointer report: with a CP that writes a block's report only
// once it starts a packet past it (the block a queue drains in is never
// reported: HCQ_KFD_SIM_RPTR=lazy) or never writes one (=never), runs
// finish and synchronize returns well within a 2 s wait timeout, on both
// targets and on 1 KiB rings. Before, idleness needed the read pointer to
// reach the write pointer: synchronize waited out the timeout and then
// stopped the GPU's queues ("hang detected").
// RUN: %kfdsim HCQ_KFD_SIM_RPTR=lazy HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --timeout-ms 2000 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 10 2>&1 | FileCheck %s --check-prefix=LAZY
// RUN: %kfdsim HCQ_KFD_SIM_RPTR=never HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --timeout-ms 2000 --ring-bytes=1024 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 1000 2>&1 | FileCheck %s --check-prefix=LAZY
// LAZY: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// LAZY-NEXT: {{10|1000}} runs:
// LAZY-NOT: hang detected

// Tests that a GPU the process may not see (its topology files answer
// EPERM, as under a device cgroup) is skipped: AMD:0 and AMD:1 are the
// visible GPUs after it.
// RUN: %kfdsim HCQ_KFD_SIM_HIDDEN=1 HCQ_KFD_SIM_GPUS=gfx942,gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=MLP

// Tests that the MLP's copies between CPU:0 and the GPUs reach CPU:0
// memory with copies checked as the hardware checks them (an SDMA copy
// outside the GPU's VM is a page fault): hcq-run's CPU:0 buffers are the
// runtime's host memory, which it registers with the GPUs as user pointers.
// Before, the run was a page fault naming the input's address.
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 10 2>&1 | FileCheck %s --check-prefix=HOSTMEM
// HOSTMEM: arg 3: -16128 -16128 -16128 -16128 -16128 -16128 -16128 -16128
// HOSTMEM-NEXT: 10 runs:

// Tests that a GPU whose IP discovery publishes an NBIO version hcq has no
// HDP flush registers for, or the registers at other addresses than the
// encoder writes into every barrier, is refused by name when it opens,
// rather than hanging in its first barrier.
// RUN: not %kfdsim HCQ_KFD_SIM_NBIF=7.11.0 HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NBIO
// NBIO: AMD:0 has NBIO 7.11.0, for which hcq does not know the HDP flush registers its memory barrier polls (it knows NBIO 4.3 and 7.9)
// RUN: not %kfdsim HCQ_KFD_SIM_NBIF=4.3.0@D00 HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NBIOBASE
// NBIOBASE: AMD:0 (NBIO 4.3.0) has its HDP flush registers at 0xE06/0xE07, and hcq's memory barrier polls 0xE26/0xE27: a barrier there would never complete

// Tests that profiles come back from the GPU clock (100 MHz ticks, converted
// with GET_CLOCK_COUNTERS) as a trace naming every call of every run.
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --pipeline-options=profile=true --trace=%t/trace.json --runs 2 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: arg 3: -16128 -16128
// TRACE: profile: copy#0, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: mlp_kernels_matmul#0, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: mlp_kernels_relu#0, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: copy#1, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: mlp_kernels_matmul#1, 2 calls, {{[0-9.]+}} us mean
// TRACE-NEXT: profile: copy#2, 2 calls, {{[0-9.]+}} us mean
// RUN: %python -c "import json,sys; t=[e for e in json.load(open(sys.argv[1]))['traceEvents'] if e['ph'] == 'X']; print(len(t), all(0 <= e['dur'] < 1e6 for e in t), all(0 <= e['ts'] < 6e7 for e in t))" %t/trace.json | FileCheck %s --check-prefix=JSON
// JSON: 12 True True

// Tests the same on two gfx942 GPUs: the example made from its source
// (examples/gpu/mlp.mlir) as scripts/make-example.sh makes it, for gfx942:
// a gfx942 code object and the host object, no twin library needed.
// RUN: mkdir -p %t/tk/llvm/bin && ln -sf %ld_lld %t/tk/llvm/bin/
// RUN: hcq-opt %hcq_src_root/examples/gpu/mlp.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx942}, hcq-attach-host-target, gpu.module(convert-scf-to-cf, convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}), gpu-module-to-binary{toolkit=%t/tk})" | hcq-opt --convert-gpu-to-hcq=chip=gfx942 -o %t/mlp-gfx942.mlir
// RUN: %kfdsim HCQ_KFD_SIM_TWINS= HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: %kfdsim HCQ_KFD_SIM_EVENT_COUNTS=1 HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=-0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=7 --runs 1000 2>&1 | FileCheck %s --check-prefix=RELU
// A hidden GPU is skipped, and an NBIO version or register base hcq has no
// HDP flush registers for is refused by name, as on gfx1100 above.
// RUN: %kfdsim HCQ_KFD_SIM_HIDDEN=1 HCQ_KFD_SIM_GPUS=gfx1100,gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: not %kfdsim HCQ_KFD_SIM_NBIF=7.11.0 HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NBIO
// RUN: not %kfdsim HCQ_KFD_SIM_NBIF=7.9.0@D00 HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=NBIOBASE942
// NBIOBASE942: AMD:0 (NBIO 7.9.0) has its HDP flush registers at 0xE06/0xE07, and hcq's memory barrier polls 0xE26/0xE27: a barrier there would never complete

// The ring laps on 4 KiB and 1 KiB rings, and the read-pointer report
// left out (lazy, never), as on gfx1100 above.
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --ring-bytes=4096 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 1000 2>&1 | FileCheck %s --check-prefix=LAPS
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --ring-bytes=1024 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 1000 2>&1 | FileCheck %s --check-prefix=LAPS
// RUN: %kfdsim HCQ_KFD_SIM_RPTR=lazy HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --timeout-ms 2000 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 10 2>&1 | FileCheck %s --check-prefix=LAZY
// RUN: %kfdsim HCQ_KFD_SIM_RPTR=never HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --timeout-ms 2000 --ring-bytes=1024 --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 1000 2>&1 | FileCheck %s --check-prefix=LAZY
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options="target=gfx942 copy-queues=CPU" --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 --runs 10 2>&1 | FileCheck %s --check-prefix=KCOPY
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/mlp-gfx942.mlir --pipeline-options="target=gfx942 profile=true" --trace=%t/trace942.json --runs 2 --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: %python -c "import json,sys; t=[e for e in json.load(open(sys.argv[1]))['traceEvents'] if e['ph'] == 'X']; print(len(t), all(0 <= e['dur'] < 1e6 for e in t), all(0 <= e['ts'] < 6e7 for e in t))" %t/trace942.json | FileCheck %s --check-prefix=JSON

// Tests that on two gfx942 GPUs the host's input is staged onto AMD:0,
// doubled, copied to AMD:1, doubled again and staged back, 100 times; the
// SDMA queues' interrupts (a TRAP after a FENCE into the mailbox) name their
// events too, on both GPUs; the copies from and to the host's memory are
// checked as the hardware checks them.
// RUN: %embed %inputs/kernels-gfx942.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/gfx942.mlir
// RUN: cat %S/Inputs/two-gpus.mlir >> %t/gfx942.mlir
// RUN: %kfdsim HCQ_KFD_SIM_EVENT_COUNTS=1 HCQ_KFD_SIM_GPUS=gfx942,gfx942 hcq-run %t/gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 --arg i32=64 --runs 100 --print 4 2>&1 | FileCheck %s --check-prefixes=GFX942,EVENTS
// GFX942: arg 1: 0 4 8 12
// EVENTS: hcq-kfd-sim: [[N:[1-9][0-9]*]] interrupts ([[N]] by id, 0 searched, 0 signaled nothing)
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/gfx1100.mlir
// RUN: cat %S/Inputs/two-gpus.mlir >> %t/gfx1100.mlir
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %t/gfx1100.mlir --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 --arg i32=64 --runs 100 --print 4 2>&1 | FileCheck %s --check-prefix=GFX942

// Tests that a wait the GPU never sees satisfied is a hang named by device
// and queue within the timeout, that the GPU's queues are then stopped, and
// that the process still ends.
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %S/Inputs/stuck.mlir --amd=hardware --arg f32:64:fill=0 --timeout-ms 300 2>&1 | FileCheck %s --check-prefix=STUCK
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %S/Inputs/stuck.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:64:fill=0 --timeout-ms 300 2>&1 | FileCheck %s --check-prefix=STUCK
// STUCK: error: hang detected: AMD:0 COMPUTE:0: the work at read pointer 0 (write pointer 12; the raw read-pointer word 0x0) has not finished after 300 ms (the GPU's queues are stopped)

// Tests that code objects for another GPU, GPUs hcq does not encode for,
// several XCCs and missing GPUs are refused by name before anything runs.
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx1100,gfx1100 hcq-run %t/gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 --arg i32=64 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: AMD kernel vadd was compiled for gfx942, and AMD:0 is a gfx1100
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx90a hcq-run %S/Inputs/stuck.mlir --amd=hardware --arg f32:64:fill=0 2>&1 | FileCheck %s --check-prefix=GFX90A
// GFX90A: error: AMD:0 is a gfx90a, which hcq does not encode for (it does gfx1100, gfx1101, gfx1102 or gfx942)
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx942x8 hcq-run %S/Inputs/stuck.mlir --amd=hardware --arg f32:64:fill=0 2>&1 | FileCheck %s --check-prefix=XCC
// XCC: error: AMD:0 is a gfx942 with 8 XCCs, which hcq does not drive yet: partition it into one device per XCC (CPX mode, e.g. amd-smi set --compute-partition CPX)
// RUN: not %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %hcq_src_root/examples/mlp.mlir --amd=hardware --arg f32:256:arange --arg f32:4096:fill=0.5 --arg f32:4096:fill=-0.25 --arg f32:256:fill=0 2>&1 | FileCheck %s --check-prefix=ONEGPU
// ONEGPU: error: AMD:1: no such GPU: the KFD topology has 1 GPU this process may use (AMD:0); a schedule compiled for AMD:1 needs 2 GPUs

// Tests that a kernel with scratch runs on gfx1100 and gfx942: the simulated
// GPU faults a dispatch whose scratch, laid out as the hardware lays it out
// (on gfx11 TMPRING_SIZE.WAVES per shader engine), reaches past its memory;
// encoding WAVES for the whole device there did.
// RUN: %embed %inputs/hardware-gfx1100.co gather "(write f32, read f32)" --symbol gather > %t/gather-gfx1100.mlir
// RUN: cat %S/Inputs/gather.mlir >> %t/gather-gfx1100.mlir
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gather-gfx1100.mlir --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 --runs 10 --print 4 2>&1 | FileCheck %s --check-prefix=SCRATCH
// SCRATCH: arg 1: 0 1 2 3
// SCRATCH-NEXT: 10 runs:
// RUN: %embed %inputs/hardware-gfx942.co gather "(write f32, read f32)" --symbol gather > %t/gather-gfx942.mlir
// RUN: cat %S/Inputs/gather.mlir >> %t/gather-gfx942.mlir
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/gather-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 --runs 10 --print 4 2>&1 | FileCheck %s --check-prefix=SCRATCH

// Tests that the hidden kernel arguments the code object's metadata lists
// are filled per launch (LLVM AMDGPUUsage, code object v5): the kernel reads
// its workgroup counts and sizes from them, on both targets.
// RUN: %embed %inputs/hardware-gfx1100.co shape "(write i32)" --symbol shape > %t/shape-gfx1100.mlir
// RUN: cat %S/Inputs/shape.mlir >> %t/shape-gfx1100.mlir
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/shape-gfx1100.mlir --amd=hardware --arg i32:6:fill=0 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: arg 0: 3 2 1 8 4 2
// RUN: %embed %inputs/hardware-gfx942.co shape "(write i32)" --symbol shape > %t/shape-gfx942.mlir
// RUN: cat %S/Inputs/shape.mlir >> %t/shape-gfx942.mlir
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/shape-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg i32:6:fill=0 2>&1 | FileCheck %s --check-prefix=SHAPE

// Tests that a kernel the simulated GPU has no CPU twin for (none in
// HCQ_KFD_SIM_TWINS, no host code in the executable) is refused when the
// executable is loaded, naming the kernel and what to do, before anything
// runs: before, its dispatch stopped the GPU's queue and it showed only as
// a hang after the wait timeout. (A hung GPU queue itself is tested in
// unittests/SimulatedKFDTest.cpp, AHungGpuQueueIsStopped...)
// RUN: not %kfdsim HCQ_KFD_SIM_TWINS= HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gather-gfx1100.mlir --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 2>&1 | FileCheck %s --check-prefix=NOTWIN
// RUN: not %kfdsim HCQ_KFD_SIM_TWINS= HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/gather-gfx942.mlir --pipeline-options=target=gfx942 --amd=hardware --arg f32:64:arange --arg f32:64:fill=0 2>&1 | FileCheck %s --check-prefix=NOTWIN
// NOTWIN: error: AMD kernel gather has no CPU twin on the simulated kernel driver (libhcq-kfd-sim.so, preloaded), whose GPU would stop at its first dispatch: define hcq_twin_gather in a library listed in HCQ_KFD_SIM_TWINS, or compile the kernel with a host object
// NOTWIN-NOT: hang detected
// NOTWIN-NOT: stops, as a hung GPU queue does
