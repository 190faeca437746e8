/*===- run-chain.c - The bundled CPU example through the C API ----*- C -*-===*\
|*                                                                            *|
|*   run-chain chain.hcqx KERNEL_FOLDER                                       *|
|*                                                                            *|
|* Loads examples/cpu-chain.mlir's executable (sum((a + b) * s) over n        *|
|* elements), finds its kernel library in KERNEL_FOLDER, runs it 100 times    *|
|* with a = 0..63 + run, b = 1, s = 2 and checks each sum against the same    *|
|* arithmetic done here. Exit status 0 when every sum matches.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "hcq-c/runtime.h"

#include <stdio.h>
#include <stdlib.h>

/* Prints a failed call's message and ends the program. */
static void check(hcq_status_t status, const char *what) {
  if (!status)
    return;
  fprintf(stderr, "run-chain: %s: %s\n", what, hcq_status_message(status));
  hcq_status_free(status);
  exit(1);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: run-chain chain.hcqx KERNEL_FOLDER\n");
    return 2;
  }
  hcq_runtime_options_t options = hcq_runtime_options_create();
  check(hcq_runtime_options_add_library_path(options, argv[2]), "library path");
  hcq_runtime_t runtime;
  check(hcq_runtime_create(options, &runtime), "runtime");
  hcq_runtime_options_free(options);
  hcq_executable_t exe;
  check(hcq_executable_load_file(runtime, argv[1], &exe), argv[1]);

  float a[64], b[64], sum;
  void *lanes[3] = {a, b, &sum};
  int mismatches = 0;
  for (int run = 0; run < 100; ++run) {
    float expected = 0;
    for (int i = 0; i < 64; ++i) {
      a[i] = (float)(i + run);
      b[i] = 1;
      expected += (a[i] + b[i]) * 2;
    }
    sum = 0;
    hcq_argument_t args[5] = {{&lanes[0], 1, 0},
                              {&lanes[1], 1, 0},
                              {&lanes[2], 1, 0},
                              {NULL, 0, 2},
                              {NULL, 0, 64}};
    check(hcq_executable_run(exe, args, 5), "run");
    check(hcq_executable_synchronize(exe), "synchronize");
    if (sum != expected) {
      fprintf(stderr, "run %d: sum %g, expected %g\n", run, sum, expected);
      ++mismatches;
    }
  }
  printf("run-chain: 100 runs of @%s through hcq %s, %d mismatches\n",
         hcq_executable_name(exe), hcq_version(), mismatches);
  hcq_executable_release(exe);
  hcq_runtime_release(runtime);
  return mismatches != 0;
}
