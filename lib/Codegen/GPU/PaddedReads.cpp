//===- PaddedReads.cpp - reading a tensor.pad's value without the pad ----===//

#include "ke/Codegen/PaddedReads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

bool ke::isStaticConstantPad(tensor::PadOp pad) {
  return pad.getConstantPaddingValue() &&
         pad.getSourceType().hasStaticShape() &&
         pad.getResultType().hasStaticShape() &&
         llvm::none_of(pad.getStaticLow(), ShapedType::isDynamic);
}

Value ke::readPaddedElement(OpBuilder &builder, Location loc,
                            tensor::PadOp pad, ValueRange unclamped) {
  ArrayRef<int64_t> sourceShape = pad.getSourceType().getShape();
  ArrayRef<int64_t> low = pad.getStaticLow();
  Value inside;
  SmallVector<Value> sourceIndices;
  for (size_t d = 0; d < unclamped.size(); ++d) {
    Value index = unclamped[d];
    int64_t size = sourceShape[d];
    bool below = low[d] != 0;
    bool above = pad.getResultType().getDimSize(d) - low[d] != size;
    // Clamped on each padded side, so that the read stays in bounds either
    // way (a padded index never leaves the padded tensor).
    if (below) {
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value here = arith::CmpIOp::create(builder, loc,
                                         arith::CmpIPredicate::sge, index, zero);
      inside = inside ? arith::AndIOp::create(builder, loc, inside, here)
                            .getResult()
                      : here;
      index = arith::MaxSIOp::create(builder, loc, index, zero);
    }
    if (above) {
      Value last = arith::ConstantIndexOp::create(builder, loc, size - 1);
      Value here = arith::CmpIOp::create(builder, loc,
                                         arith::CmpIPredicate::sle,
                                         unclamped[d], last);
      inside = inside ? arith::AndIOp::create(builder, loc, inside, here)
                            .getResult()
                      : here;
      index = arith::MinSIOp::create(builder, loc, index, last);
    }
    sourceIndices.push_back(index);
  }
  Value padding = pad.getConstantPaddingValue();
  // A padding constant of the pad's own body goes with the read.
  if (padding.getParentRegion() == &pad.getRegion())
    padding = builder.clone(*padding.getDefiningOp())->getResult(0);
  Value element =
      tensor::ExtractOp::create(builder, loc, pad.getSource(), sourceIndices);
  if (inside)
    element = arith::SelectOp::create(builder, loc, inside, element, padding);
  return element;
}
