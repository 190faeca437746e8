// Tests the way in from upstream MLIR end to end: the kernel of
// examples/gpu/vadd.mlir compiled by Debian's MLIR 22 (convert-gpu-to-rocdl,
// gpu-module-to-binary with ld.lld 22) into a real gfx1100 code object,
// the host code converted by --convert-gpu-to-hcq and compiled by
// --hcq-pipeline. Upstream's pipeline alone makes no host object, so no
// buffer's access is known (readwrite) and the emulated AMD device has no
// CPU twin to run: it refuses, naming the fix. With hcq-attach-host-target
// added, the same program runs there (test/Conversion/gpu-example.mlir).
// RUN: rm -rf %t && mkdir -p %t/tk/llvm/bin && ln -s %ld_lld %t/tk/llvm/bin/ld.lld
// RUN: mlir-opt %hcq_src_root/examples/gpu/vadd.mlir --pass-pipeline="builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary{toolkit=%t/tk})" -o %t/vadd-bin.mlir
// RUN: hcq-opt %t/vadd-bin.mlir --convert-gpu-to-hcq | FileCheck %s --check-prefix=HCQ
// HCQ: hcq.kernel @kernels_vadd amd (readwrite f32, readwrite f32, readwrite f32) vars 1 symbol "vadd" code_object dense_resource<kernels_gfx1100> : tensor<{{[0-9]+}}xi8>
// HCQ-LABEL: hcq.schedule @main(
// HCQ-NEXT: %[[BUF:.*]] = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
// HCQ-NEXT: hcq.copy %[[BUF]][0, 1024]
// HCQ-NEXT: hcq.launch @kernels_vadd({{.*}}) vars({{.*}} : i32) global [4, 1, 1] local [64, 1, 1]
// RUN: hcq-opt %t/vadd-bin.mlir --convert-gpu-to-hcq --hcq-pipeline=target=gfx1100 | hcq-translate --hcq-to-executable -o %t/main.hcqx
// RUN: not hcq-run %t/main.hcqx --amd=emulated --arg f32:256:arange --arg f32:256:fill=1 --arg f32:256:fill=0 --arg i32=200 2>&1 | FileCheck %s
// CHECK: error: AMD kernel kernels_vadd has no CPU twin for the emulated device: define hcq_twin_vadd in a twin library given with --twins, or compile the kernel with a host object{{$}}
// The kernel built for gfx1100 is refused when encoding for gfx942.
// RUN: not hcq-opt %t/vadd-bin.mlir --convert-gpu-to-hcq --hcq-pipeline=target=gfx942 -o /dev/null 2>&1 | FileCheck %s --check-prefix=MACH
// MACH: error: {{.*}}gfx1100{{.*}}gfx942
