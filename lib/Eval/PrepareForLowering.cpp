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
        !KeDialect::isGPUScheduleAttr(attr.getName().getValue()) &&
        attr.getName() != KeDialect::kPrecisionAttrName)
      copy->removeAttr(attr.getName());
  for (unsigned i = 0, e = copy.getNumArguments(); i < e; ++i) {
    copy.removeArgAttr(i, KeDialect::kRangeAttrName);
    if (isa<TensorType>(copy.getArgument(i).getType()))
      copy.setArgAttr(i, "bufferization.writable",
                      BoolAttr::get(context, false));
  }
}

func::FuncOp ke::eval::cloneIntoNewModule(func::FuncOp function,
                                          OwningOpRef<ModuleOp> &module) {
  module = ModuleOp::create(function.getLoc());
  auto clone = cast<func::FuncOp>(function->clone());
  module->push_back(clone);
  Operation *scope = function->getParentOp()
                         ? SymbolTable::getNearestSymbolTable(
                               function->getParentOp())
                         : nullptr;
  if (!scope)
    return clone;
  SymbolTable copies(*module);
  SmallVector<Operation *> worklist = {clone};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr name = use.getSymbolRef().getRootReference();
      if (copies.lookup(name))
        continue;
      Operation *symbol = SymbolTable::lookupSymbolIn(scope, name);
      if (!symbol || symbol == function.getOperation())
        continue;
      Operation *copy = symbol->clone();
      copies.insert(copy);
      worklist.push_back(copy);
    }
  }
  return clone;
}
