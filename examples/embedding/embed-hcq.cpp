//===- embed-hcq.cpp - hcq inside another compiler ------------------------===//
//
// What an MLIR-based ML compiler does with an installed hcq: registers the
// dialect and passes in its own context, runs `hcq-pipeline{...}` from C++
// on the schedule it built, turns the executable into the runtime's form
// (here through the file format, as an ahead-of-time compiler would cache
// it), loads it onto a runtime and runs it, checking every result against
// the arithmetic done directly. Then the same from upstream gpu IR: a
// gpu.module compiled for the host by #hcq.host_target (HCQ::HostTarget)
// in upstream's gpu-module-to-binary, converted by convert-gpu-to-hcq and
// run on CPU:0 with no kernel library at all. Exit status 0 when every
// number is right.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Conversion/Passes.h"
#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Target/Host/Target.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>

using namespace hcq::runtime;

namespace {

/// The schedule the embedding compiler produced: y += a * x, then
/// out = sum(y[0..n)), on CPU:0.
std::string schedule() {
  std::string lib = EMBED_KERNELS;
  return "hcq.kernel @axpy cpu (readwrite f32, read f32) vars 1 symbol "
         "\"embed_axpy\" library \"" +
         lib +
         "\"\n"
         "hcq.kernel @sum cpu (write f32, read f32) vars 1 symbol "
         "\"embed_sum\" library \"" +
         lib + "\"\n" + R"mlir(
hcq.schedule @axpy_sum(%x: !hcq.buffer<256xf32, CPU:0>, %y: !hcq.buffer<256xf32, CPU:0>, %out: !hcq.buffer<1xf32, CPU:0>, %a: i32, %n: i32) {
  hcq.launch @axpy(%y, %x : !hcq.buffer<256xf32, CPU:0>, !hcq.buffer<256xf32, CPU:0>) vars(%a : i32) global [256, 1, 1] local [1, 1, 1]
  hcq.launch @sum(%out, %y : !hcq.buffer<1xf32, CPU:0>, !hcq.buffer<256xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
}
)mlir";
}

int fail(const std::string &what) {
  llvm::errs() << "embed-hcq: " << what << "\n";
  return 1;
}

/// A gpu program as an ML compiler's GPU path leaves it: x[i] *= s over
/// 256 elements, blocks of 64.
const char *const gpuProgram = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<256xf32>, %s: f32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<256xf32>
      %r = arith.mulf %v, %s : f32
      memref.store %r, %x[%i] : memref<256xf32>
      gpu.return
    }
  }
  func.func @scale(%x: memref<256xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@scale
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<256xf32>, %s : f32)
    gpu.wait [%t1]
    return
  }
}
)mlir";

/// The gpu program compiled for CPU:0 (its kernel by #hcq.host_target) and
/// run on `runtime`.
int runGpuProgram(mlir::MLIRContext &context, Runtime &runtime) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(gpuProgram, &context);
  if (!module)
    return fail("the gpu program does not parse");
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline(
          "hcq-attach-host-target,gpu-module-to-binary,"
          "convert-gpu-to-hcq{device=CPU:0},hcq-pipeline",
          pm, llvm::errs())))
    return fail("cannot parse the gpu pass pipeline");
  if (mlir::failed(pm.run(*module)))
    return fail("the gpu pipeline failed");
  auto executables = module->getOps<hcq::ExecutableOp>();
  if (executables.empty())
    return fail("no executable from the gpu program");
  mlir::SymbolTableCollection symbols;
  mlir::FailureOr<Executable> exe =
      hcq::convertExecutable(*executables.begin(), symbols);
  if (mlir::failed(exe))
    return fail("cannot convert the gpu program's executable");
  if (exe->hostObjects.size() != 1)
    return fail("the executable does not carry the kernel's host object");
  hcq::Expected<std::unique_ptr<LoadedExecutable>> loaded = runtime.load(*exe);
  if (!loaded)
    return fail(hcq::toString(loaded.takeError()));
  hcq::Expected<Buffer> x = runtime.allocate({hcq::DeviceKind::CPU, 0}, 1024);
  if (!x)
    return fail("cannot allocate");
  for (int i = 0; i < 256; ++i)
    x->data<float>()[i] = float(i);
  if (hcq::Error e =
          (*loaded)->run({bufferArgument({&*x}), Argument::f32(2.5f)}))
    return fail(hcq::toString(std::move(e)));
  if (hcq::Error e = (*loaded)->synchronize())
    return fail(hcq::toString(std::move(e)));
  for (int i = 0; i < 256; ++i)
    if (x->data<float>()[i] != float(i) * 2.5f)
      return fail("gpu program: x[" + std::to_string(i) + "] is " +
                  std::to_string(x->data<float>()[i]) + ", expected " +
                  std::to_string(float(i) * 2.5f));
  std::printf("embed-hcq: the gpu program ran on CPU:0 from its source\n");
  return 0;
}

} // namespace

int main() {
  // 1. The compiler's context knows the hcq dialect and what its targets
  //    compile (#hcq.amd_target, #hcq.cpu_target); the passes and the
  //    pipeline are registered by name.
  mlir::DialectRegistry registry;
  registry.insert<hcq::HCQDialect>();
  hcq::registerTargetInterfaces(registry);
  // What the gpu program is written in, and #hcq.host_target's model for
  // upstream's gpu-module-to-binary (HCQ::HostTarget).
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::memref::MemRefDialect>();
  hcq::registerHostTargetInterfaceExternalModels(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  hcq::registerPasses();
  hcq::registerConversionPasses(); // convert-gpu-to-hcq, attach-host-target
  mlir::registerGpuModuleToBinaryPass();

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(schedule(), &context);
  if (!module)
    return fail("the schedule does not parse");

  // 2. The pipeline, from its textual form, as a compiler's own pipeline
  //    string would carry it.
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline("hcq-pipeline{batch-size=4}", pm,
                                           llvm::errs())))
    return fail("cannot parse the pass pipeline");
  if (mlir::failed(pm.run(*module)))
    return fail("--hcq-pipeline failed");

  // 3. The executable in the runtime's form, through the file format.
  auto executables = module->getOps<hcq::ExecutableOp>();
  if (executables.empty())
    return fail("no executable");
  mlir::SymbolTableCollection symbols;
  mlir::FailureOr<Executable> converted =
      hcq::convertExecutable(*executables.begin(), symbols);
  if (mlir::failed(converted))
    return fail("cannot convert the executable");
  std::vector<uint8_t> file = writeExecutable(*converted);
  hcq::Expected<Executable> exe = readExecutable(file);
  if (!exe)
    return fail(hcq::toString(exe.takeError()));

  // 4. The runtime: device memory for the buffers, then 100 runs.
  std::shared_ptr<Runtime> runtime = Runtime::create();
  hcq::Expected<std::unique_ptr<LoadedExecutable>> loaded = runtime->load(*exe);
  if (!loaded)
    return fail(hcq::toString(loaded.takeError()));
  DeviceId cpu{hcq::DeviceKind::CPU, 0};
  hcq::Expected<Buffer> x = runtime->allocate(cpu, 256 * 4);
  hcq::Expected<Buffer> y = runtime->allocate(cpu, 256 * 4);
  hcq::Expected<Buffer> out = runtime->allocate(cpu, 4);
  if (!x || !y || !out)
    return fail("cannot allocate");
  std::vector<float> expectY(256, 0);
  for (int i = 0; i < 256; ++i)
    x->data<float>()[i] = float(i % 17);
  for (int run = 0; run < 100; ++run) {
    int a = run % 5 - 1, n = 1 + run % 256;
    if (hcq::Error e =
            (*loaded)->run({bufferArgument({&*x}), bufferArgument({&*y}),
                            bufferArgument({&*out}), Argument::variable(a),
                            Argument::variable(n)}))
      return fail(hcq::toString(std::move(e)));
    if (hcq::Error e = (*loaded)->synchronize())
      return fail(hcq::toString(std::move(e)));
    float expectSum = 0;
    for (int i = 0; i < 256; ++i) {
      expectY[i] += float(a) * float(i % 17);
      if (y->data<float>()[i] != expectY[i])
        return fail("run " + std::to_string(run) + ": y[" + std::to_string(i) +
                    "] is " + std::to_string(y->data<float>()[i]) +
                    ", expected " + std::to_string(expectY[i]));
      if (i < n)
        expectSum += expectY[i];
    }
    if (out->data<float>()[0] != expectSum)
      return fail("run " + std::to_string(run) + ": the sum is " +
                  std::to_string(out->data<float>()[0]) + ", expected " +
                  std::to_string(expectSum));
  }
  std::printf("embed-hcq: 100 runs of @axpy_sum correct; sum = %g\n",
              double(out->data<float>()[0]));

  // 5. A gpu program, its kernel compiled for the host.
  return runGpuProgram(context, *runtime);
}
