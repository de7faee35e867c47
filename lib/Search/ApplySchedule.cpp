//===- ApplySchedule.cpp - ke-apply-schedule ------------------------------===//
//
// Applies one schedule of the transform library to a function: the step the
// search takes for every library candidate, on its own for tests and replay.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Propose/Schedule.h"
#include "ke/Search/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/raw_ostream.h"

namespace ke {
#define GEN_PASS_DEF_KEAPPLYSCHEDULE
#include "ke/Search/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct ApplySchedulePass : ke::impl::KeApplyScheduleBase<ApplySchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    llvm::Expected<ke::propose::Schedule> parsed =
        ke::propose::Schedule::parse(schedule);
    if (!parsed) {
      function.emitError() << "ke-apply-schedule: "
                           << llvm::toString(parsed.takeError());
      return signalPassFailure();
    }
    auto fail = [&](llvm::Error error) {
      function.emitError() << "ke-apply-schedule: "
                           << llvm::toString(std::move(error));
      signalPassFailure();
    };
    if (llvm::Error error = ke::propose::canonicalizeForScheduling(
            function, ke::propose::PayloadTarget::CPU))
      return fail(std::move(error));
    if (llvm::Error error = ke::propose::verifySchedule(
            *parsed, ke::propose::describeOps(function)))
      return fail(std::move(error));
    if (printScript)
      llvm::errs() << parsed->renderTransformScript(
          ke::propose::describeOps(function));
    std::string fallbacks;
    if (llvm::Error error =
            ke::propose::applySchedule(function, *parsed, &fallbacks))
      return fail(std::move(error));
    if (!fallbacks.empty())
      function.emitWarning() << "ke-apply-schedule: " << fallbacks;
  }
};
} // namespace
