// Bad input to hcq-encode on AMD submits: each case a diagnostic naming the problem and
// a non-zero exit. The cases are separate files (split-file); the kernels come
// from real code objects, made bad where a case needs it.
//
// RUN: split-file %s %t
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/vadd.k

// Tests that an unknown target is named.
// RUN: cat %t/vadd.k %t/launch.mlir | not hcq-opt --hcq-attach-targets=amd=gfx803 --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: <stdin>:0:0: error: hcq-attach-targets: unknown AMD target 'gfx803' (expected gfx1100, gfx1101, gfx1102 or gfx942)
// The option is checked when the pass manager is set up, before any pass
// runs: hcq-batch-deps, which would refuse this input (a launch on a buffer
// of unknown origin), never runs.
// RUN: not hcq-opt %t/untracked.mlir --hcq-batch-deps --hcq-attach-targets=amd=gfx803 --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: untracked.mlir:0:0: error: hcq-attach-targets: unknown AMD target 'gfx803'
// EARLY-NOT: cannot be tracked

// Tests that a builtin copy whose target kernel was not materialized is
// refused by name: hcq-encode works on one schedule and adds nothing
// beside it, so hcq-materialize-builtins must run first.
// RUN: not hcq-opt %t/builtin-copy.mlir --hcq-attach-targets --hcq-encode 2>&1 | FileCheck %s --check-prefix=NOBUILTIN
// NOBUILTIN: error: 'hcq.launch' op is a builtin copy on gfx1100 but there is no amd kernel @hcq_copy_gfx1100: run hcq-materialize-builtins before hcq-encode (hcq-pipeline does)

// Tests that a submit with command words after ops to encode is refused by
// name, not encoded in part.
// RUN: not hcq-opt %t/partly-encoded.mlir --hcq-attach-targets --hcq-encode 2>&1 | FileCheck %s --check-prefix=PARTLY
// PARTLY: error: 'hcq.submit' op is partly encoded: it holds command words beside ops to encode

// Tests that a code object that is not a valid ELF is reported on its kernel.
// RUN: cat %t/garbage.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: 1:1: error: 'hcq.kernel' op has a bad code object: malformed ELF:

// Tests that a truncated code object is reported.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 --truncate 300 > %t/cut.k
// RUN: cat %t/cut.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: error: 'hcq.kernel' op has a bad code object: malformed ELF

// Tests that an ELF for another machine is reported.
// RUN: %embed %inputs/host.o vadd "(write f32, read f32, read f32)" --vars 1 > %t/host.k
// RUN: cat %t/host.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=HOST
// HOST: error: 'hcq.kernel' op has a bad code object: ELF is not for AMDGPU (e_machine 62)

// Tests that a code object built for another processor is refused: gfx1100
// code encoded for gfx942 (and the other way round) would not run there.
// RUN: cat %t/vadd.k %t/launch.mlir | not hcq-opt --hcq-attach-targets=amd=gfx942 --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=MACH
// MACH: 1:1: error: 'hcq.kernel' op has a code object for gfx1100, not gfx942, the schedule's target: compile the schedule for gfx1100 (--hcq-pipeline's target=gfx1100) or the kernel for gfx942
// RUN: %embed %inputs/kernels-gfx942.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/vadd9.k
// RUN: cat %t/vadd9.k %t/launch.mlir | not hcq-opt --hcq-attach-targets=amd=gfx1101 --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=MACH9
// MACH9: error: 'hcq.kernel' op has a code object for gfx942, not gfx1101

// Tests that a code object for a processor hcq does not support is named as
// LLVM names it (gfx1030, EF_AMDGPU_MACH 0x36), not by its number, with the
// processors hcq supports.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 --set-mach 36 > %t/gfx1030.k
// RUN: cat %t/gfx1030.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=GFX1030
// GFX1030: error: 'hcq.kernel' op has a code object for gfx1030, not gfx1100, the schedule's target; hcq supports gfx1100, gfx1101, gfx1102 or gfx942: compile the kernel for one of them
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 --set-mach 7f > %t/unknown.k
// RUN: cat %t/unknown.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=UNKNOWNMACH
// UNKNOWNMACH: error: 'hcq.kernel' op has a code object for an unknown processor (EF_AMDGPU_MACH 0x7f), not gfx1100

// Tests that a descriptor asking for more LDS than the target has is reported.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 --set-lds 131072 > %t/lds.k
// RUN: cat %t/lds.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=LDS
// LDS: error: 'hcq.kernel' op asks for 131072 bytes of LDS but gfx1100 has 65536

// Tests that a code object of several kernels needs the kernel's symbol.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --vars 1 > %t/many.k
// RUN: cat %t/many.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: error: 'hcq.kernel' op has a bad code object: code object holds several kernels ('{{.*}}', '{{.*}}'): name one with 'symbol'

// Tests that a missing kernel symbol is named.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32)" --symbol vsub --vars 1 > %t/missing.k
// RUN: cat %t/missing.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: 'hcq.kernel' op has a bad code object: code object has no kernel 'vsub'

// Tests that a launch passing more kernel arguments than the code object takes
// is reported.
// RUN: %embed %inputs/kernels-gfx1100.co vadd "(write f32, read f32, read f32, read f32)" --symbol vadd --vars 1 > %t/wide.k
// RUN: cat %t/wide.k %t/launch4.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: 'hcq.launch' op passes 36 bytes of kernel arguments but @vadd's code object takes 28

// Tests that a cpu kernel cannot run on an AMD queue: the launch is named,
// and the kernel.
// RUN: not hcq-opt %t/cpu-kernel.mlir --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=CPUK
// CPUK: cpu-kernel.mlir:4:5: error: 'hcq.launch' op runs @k, a cpu kernel: AMD queues run only amd kernels
// CPUK: cpu-kernel.mlir:1:1: note: kernel declared here

// Tests that a copy on a compute queue and a launch on a copy queue are
// reported.
// RUN: cat %t/vadd.k %t/wrong-queue.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=QUEUE
// QUEUE: error: 'hcq.copy' op cannot be encoded on an AMD COMPUTE queue
// RUN: cat %t/vadd.k %t/wrong-queue2.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=QUEUE2
// QUEUE2: error: 'hcq.launch' op cannot be encoded on an AMD COPY queue

// Tests that a launch of more work-items per workgroup than the kernel was
// compiled for (.max_flat_workgroup_size, 256 by default) is refused.
// RUN: cat %t/vadd.k %t/workgroup512.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=MAXWG
// MAXWG: error: 'hcq.launch' op runs 512 work-items per workgroup, and @vadd was compiled for at most 256 (.max_flat_workgroup_size in its code object)

// Tests that a kernel reading a hidden argument hcq does not provide (here
// the multigrid sync argument) is refused, not given zero; and one whose descriptor
// asks for a user SGPR hcq does not load (the queue pointer) too.
// RUN: %embed %inputs/hardware-gfx1100.co hostcall "(write i64)" --symbol hostcall > %t/hostcall.k
// RUN: sed s/@queue/@hostcall/ %t/queue-ptr.mlir | cat %t/hostcall.k - | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=HIDDEN
// HIDDEN: error: 'hcq.launch' op @hostcall reads the hidden argument hidden_multigrid_sync_arg, which hcq does not provide
// RUN: %embed %inputs/hardware-gfx1100.co queue "(write i64)" --symbol queue > %t/queue.k
// RUN: cat %t/queue.k %t/queue-ptr.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=QUEUEPTR
// QUEUEPTR: error: 'hcq.kernel' op has a bad code object: kernel descriptor at 0x{{[0-9a-f]+}} enables the queue_ptr user SGPR, which hcq does not set up

// Tests that (size arithmetic) a launch whose grid in work-items (global x
// local) does not fit the 32-bit grid_size_x of the dispatch packet a
// kernel reads (scale does) is refused, not written truncated: 2^24
// workgroups of 256 are 2^32 work-items, 0 when truncated.
// RUN: %embed %inputs/kernels-gfx1100.co scale "(readwrite f32)" --symbol scale --vars 1 > %t/scale.k
// RUN: cat %t/scale.k %t/grid32.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=GRID32
// GRID32: <stdin>:4:5: error: 'hcq.launch' op has a grid of 16777216 x 256 work-items in dimension x, but @scale reads the dispatch packet, whose grid_size_x is 32 bits
// One work-item fewer per dimension fits and encodes.
// RUN: sed 's/16777216/16777215/' %t/grid32.mlir | cat %t/scale.k - | hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode -o /dev/null

// Tests that (size arithmetic) a code object whose descriptor asks for more
// kernel-argument bytes than hcq gives a launch (1 MiB) is refused at the
// kernel: every launch's segment is padded to kernarg_size, a 32-bit field,
// so a hostile one would be gigabytes of words. Exactly 1 MiB encodes.
// RUN: %python %S/Inputs/set-kernarg-size.py %inputs/kernels-gfx1100.co %t/big.co vadd 0x100004
// RUN: %embed %t/big.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/big.k
// RUN: cat %t/big.k %t/launch.mlir | not hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode 2>&1 | FileCheck %s --check-prefix=KERNARG
// KERNARG: <stdin>:1:1: error: 'hcq.kernel' op asks for 1048580 bytes of kernel arguments, more than the 1048576 hcq gives a launch
// RUN: %python %S/Inputs/set-kernarg-size.py %inputs/kernels-gfx1100.co %t/max.co vadd 0x100000
// RUN: %embed %t/max.co vadd "(write f32, read f32, read f32)" --symbol vadd --vars 1 > %t/max.k
// RUN: cat %t/max.k %t/launch.mlir | hcq-opt --hcq-attach-targets --hcq-materialize-builtins --hcq-encode -o /dev/null

//--- garbage.k
hcq.kernel @vadd amd (write f32, read f32, read f32) vars 1 code_object "\7FELF garbage"
//--- launch.mlir
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %n: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @vadd(%a, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  }
}
//--- launch4.mlir
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %n: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @vadd(%a, %a, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  }
}
//--- cpu-kernel.mlir
hcq.kernel @k cpu (write f32) symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @k(%a : !hcq.buffer<64xf32, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  }
}
//--- wrong-queue.mlir
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.copy %a[0, 16], %a[16, 16] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>
  }
}
//--- wrong-queue2.mlir
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %n: i32) {
  hcq.submit on AMD:0 queue COPY:0 {
    hcq.launch @vadd(%a, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
  }
}
//--- workgroup512.mlir
hcq.schedule @s(%a: !hcq.buffer<512xf32, AMD:0>, %n: i32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @vadd(%a, %a, %a : !hcq.buffer<512xf32, AMD:0>, !hcq.buffer<512xf32, AMD:0>, !hcq.buffer<512xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [512, 1, 1]
  }
}
//--- queue-ptr.mlir
hcq.schedule @s(%a: !hcq.buffer<1xi64, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @queue(%a : !hcq.buffer<1xi64, AMD:0>) global [1, 1, 1] local [1, 1, 1]
  }
}
//--- untracked.mlir
hcq.kernel @read cpu (read f32) symbol "r" library "libk.so"
hcq.schedule @untracked(%a: !hcq.buffer<16xf32, AMD:0>) {
  %x = builtin.unrealized_conversion_cast %a : !hcq.buffer<16xf32, AMD:0> to !hcq.buffer<16xf32, AMD:1>
  hcq.launch @read(%x : !hcq.buffer<16xf32, AMD:1>) global [1, 1, 1] local [1, 1, 1]
}
//--- builtin-copy.mlir
hcq.kernel @hcq_copy_f32_f32 builtin (write f32, read f32) symbol "copy"
hcq.schedule @s(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @hcq_copy_f32_f32(%a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) global [64, 1, 1] local [1, 1, 1]
  }
}
//--- partly-encoded.mlir
hcq.schedule @s() {
  %s = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.store %s = 1 : !hcq.buffer<1xi64, AMD:0>
    hcq.cmds cmdbuf i32 [0x1]
  }
}
//--- grid32.mlir
hcq.schedule @s(%a: !hcq.buffer<256xf32, AMD:0>, %n: f32) {
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.launch @scale(%a : !hcq.buffer<256xf32, AMD:0>) vars(%n : f32) global [16777216, 1, 1] local [256, 1, 1]
  }
}
