// The executable file: written by hcq-translate --hcq-to-executable, read back
// without MLIR by hcq-exe-dump (the runtime's reader).
//
// Tests that the bundled example's executable round-trips through the file:
// its kernels (both in the one loaded image of their code object, stored
// once, and their CPU twins in the one host object), blobs, the shared
// submitter and plan.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/mlp.mlir | hcq-translate --hcq-to-executable -o %t/mlp.hcqx
// RUN: hcq-exe-dump %t/mlp.hcqx | FileCheck %s
// CHECK: executable @mlp (4 arguments)
// CHECK-NEXT: argument 0 %x: buffer 256xf32, read
// CHECK-NEXT: argument 1 %w1: buffer 4096xf32, read
// CHECK-NEXT: argument 2 %w2: buffer 4096xf32, read
// CHECK-NEXT: argument 3 %out: buffer 256xf32, written
// CHECK-NEXT: values {{[0-9]+}}, kernels 2, blobs 17, inputs tables 4, submitters 1, plan steps 1, images 1, host objects 1
// CHECK-NEXT: kernel mlp_kernels_matmul: image 0 ({{[0-9]+}} bytes), entry at 0x{{[0-9A-F]+}}, CPU twin in host object 0 ({{[0-9]+}} bytes)
// CHECK-NEXT: kernel mlp_kernels_relu: image 0 ({{[0-9]+}} bytes), entry at 0x{{[0-9A-F]+}}, CPU twin in host object 0 ({{[0-9]+}} bytes)
// CHECK: submitter 0 ({{[0-9]+}} arguments): fence fence reset patch_group
// CHECK-SAME: push finalize
// CHECK-NEXT: plan: call submitter 0
// CHECK-NOT: profile:
//
// Tests that with profile on, the file names every call's timestamp pair, in
// schedule order, with its queue.
// RUN: mkdir -p %t/profiled
// RUN: hcq-opt --hcq-pipeline=profile=true %hcq_src_root/examples/mlp.mlir | hcq-translate --hcq-to-executable -o %t/profiled/mlp.hcqx
// RUN: hcq-exe-dump %t/profiled/mlp.hcqx | FileCheck %s --check-prefix=PROFILE
// PROFILE: plan: call submitter 0
// PROFILE-NEXT: profile: "copy#0" values [[S0:[0-9]+]], {{[0-9]+}} queue COPY:0
// PROFILE-NEXT: profile: "mlp_kernels_matmul#0" values {{[0-9]+}}, {{[0-9]+}} queue COMPUTE:0
// PROFILE-NEXT: profile: "mlp_kernels_relu#0" values {{[0-9]+}}, {{[0-9]+}} queue COMPUTE:0
// PROFILE-NEXT: profile: "copy#1" values {{[0-9]+}}, {{[0-9]+}} queue COPY:0
// PROFILE-NEXT: profile: "mlp_kernels_matmul#1" values {{[0-9]+}}, {{[0-9]+}} queue COMPUTE:0
// PROFILE-NEXT: profile: "copy#2" values {{[0-9]+}}, {{[0-9]+}} queue COPY:0
// PROFILE-NOT: profile:
//
// Tests that a truncated file is an error, not a crash.
// RUN: head -c 1000 %t/mlp.hcqx > %t/cut.hcqx
// RUN: not hcq-exe-dump %t/cut.hcqx 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: error: '{{.*}}cut.hcqx': invalid hcq executable: the file is 1000 bytes, its header says {{[0-9]+}} (24 of header and {{[0-9]+}} of payload): truncated
//
// Tests that a flipped byte fails the checksum.
// RUN: %python -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[4000] ^= 0x10; open(sys.argv[2], 'wb').write(b)" %t/mlp.hcqx %t/flip.hcqx
// RUN: not hcq-exe-dump %t/flip.hcqx 2>&1 | FileCheck %s --check-prefix=FLIP
// FLIP: invalid hcq executable: checksum mismatch: the file is corrupt
//
// Tests that another file is not taken for an executable.
// RUN: not hcq-exe-dump %s 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: invalid hcq executable: not an HCQX file (bad magic)
//
// Tests that an unwritable output is reported.
// RUN: not hcq-translate --hcq-to-executable %hcq_src_root/examples/mlp.mlir -o %t/missing/dir/mlp.hcqx 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: {{.*}}missing/dir/mlp.hcqx{{.*}}
