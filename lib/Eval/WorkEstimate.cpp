//===- WorkEstimate.cpp - FLOPs and bytes of a kernel ---------------------===//

#include "ke/Eval/WorkEstimate.h"

#include "ke/Eval/KernelSignature.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>

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

/// Whether `value` is a tensor of zeros: a fill with 0 or a zero splat
/// (MLIR's zero matchers see through splats).
static bool isZeroTensor(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs().front();
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The share of `value`'s elements that can be nonzero where it is a
/// source spread by strides into zeros (a transposed convolution's input as
/// front ends write it, seen through reshapes), else 1. A convolution over
/// it does that share of its multiply-adds on data; the rest add zeros, and
/// counting them would report a rate the kernel never reaches (KernelBench's
/// grouped ConvTranspose3d, strides 2: 8x).
static double getSpreadDensity(Value value) {
  while (true) {
    if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
      value = expand.getSrc();
    else if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
      value = collapse.getSrc();
    else
      break;
  }
  auto insert = value.getDefiningOp<tensor::InsertSliceOp>();
  if (!insert || !insert.getSourceType().hasStaticShape() ||
      !insert.getDestType().hasStaticShape() ||
      insert.getDestType().getNumElements() == 0)
    return 1.0;
  bool strided = llvm::any_of(insert.getStaticStrides(),
                              [](int64_t stride) { return stride != 1; });
  if (!strided || !isZeroTensor(insert.getDest()))
    return 1.0;
  return static_cast<double>(insert.getSourceType().getNumElements()) /
         static_cast<double>(insert.getDestType().getNumElements());
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
      double density = 1.0;
      if (linalg::isaConvolutionOpInterface(linalgOp))
        for (OpOperand *input : linalgOp.getDpsInputOperands())
          density = std::min(density, getSpreadDensity(input->get()));
      // Whole operations: JSON readers expect a count.
      work.flops +=
          std::round(iterations * density * countBodyOps(op->getRegion(0)));
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
