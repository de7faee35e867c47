//===- WorkEstimate.cpp - FLOPs and bytes of a kernel ---------------------===//

#include "ke/Eval/WorkEstimate.h"

#include "ke/Eval/KernelSignature.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace ke::eval;

/// An op that does arithmetic (as opposed to moving or reinterpreting data).
static bool isArithmetic(Operation *op) {
  if (isa<arith::ConstantOp, arith::IndexCastOp, arith::IndexCastUIOp,
          arith::BitcastOp, arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncFOp, arith::TruncIOp, arith::SIToFPOp, arith::UIToFPOp,
          arith::FPToSIOp, arith::FPToUIOp>(op))
    return false;
  if (op->getNumResults() == 1 && op->getResult(0).getType().isIndex())
    return false; // address arithmetic
  return isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

static double countBodyOps(Region &region) {
  double count = 0.0;
  region.walk([&](Operation *op) {
    if (isArithmetic(op))
      count += 1.0;
  });
  return count;
}

WorkEstimate ke::eval::estimateWork(func::FuncOp function) {
  WorkEstimate work;
  // A scheduled function says what its reference's work was (ke.work).
  if (auto given =
          function->getAttrOfType<DictionaryAttr>(ke::KeDialect::kWorkAttrName)) {
    if (auto flops = given.getAs<IntegerAttr>("flops"))
      work.flops = static_cast<double>(flops.getInt());
    if (auto bytes = given.getAs<IntegerAttr>("bytes"))
      work.bytes = static_cast<double>(bytes.getInt());
    return work;
  }
  function.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      double iterations = 1.0;
      for (int64_t bound : linalgOp.getStaticLoopRanges())
        if (!ShapedType::isDynamic(bound))
          iterations *= static_cast<double>(bound);
      work.flops += iterations * countBodyOps(op->getRegion(0));
      return WalkResult::skip();
    }
    // Elementwise arith/math directly on tensors.
    if (isArithmetic(op) && op->getNumResults() == 1)
      if (auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType()))
        if (tensor.hasStaticShape())
          work.flops += static_cast<double>(tensor.getNumElements());
    return WalkResult::advance();
  });

  FunctionType type = function.getFunctionType();
  auto addBytes = [&](Type valueType) {
    if (auto tensor = dyn_cast<RankedTensorType>(valueType)) {
      if (tensor.hasStaticShape())
        work.bytes += static_cast<double>(tensor.getNumElements()) *
                      ((tensor.getElementTypeBitWidth() + 7) / 8);
    } else if (valueType.isIntOrFloat()) {
      work.bytes += (valueType.getIntOrFloatBitWidth() + 7) / 8;
    }
  };
  for (Type input : type.getInputs())
    addBytes(input);
  for (Type result : type.getResults())
    addBytes(result);
  return work;
}
