// hcq-run with several executables on one runtime: each --exe is followed by
// its arguments; they share the runtime's devices, queues and timelines and
// run in the order given; @NAME buffers pass one host buffer to several.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/test/Tools/Inputs/shared-producer.mlir | hcq-translate --hcq-to-executable -o %t/producer.hcqx
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/test/Tools/Inputs/shared-consumer.mlir | hcq-translate --hcq-to-executable -o %t/consumer.hcqx

// Tests that a producer and a consumer sharing x on CPU:0 (each with a
// device of its own) interleave 100 times: x = 4 * a * 3, out = 2 * x.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run --exe %t/producer.hcqx --arg f32:64:arange --arg @x=f32:64:fill=0 --arg i32=3 --exe %t/consumer.hcqx --arg @x --arg f32:64:fill=-1 --runs 100 2>%t/err | FileCheck %s --check-prefix=SHARED
// RUN: FileCheck %s --check-prefix=TIME < %t/err
// SHARED: exe 0 arg 0: 0 1 2 3 4 5 6 7
// SHARED-NEXT: exe 0 arg 1: 0 12 24 36 48 60 72 84
// SHARED-NEXT: exe 1 arg 0: 0 12 24 36 48 60 72 84
// SHARED-NEXT: exe 1 arg 1: 0 24 48 72 96 120 144 168
// TIME: 100 runs: {{[0-9.]+}} us/run submitted

// Tests that a positional file counts as the first executable, and the
// .mlir form compiles each.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/shared-producer.mlir --arg f32:64:fill=1 --arg @x=f32:64:fill=0 --arg i32=2 --exe %hcq_src_root/test/Tools/Inputs/shared-consumer.mlir --arg @x --arg f32:64:fill=-1 --print 2 2>&1 | FileCheck %s --check-prefix=MLIR
// MLIR: exe 1 arg 1: 16 16

// Tests that a named buffer must be defined before it is passed, and once.
// RUN: not hcq-run --exe %t/producer.hcqx --arg f32:64:arange --arg @x --arg i32=3 2>&1 | FileCheck %s --check-prefix=UNDEF
// UNDEF: error: --arg '@x' names no buffer: define it first as @x=TYPE:COUNT:INIT
// RUN: not hcq-run --exe %t/producer.hcqx --arg f32:64:arange --arg @x=f32:64:fill=0 --arg i32=3 --exe %t/consumer.hcqx --arg @x=f32:64:fill=0 --arg f32:64:fill=-1 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: {{.*}}consumer.hcqx: --arg '@x=f32:64:fill=0': buffer @x is defined twice
// RUN: not hcq-run --exe %t/producer.hcqx --arg f32:64:arange --arg @x=f32:16:fill=0 --arg i32=3 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: error: argument 1 (%x: buffer 64xf32, {{.*}}): --arg '@x=f32:16:fill=0' has 16 elements, the argument 64

// Tests that a load error names the executable it is about.
// RUN: env LD_LIBRARY_PATH= not hcq-run --exe %t/producer.hcqx --arg f32:64:arange --arg @x=f32:64:fill=0 --arg i32=3 --exe %t/consumer.hcqx --arg @x --arg f32:64:fill=-1 2>&1 | FileCheck %s --check-prefix=LOAD
// LOAD: error: {{.*}}producer.hcqx: kernel @{{.*}}'s library: cannot load libhcqtestkernels.so

// Tests that the rings are the runtime's: their size is an hcq-run option,
// a push larger than its ring is refused at load, naming the device queue.
// RUN: env LD_LIBRARY_PATH=%inputs not hcq-run --exe %t/producer.hcqx --arg f32:64:arange --arg @x=f32:64:fill=0 --arg i32=3 --ring-bytes=64 2>&1 | FileCheck %s --check-prefix=RING
// RING: error: CPU:1 COMPUTE:0: a push of 192 bytes does not fit its 64-byte ring (it takes at most 64 in one push): raise RuntimeOptions::ringBytes (hcq-run --ring-bytes) or compile with a lower batch-size
// RUN: not hcq-run --exe %t/producer.hcqx --ring-bytes=100 2>&1 | FileCheck %s --check-prefix=RINGOPT
// RINGOPT: error: --ring-bytes must be a positive multiple of 64, got 100
// RUN: not hcq-run 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: no executable: give a file, or --exe FILE for each
