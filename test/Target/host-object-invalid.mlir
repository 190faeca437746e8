// RUN: hcq-opt %s -split-input-file -verify-diagnostics

// Tests that a cpu kernel takes its symbol from a library or from its host
// object, not both.
// expected-error @+1 {{'hcq.kernel' op cpu kernel takes its symbol from a 'library' or its 'host_object', not both}}
hcq.kernel @k cpu () symbol "k" library "libk.so" host_object "\7FELF"

// -----

// Tests that a cpu kernel with neither is refused, naming both.
// expected-error @+1 {{'hcq.kernel' op cpu kernel needs the shared 'library' that holds its symbol, or its 'host_object'}}
hcq.kernel @k cpu () symbol "k"

// -----

// Tests that a host object is an ELF file.
// expected-error @+1 {{'hcq.kernel' op 'host_object' is not an ELF file (bad magic)}}
hcq.kernel @k cpu () symbol "k" host_object "#!/bin/sh"

// -----

// Tests that an amd kernel's host object (its CPU twin) is checked alike.
// expected-error @+1 {{'hcq.kernel' op 'host_object' is not an ELF file (bad magic)}}
hcq.kernel @k amd () symbol "k" code_object "\7FELF" host_object "MZ"

// -----

// Tests that a host object resource the file does not hold is refused.
// expected-error @+1 {{'hcq.kernel' op 'host_object' names the resource 'nowhere', which the file does not hold}}
hcq.kernel @k cpu () symbol "k" host_object dense_resource<nowhere> : tensor<4xi8>

// -----

// Tests that a host object resource declared with another size than its
// blob is refused.
// expected-error @+1 {{'hcq.kernel' op 'host_object' resource 'host' holds 4 bytes but is declared as 'tensor<8xi8>'}}
hcq.kernel @k cpu () symbol "k" host_object dense_resource<host> : tensor<8xi8>

{-#
  dialect_resources: {
    builtin: {
      host: "0x080000007F454C46"
    }
  }
#-}

// -----

// Tests that a builtin kernel carries no host object.
// expected-error @+1 {{'hcq.kernel' op builtin kernel must not carry a 'host_object'}}
hcq.kernel @k builtin (write f32, read f32) symbol "copy" host_object "\7FELF"
