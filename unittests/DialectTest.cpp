//===- DialectTest.cpp - The hcq dialect through MLIR's interfaces --------===//
//
// What generic MLIR code sees of hcq ops: hcq.call is a call
// (CallOpInterface) whose callable is its submitter.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

TEST(Dialect, CallIsACallResolvingToItsSubmitter) {
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
hcq.executable @e(%x: i32) {
  hcq.call @first(%x : i32)
}
hcq.submitter @first(%y: i32) {
}
hcq.submitter @second(%z: i32) {
}
)mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  hcq::ExecutableOp exe = *module->getOps<hcq::ExecutableOp>().begin();
  hcq::CallOp call = *exe.getBody().front().getOps<hcq::CallOp>().begin();
  auto asCall = dyn_cast<CallOpInterface>(call.getOperation());
  ASSERT_TRUE(asCall);
  EXPECT_EQ(asCall.getArgOperands().size(), 1u);
  SymbolTableCollection symbols;
  Operation *callee = asCall.resolveCallableInTable(&symbols);
  ASSERT_TRUE(callee);
  EXPECT_EQ(cast<SymbolOpInterface>(callee).getName(), "first");
  EXPECT_TRUE(isa<CallableOpInterface>(callee));
  // Retargeting through the interface changes the op's callee.
  asCall.setCalleeFromCallable(FlatSymbolRefAttr::get(&ctx, "second"));
  EXPECT_EQ(call.getCallee(), "second");
}
