// hcq-translate --hcq-to-executable: a module's executable as the bytes of
// an HCQX file, its schedules compiled first when they are not yet.
// RUN: rm -rf %t && mkdir -p %t
//
// Tests that a schedule is compiled with --hcq-pipeline and written: the
// same bytes as compiling it with hcq-opt first.
// RUN: hcq-translate --hcq-to-executable %hcq_src_root/examples/cpu-chain.mlir -o %t/direct.hcqx
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/cpu-chain.mlir | hcq-translate --hcq-to-executable -o %t/built.hcqx
// RUN: cmp %t/direct.hcqx %t/built.hcqx
// RUN: hcq-exe-dump %t/direct.hcqx | FileCheck %s --check-prefix=CHAIN
// CHAIN: executable @chain (5 arguments)
//
// Tests that --hcq-pipeline-options reach the pipeline: profile=true records
// timestamps the default compile does not.
// RUN: hcq-translate --hcq-to-executable %hcq_src_root/examples/cpu-chain.mlir --hcq-pipeline-options="profile=true" -o %t/profiled.hcqx
// RUN: hcq-exe-dump %t/profiled.hcqx | FileCheck %s --check-prefix=PROFILE
// RUN: hcq-exe-dump %t/direct.hcqx | FileCheck %s --check-prefix=NOPROFILE
// PROFILE: profile
// NOPROFILE-NOT: profile
//
// Tests that a module of several schedules needs --hcq-executable, which
// picks one by name, and that a name it lacks is an error listing them.
// RUN: not hcq-translate --hcq-to-executable %s -o %t/two.hcqx 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: 2 executables, @first @second: choose one with --hcq-executable=NAME
// RUN: hcq-translate --hcq-to-executable %s --hcq-executable=second -o %t/second.hcqx
// RUN: hcq-exe-dump %t/second.hcqx | FileCheck %s --check-prefix=SECOND
// SECOND: executable @second (1 argument)
// RUN: not hcq-translate --hcq-to-executable %s --hcq-executable=third -o %t/third.hcqx 2>&1 | FileCheck %s --check-prefix=THIRD
// THIRD: error: no hcq.schedule or hcq.executable named @third (it has @first @second)
//
// Tests that a module with nothing to write, and bad pipeline options, are
// errors, and that a failed translation leaves no file.
// RUN: echo "module {}" | not hcq-translate --hcq-to-executable -o %t/none.hcqx 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: no hcq.schedule or hcq.executable to write
// RUN: not hcq-translate --hcq-to-executable %s --hcq-pipeline-options="no-such-option=1" -o %t/bad.hcqx 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: no such option no-such-option
// BADOPT: error: invalid --hcq-pipeline-options 'no-such-option=1'
// RUN: not ls %t/none.hcqx %t/bad.hcqx %t/third.hcqx %t/two.hcqx
//
// Tests that a bad value of a pipeline option, which a pass refuses before
// any pass runs, is reported at the input file, not at "<unknown>:0".
// RUN: not hcq-translate --hcq-to-executable %s --hcq-executable=first --hcq-pipeline-options="target=gfx1030" -o %t/target.hcqx 2>&1 | FileCheck %s --check-prefix=BADTARGET
// BADTARGET: hcq-translate.mlir:0:0: error: hcq-attach-targets: unknown AMD target 'gfx1030' (expected gfx1100, gfx1101, gfx1102 or gfx942)
// BADTARGET-NOT: <unknown>

hcq.schedule @first(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>) {
  hcq.copy %b[0, 256], %a[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}

hcq.schedule @second(%a: !hcq.buffer<64xf32, CPU:0>) {
  hcq.copy %a[0, 128], %a[128, 128] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}
