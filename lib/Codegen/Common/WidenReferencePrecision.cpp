//===- WidenReferencePrecision.cpp - ke-widen-reference-precision ---------===//
//
// Computes a kernel's f32 arithmetic in f64, its signature unchanged. Types
// are rewritten in place (every op on tensors and scalars is generic over
// its float type); the few ops whose meaning is a conversion are fixed up.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/WidenReferencePrecision.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"

namespace ke {
#define GEN_PASS_DEF_KEWIDENREFERENCEPRECISION
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

/// `type` with f32 elements made f64; any other type unchanged.
static Type widenType(Type type) {
  Builder builder(type.getContext());
  if (type.isF32())
    return builder.getF64Type();
  if (auto shaped = dyn_cast<ShapedType>(type))
    if (shaped.getElementType().isF32())
      return shaped.clone(builder.getF64Type());
  return type;
}

static APInt widenFloat(const APFloat &value) {
  APFloat wide = value;
  bool losesInfo = false;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
               &losesInfo);
  return wide.bitcastToAPInt();
}

/// The constant's value in f64; failure for values held elsewhere
/// (dense_resource blobs), which the reference then keeps in f32.
static LogicalResult widenConstant(arith::ConstantOp constant) {
  Type wideType = widenType(constant.getType());
  if (wideType == constant.getType())
    return success();
  Attribute value = constant.getValue();
  if (auto scalar = dyn_cast<FloatAttr>(value)) {
    constant.setValueAttr(FloatAttr::get(wideType, scalar.getValueAsDouble()));
  } else if (auto dense = dyn_cast<DenseFPElementsAttr>(value)) {
    constant.setValueAttr(
        dense.mapValues(Float64Type::get(constant.getContext()), widenFloat));
  } else {
    return constant.emitOpError("holds an f32 value that cannot be widened");
  }
  constant.getResult().setType(wideType);
  return success();
}

LogicalResult ke::widenF32ToF64(func::FuncOp function) {
  if (function.isExternal())
    return function.emitOpError("has no body to widen");
  Block &entry = function.getBody().front();
  LogicalResult result = success();
  function.getBody().walk([&](Operation *op) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (failed(widenConstant(constant)))
        result = failure();
      return;
    }
    for (OpResult value : op->getResults())
      value.setType(widenType(value.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(widenType(argument.getType()));
  });
  if (failed(result))
    return failure();

  // Arguments keep their types and are extended once, on entry.
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument argument : entry.getArguments()) {
    Type wide = widenType(argument.getType());
    if (wide == argument.getType())
      continue;
    auto extended =
        arith::ExtFOp::create(builder, argument.getLoc(), wide, argument);
    argument.replaceAllUsesExcept(extended, extended);
  }
  // Conversions between f32 and f64 in the body now convert f64 to itself.
  SmallVector<Operation *> identities;
  function.getBody().walk([&](Operation *op) {
    if ((isa<arith::ExtFOp, arith::TruncFOp>(op)) &&
        op->getOperand(0).getType() == op->getResult(0).getType())
      identities.push_back(op);
  });
  for (Operation *op : identities) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }
  // Results keep their types: truncated once, on return.
  function.walk([&](func::ReturnOp ret) {
    OpBuilder before(ret);
    for (auto [operand, type] : llvm::zip_equal(
             ret->getOpOperands(), function.getFunctionType().getResults())) {
      if (operand.get().getType() == type)
        continue;
      operand.set(arith::TruncFOp::create(before, ret.getLoc(), type,
                                          operand.get()));
    }
  });
  return verify(function);
}

int64_t ke::getLongestFloatReduction(func::FuncOp function) {
  int64_t longest = 0;
  function.walk([&](linalg::LinalgOp op) {
    if (!llvm::any_of(op.getDpsInits(), [](Value init) {
          return isa<FloatType>(getElementTypeOrSelf(init.getType()));
        }))
      return;
    int64_t terms = 1;
    bool reduces = false;
    for (auto [range, iterator] : llvm::zip_equal(
             op.getStaticLoopRanges(), op.getIteratorTypesArray())) {
      if (iterator != utils::IteratorType::reduction)
        continue;
      reduces = true;
      if (!ShapedType::isDynamic(range))
        terms *= range;
    }
    if (reduces)
      longest = std::max(longest, terms);
  });
  return longest;
}

namespace {
struct WidenReferencePrecisionPass
    : ke::impl::KeWidenReferencePrecisionBase<WidenReferencePrecisionPass> {
  void runOnOperation() override {
    if (failed(ke::widenF32ToF64(getOperation())))
      signalPassFailure();
  }
};
} // namespace
