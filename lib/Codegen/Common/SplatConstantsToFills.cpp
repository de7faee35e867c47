//===- SplatConstantsToFills.cpp - ke-splat-constants-to-fills ------------===//
//
// A splat tensor constant bufferizes to a host global; on GPU targets the
// kernels cannot read it, so it is made a fill of a fresh tensor instead.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KESPLATCONSTANTSTOFILLS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct SplatConstantsToFillsPass
    : ke::impl::KeSplatConstantsToFillsBase<SplatConstantsToFillsPass> {
  void runOnOperation() override {
    SmallVector<arith::ConstantOp> splats;
    getOperation().walk([&](arith::ConstantOp constant) {
      auto type = dyn_cast<RankedTensorType>(constant.getType());
      auto value = dyn_cast<SplatElementsAttr>(constant.getValue());
      if (type && value && type.hasStaticShape() && type.getRank() > 0)
        splats.push_back(constant);
    });
    for (arith::ConstantOp constant : splats) {
      OpBuilder builder(constant);
      Location loc = constant.getLoc();
      auto type = cast<RankedTensorType>(constant.getType());
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      Value scalar = arith::ConstantOp::create(
          builder, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
      Value empty = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                            type.getElementType());
      Value filled =
          linalg::FillOp::create(builder, loc, scalar, empty).getResult(0);
      constant.replaceAllUsesWith(filled);
      constant.erase();
    }
  }
};
} // namespace
