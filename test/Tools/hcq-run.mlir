// hcq-run: the bundled CPU example, compiled by --hcq-pipeline into an
// executable file and run by the MLIR-free runtime on the CPU device.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/cpu-chain.mlir | hcq-translate --hcq-to-executable -o %t/chain.hcqx

// Tests that one run computes sum((a + b) * s): a = 0..63, b = 1, s = 2 gives
// 2 * (1 + ... + 64) = 4160, and leaves the inputs as they were.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: arg 0: 0 1 2 3 4 5 6 7
// ONE-NEXT: arg 1: 1 1 1 1 1 1 1 1
// ONE-NEXT: arg 2: 4160
// ONE-NEXT: 1 runs: {{[0-9.]+}} us/run submitted, {{[0-9.]+}} us/run finished

// Tests that the bound variables are per-run inputs, not baked into the blob:
// the same file with s = 3 and only the first 10 elements summed gives
// 3 * (1 + ... + 10) = 165, after 50 runs.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=3 --arg i32=10 --runs 50 2>&1 | FileCheck %s --check-prefix=VARS
// VARS: arg 2: 165
// VARS-NEXT: 50 runs:

// Tests that a file of raw little-endian floats feeds a buffer: b = 2.5
// everywhere, s = 1, n = 4 gives 0 + 1 + 2 + 3 + 4 * 2.5 = 16.
// RUN: %python -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<64f', *[2.5] * 64))" > %t/b.bin
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:file=%t/b.bin --arg f32:1:fill=0 --arg i32=1 --arg i32=4 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: arg 1: 2.5 2.5
// FILE: arg 2: 16

// Tests that too few arguments are refused before anything runs, naming
// the first missing one.
// RUN: env LD_LIBRARY_PATH=%inputs not hcq-run %t/chain.hcqx --arg f32:64:arange 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: error: @chain takes 5 arguments, given 1: argument 1 (%b: buffer 64xf32, read) has no --arg or --input

// Tests that a bad buffer spec, a bad init and a short input file are
// diagnosed before anything runs.
// RUN: not hcq-run %t/chain.hcqx --arg f64:64:arange 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: error: bad buffer argument 'f64:64:arange' (expected f32|i32:COUNT:INIT)
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:ones 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: error: bad init in 'f32:64:ones' (expected arange, fill=V or file=PATH)
// RUN: not hcq-run %t/chain.hcqx --arg f32:128:file=%t/b.bin 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: cannot read 512 bytes from {{.*}}b.bin

// Tests that a kernel library the loader cannot find is an error naming it,
// the kernel, where it was looked for and how to add a folder; that
// --library-path adds one (searched before LD_LIBRARY_PATH); and that a
// library given by a path is opened as written.
// RUN: env LD_LIBRARY_PATH= not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=LIB
// LIB: error: kernel @vadd's library: cannot load libhcqtestkernels.so: libhcqtestkernels.so: cannot open shared object file: No such file or directory (looked for in the library search folders (none), then where the dynamic loader looks: LD_LIBRARY_PATH (not set) and the system's folders; add the library's folder with --library-path or to LD_LIBRARY_PATH)
// RUN: env LD_LIBRARY_PATH=%t not hcq-run %t/chain.hcqx --library-path=%t/nowhere --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=LIBDIRS
// LIBDIRS: (looked for in the library search folders {{.*}}nowhere, then where the dynamic loader looks: LD_LIBRARY_PATH '{{.*}}' and the system's folders;
// RUN: env LD_LIBRARY_PATH= hcq-run %t/chain.hcqx --library-path=%t/nowhere --library-path=%inputs --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=LIBPATH
// LIBPATH: arg 2: 4160
// RUN: sed 's|"libhcqtestkernels.so"|"%t/nowhere/libk.so"|' %hcq_src_root/examples/cpu-chain.mlir > %t/abslib.mlir
// RUN: hcq-translate --hcq-to-executable %t/abslib.mlir -o %t/abslib.hcqx
// RUN: not hcq-run %t/abslib.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=ABSLIB
// ABSLIB: error: kernel @vadd's library: cannot load {{.*}}nowhere/libk.so: {{.*}}nowhere/libk.so: cannot open shared object file: No such file or directory{{$}}

// Tests that a file that is not an executable, or no file, is refused.
// RUN: %python -c "print('not an executable, but longer than a header')" > %t/garbage.hcqx
// RUN: not hcq-run %t/garbage.hcqx 2>&1 | FileCheck %s --check-prefix=NOTEXE
// NOTEXE: error: '{{.*}}garbage.hcqx': invalid hcq executable: not an HCQX file (bad magic)
// RUN: not hcq-run %t/missing.hcqx 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: cannot read '{{.*}}missing.hcqx': No such file or directory

// Tests that a .mlir input is compiled first (by the hcq-opt beside hcq-run)
// and gives the same result as the executable file, also with pipeline
// options that change the batching (one submit per kernel).
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/examples/cpu-chain.mlir --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=MLIR
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/examples/cpu-chain.mlir --pipeline-options=batch-size=1 --schedule=chain --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 --runs 20 2>&1 | FileCheck %s --check-prefix=MLIR
// MLIR: arg 2: 4160

// Tests that a schedule that does not compile, a bad pipeline option and an
// unknown --schedule are errors that name the input.
// RUN: not hcq-run %hcq_src_root/test/Tools/Inputs/launch-mismatch.mlir 2>&1 | FileCheck %s --check-prefix=BADMLIR
// BADMLIR: launch-mismatch.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// BADMLIR: error: hcq-translate could not compile '{{.*}}launch-mismatch.mlir'
// RUN: not hcq-run %hcq_src_root/examples/cpu-chain.mlir --pipeline-options=no-such-option=1 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: no such option no-such-option
// BADOPT: error: hcq-translate could not compile
// RUN: not hcq-run %s 2>&1 | FileCheck %s --check-prefix=NOSCHEDS
// NOSCHEDS: hcq-run.mlir:{{.*}} error: no hcq.schedule or hcq.executable to write
// NOSCHEDS: error: hcq-translate could not compile '{{.*}}hcq-run.mlir'
// RUN: not hcq-run %hcq_src_root/examples/cpu-chain.mlir --schedule=nope 2>&1 | FileCheck %s --check-prefix=NOSCHED
// NOSCHED: cpu-chain.mlir:{{.*}} error: no hcq.schedule or hcq.executable named @nope (it has @chain)

// Tests that two CPU devices with copies between them run: the copies on
// the devices' COPY queues, the last submit pushed to both devices' rings
// (one push per lane), correct over 10 back-to-back runs: out = 2 * a * 3.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/two-devices.mlir --arg f32:64:arange --arg f32:64:fill=0 --arg i32=3 --runs 10 --timeout-ms 5000 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: arg 1: 0 6 12 18 24 30 36 42

// Tests that kernel copies (no CPU copy queue) run through the runtime's
// builtin copy kernel and give the same result.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/two-devices.mlir --pipeline-options=copy-queues=AMD --arg f32:64:arange --arg f32:64:fill=0 --arg i32=3 --runs 10 --timeout-ms 5000 2>&1 | FileCheck %s --check-prefix=TWO

// Tests that a copy of a byte range that is not whole elements is exact on
// the copy queue and as a kernel copy (the builtin over i8 views, element
// size 1): out[0] = a[1], the low half of out[1] = that of a[2] (0xffff0002),
// the rest untouched.
// RUN: hcq-run %hcq_src_root/test/Tools/Inputs/byte-copy.mlir --arg i32:8:arange --arg i32:8:fill=-1 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: hcq-run %hcq_src_root/test/Tools/Inputs/byte-copy.mlir --pipeline-options=copy-queues=AMD --arg i32:8:arange --arg i32:8:fill=-1 2>&1 | FileCheck %s --check-prefix=BYTES
// BYTES: arg 1: 1 -65534 -1 -1 -1 -1 -1 -1

// Tests that profile on (timestamp entries around every launch and copy)
// leaves the results as they were, on one device and on two with one submit
// per op. (hcq-run-amd.mlir checks the trace --trace writes from them.)
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/examples/cpu-chain.mlir --pipeline-options=profile=true --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 --runs 5 2>&1 | FileCheck %s --check-prefix=MLIR
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/two-devices.mlir "--pipeline-options=profile=true batch-size=1" --arg f32:64:arange --arg f32:64:fill=0 --arg i32=3 --runs 5 --timeout-ms 5000 2>&1 | FileCheck %s --check-prefix=TWO

// Tests that a constant kernel scalar is folded into the kernel arguments and
// runs: a = 0..63 scaled by -3, twice.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/constant-scalar.mlir --arg f32:64:arange --runs 2 2>&1 | FileCheck %s --check-prefix=CONST
// CONST: arg 0: 0 9 18 27 36 45 54 63

// Tests that the example in hcq.schedule's documentation (taken from the
// generated reference, so it cannot drift) computes what it says: out = a + b
// over all 64 elements (a = 0..63, b = 10).
// RUN: %python %S/Inputs/doc-example.py %hcq_src_root/docs/reference/HCQDialect.md hcq.schedule > %t/doc-example.mlir
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/doc-example.mlir --arg f32:64:arange --arg f32:64:fill=10 --arg f32:64:fill=0 --print 64 2>&1 | FileCheck %s --check-prefix=DOC
// DOC: arg 2: 10 11 12 {{.*}} 71 72 73{{$}}

// Tests that f32 scalars work, bound (--arg f32=2.5) and constant (0.5):
// a = 0..63 times 2.5 times 0.5.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/float-scalar.mlir --arg f32:64:arange --arg f32=2.5 2>&1 | FileCheck %s --check-prefix=FLOAT
// FLOAT: arg 0: 0 1.25 2.5 3.75 5 6.25 7.5 8.75
// RUN: not hcq-run %hcq_src_root/test/Tools/Inputs/float-scalar.mlir --arg f32:64:arange --arg f32=two 2>&1 | FileCheck %s --check-prefix=BADFLOAT
// BADFLOAT: error: argument 1 (%s: f32): --arg 'f32=two' has a bad value 'two'

// Tests that hostile arguments are refused, not attempted: a buffer larger
// than --max-buffer-bytes (sizes in 64 bits: 1073741840 * 4 overflowed 32),
// an endless file read only as far as the buffer needs (zeros, scaled by -3),
// and a file that is
// no regular file as an executable.
// RUN: not hcq-run %t/chain.hcqx --arg f32:1073741840:arange 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: buffer argument 'f32:1073741840:arange' is 1073741840 elements, more than --max-buffer-bytes (1073741824 bytes) allows
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %hcq_src_root/test/Tools/Inputs/constant-scalar.mlir --arg f32:64:file=/dev/zero 2>&1 | FileCheck %s --check-prefix=ENDLESS
// ENDLESS: arg 0: -0 -0 -0 -0 -0 -0 -0 -0
// RUN: not hcq-run /dev/zero 2>&1 | FileCheck %s --check-prefix=NOTREG
// RUN: not hcq-exe-dump /dev/zero 2>&1 | FileCheck %s --check-prefix=NOTREG
// NOTREG: error: cannot read '/dev/zero': not a regular file

// Tests the small refusals: no zero timeout (it would report a false hang),
// no zero runs, no i32 that does not fit, and a short file says why.
// RUN: not hcq-run %t/chain.hcqx --timeout-ms 0 2>&1 | FileCheck %s --check-prefix=ZEROTIME
// ZEROTIME: error: --timeout-ms must be positive: a wait that may not wait at all reports a hang on a healthy run
// RUN: not hcq-run %t/chain.hcqx --runs 0 2>&1 | FileCheck %s --check-prefix=ZERORUNS
// ZERORUNS: error: --runs must be at least 1
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=99999999999 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: argument 3 (%s: i32): --arg 'i32=99999999999' does not fit an i32
// RUN: not hcq-run %t/chain.hcqx --arg f32:128:file=%t/b.bin 2>&1 | FileCheck %s --check-prefix=WHY
// WHY: error: cannot read 512 bytes from {{.*}}b.bin: the file ends after 256 bytes
// RUN: not hcq-run %t/chain.hcqx --arg f32:128:file=%t/nowhere.bin 2>&1 | FileCheck %s --check-prefix=NOENT
// NOENT: error: cannot read 512 bytes from {{.*}}nowhere.bin: {{.*}}o such file or directory

// Tests that --help lists hcq-run's own options (not LLVM's hundreds) and
// --version names hcq's version and the executable format it reads.
// RUN: hcq-run --help | FileCheck %s --check-prefix=HELP
// HELP: USAGE: hcq-run [options] <file.hcqx|file.mlir>
// HELP-NOT: aarch64
// HELP: hcq-run options:
// HELP: --arg=<value>
// HELP: --amd=<none|emulated|hardware>
// HELP: --version
// HELP-NOT: aarch64

// Tests that the command line itself is checked: an unknown option, an
// option without its value, a number that is not one, a value given to a
// flag and a second positional file are each refused by name.
// RUN: not hcq-run %t/chain.hcqx --rusn 3 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown option '--rusn' (see --help)
// RUN: not hcq-run %t/chain.hcqx --runs 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: error: option '--runs' needs a value (--runs=N)
// RUN: not hcq-run %t/chain.hcqx --runs=3x 2>&1 | FileCheck %s --check-prefix=NOTNUM
// NOTNUM: error: --runs=3x: not a number of the range 0..4294967295
// RUN: not hcq-run %t/chain.hcqx --list-arguments=yes 2>&1 | FileCheck %s --check-prefix=FLAGVALUE
// FLAGVALUE: error: option '--list-arguments' is a flag: give it alone, or =true or =false
// RUN: not hcq-run %t/chain.hcqx %t/chain.hcqx 2>&1 | FileCheck %s --check-prefix=TWOFILES
// TWOFILES: error: more than one file: '{{.*}}chain.hcqx' (give each further executable as --exe FILE)
// RUN: hcq-run --version | FileCheck %s --check-prefix=VERSION
// VERSION: hcq-run, hcq {{[0-9]+\.[0-9]+\.[0-9]+}} (executable format version {{[0-9]+}})
