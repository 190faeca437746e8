// The C API test's second executable (CAPITest.c, compiled by CTest first):
// one host call, which the test uses to hold a run inside the executable
// while another thread releases it.
hcq.schedule @host_call(%a: !hcq.buffer<4xf32, CPU:0>, %s: i32) {
  hcq.host_call "pause"(%a, %s : !hcq.buffer<4xf32, CPU:0>, i32)
}
