// For test/KFDSim/hardware.mlir: a wait on a signal nothing stores.
hcq.schedule @stuck(%a: !hcq.buffer<64xf32, AMD:0>) {
  %s = hcq.placeholder signal slot 9 volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.wait %s >= 5 : !hcq.buffer<1xi64, AMD:0>
  }
}
