//===- embed-hcq.cpp - hcq inside another compiler ------------------------===//
//
// What an MLIR-based ML compiler does with an installed hcq: registers the
// dialect and passes in its own context, runs `hcq-pipeline{...}` from C++
// on the schedule it built, turns the executable into the runtime's form
// (here through the file format, as an ahead-of-time compiler would cache
// it), loads it onto a runtime and runs it, checking every result against
// the arithmetic done directly. Exit status 0 when every number is right.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

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

} // namespace

int main() {
  // 1. The compiler's context knows the hcq dialect and what its targets
  //    compile (#hcq.amd_target, #hcq.cpu_target); the passes and the
  //    pipeline are registered by name.
  mlir::DialectRegistry registry;
  registry.insert<hcq::HCQDialect>();
  hcq::registerTargetInterfaces(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  hcq::registerPasses();

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
  return 0;
}
