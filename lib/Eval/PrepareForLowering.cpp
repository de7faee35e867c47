//===- PrepareForLowering.cpp - a kernel copy ready for a pipeline --------===//

#include "ke/Eval/PrepareForLowering.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

void ke::eval::prepareForLowering(func::FuncOp copy) {
  MLIRContext *context = copy.getContext();
  for (NamedAttribute attr : llvm::to_vector(copy->getDiscardableAttrs()))
    if (attr.getName().getValue().starts_with("ke.") &&
        !KeDialect::isGPUScheduleAttr(attr.getName().getValue()))
      copy->removeAttr(attr.getName());
  for (unsigned i = 0, e = copy.getNumArguments(); i < e; ++i) {
    copy.removeArgAttr(i, KeDialect::kRangeAttrName);
    if (isa<TensorType>(copy.getArgument(i).getType()))
      copy.setArgAttr(i, "bufferization.writable",
                      BoolAttr::get(context, false));
  }
}
