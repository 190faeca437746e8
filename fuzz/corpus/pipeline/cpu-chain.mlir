// The bundled CPU example: sum((a + b) * s) over 64 elements, three CPU
// kernels in one submit on CPU:0, the middle buffer internal to the schedule.
// scripts/run-example.sh compiles it with --hcq-pipeline, writes the
// executable file and runs it with hcq-run. The kernels are the test kernel
// library's (test/Runtime/Inputs/kernels.c, built into build/test/Inputs);
// a bare library name is found through LD_LIBRARY_PATH, as with dlopen.
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "libhcqtestkernels.so"
hcq.kernel @reduce cpu (write f32, read f32) vars 1 symbol "hcq_reduce" library "libhcqtestkernels.so"

hcq.schedule @chain(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %sum: !hcq.buffer<1xf32, CPU:0>, %s: i32, %n: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @scale(%c : !hcq.buffer<64xf32, CPU:0>) vars(%s : i32) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @reduce(%sum, %c : !hcq.buffer<1xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
}
