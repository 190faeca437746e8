// The README's gpu example ("A gpu program, from its source to running
// here"), command for command: examples/gpu/vadd.mlir compiled by upstream's
// GPU pipeline plus hcq-attach-host-target, converted for CPU:0 and for
// gfx1100, and run on the CPU device and the emulated AMD device with no
// twin library: out = a + b for the first n = 200 of 256 elements, 0 past
// them.
// RUN: rm -rf %t && mkdir -p %t/tk/llvm/bin %t/cpu %t/amd && ln -sf %ld_lld %t/tk/llvm/bin/
// RUN: hcq-opt %hcq_src_root/examples/gpu/vadd.mlir -o %t/vadd-bin.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100}, hcq-attach-host-target, gpu.module(convert-scf-to-cf, convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}), gpu-module-to-binary{toolkit=%t/tk})"
// RUN: hcq-opt %t/vadd-bin.mlir --convert-gpu-to-hcq=device=CPU:0 | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: env -u LD_LIBRARY_PATH hcq-run %t/cpu/main.hcqx --arg f32:256:arange --arg f32:256:fill=1 --arg f32:256:fill=0 --arg i32=200 --print 256 2>&1 | FileCheck %s
// RUN: hcq-opt %t/vadd-bin.mlir --convert-gpu-to-hcq=chip=gfx1100 | hcq-translate --hcq-to-executable --hcq-pipeline-options=target=gfx1100 -o %t/amd/main.hcqx
// RUN: env -u LD_LIBRARY_PATH hcq-run %t/amd/main.hcqx --amd=emulated --arg f32:256:arange --arg f32:256:fill=1 --arg f32:256:fill=0 --arg i32=200 --print 256 2>&1 | FileCheck %s
// CHECK: arg 2: 1 2 3 4 5 6 7 8 9 10 {{.*}} 197 198 199 200 0 0 0 0 {{(0 )*}}0{{$}}
