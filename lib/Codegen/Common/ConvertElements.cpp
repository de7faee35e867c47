//===- ConvertElements.cpp - a float tensor in another precision ----------===//

#include "ke/Codegen/ConvertElements.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value ke::convertElements(RewriterBase &rewriter, Location loc, Value tensor,
                          Type element) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(), element);
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  bool extends = element.getIntOrFloatBitWidth() >
                 type.getElementType().getIntOrFloatBitWidth();
  auto conversion = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), ValueRange{tensor}, ValueRange{empty},
      ArrayRef<AffineMap>{identity, identity}, parallel,
      [&](OpBuilder &builder, Location at, ValueRange arguments) {
        Value converted =
            extends ? arith::ExtFOp::create(builder, at, element, arguments[0])
                          .getResult()
                    : arith::TruncFOp::create(builder, at, element,
                                              arguments[0])
                          .getResult();
        linalg::YieldOp::create(builder, at, converted);
      });
  return conversion.getResult(0);
}
