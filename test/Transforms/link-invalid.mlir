// RUN: hcq-opt %s -split-input-file --hcq-link -verify-diagnostics

// Tests that a program whose code object cannot be read is reported at its
// kernel, once: the file carries the loaded image, read when the executable
// is converted, not at load.
// expected-error @+1 {{'hcq.kernel' op cannot be read: malformed ELF}}
hcq.kernel @k amd () code_object "\7FELF broken"
hcq.executable @e() {
  %p = hcq.program @k : !hcq.buffer<64xi8, AMD:0>
  %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<128xi8, AMD:0>
  hcq.blob %cb = [0x0, 0x0] patches [0: lo(%p), 4: hi(%p)] : !hcq.buffer<128xi8, AMD:0>, !hcq.buffer<64xi8, AMD:0>
}

// -----

// Tests that memory the executable format cannot name is reported.
hcq.executable @e(%a: !hcq.buffer<16xf32, CPU:0>, %b: !hcq.buffer<16xf32, DISK:0>) {
  // expected-error @+1 {{'hcq.view' op cannot be written to an executable file}}
  %v = hcq.view %a[4] : !hcq.buffer<16xf32, CPU:0> -> !hcq.buffer<4xf32, CPU:0>
  hcq.copy %b[0, 16], %v[0, 16] : !hcq.buffer<16xf32, DISK:0>, !hcq.buffer<4xf32, CPU:0>
}
