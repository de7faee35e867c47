//===- SelectBest.cpp - ke-select-best ------------------------------------===//
//
// Puts the fastest correct candidate of each ke.kernel back as a plain
// function so that ordinary lowering continues from there.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KESELECTBEST
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct SelectBestPass : ke::impl::KeSelectBestBase<SelectBestPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ke::KernelOp> kernels(module.getOps<ke::KernelOp>());
    for (ke::KernelOp kernel : kernels) {
      func::FuncOp reference = kernel.getReference();
      ke::CandidateOp best = kernel.getBestCandidate();
      func::FuncOp chosen = reference;
      if (best) {
        chosen = best.getPayload();
        // The payload takes over the reference's identity: name, argument
        // attributes (ke.range) and function attributes (tolerances, tag).
        chosen.setSymName(reference.getSymName());
        chosen.setAllArgAttrs(reference.getAllArgAttrs());
        for (NamedAttribute attr : reference->getDiscardableAttrs())
          if (!chosen->hasAttr(attr.getName()))
            chosen->setAttr(attr.getName(), attr.getValue());
        chosen->setAttr(ke::KeDialect::kSelectedAttrName,
                        StringAttr::get(&getContext(), best.getSymName()));
        if (!best.getStrategy().empty())
          chosen->setAttr(ke::KeDialect::kStrategyAttrName,
                          best.getStrategyAttr());
      } else if (!kernel.getCandidates().empty()) {
        kernel.emitRemark() << "no correct, timed candidate; keeping the "
                               "reference of '@"
                            << kernel.getSymName() << "'";
      }
      chosen->setAttr(ke::KeDialect::kKernelAttrName,
                      UnitAttr::get(&getContext()));
      chosen->moveBefore(kernel);
      kernel.erase();
    }
  }
};
} // namespace
