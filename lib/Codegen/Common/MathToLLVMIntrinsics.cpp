//===- MathToLLVMIntrinsics.cpp - ke-math-to-llvm-intrinsics --------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

namespace ke {
#define GEN_PASS_DEF_KEMATHTOLLVMINTRINSICS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// LLVM's overload suffix of a float or vector-of-float type ("f32",
/// "v4f32"), or empty for other types.
std::string getOverloadSuffix(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  Type element = vector ? vector.getElementType() : type;
  if (!isa<FloatType>(element) || (vector && vector.getRank() != 1) ||
      (vector && vector.isScalable()))
    return "";
  std::string suffix = "f" + std::to_string(element.getIntOrFloatBitWidth());
  if (!isa<Float16Type, Float32Type, Float64Type>(element))
    return "";
  return vector ? "v" + std::to_string(vector.getNumElements()) + suffix
                : suffix;
}

/// The intrinsic's base name for a math op, or empty.
StringRef getIntrinsicName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case<math::FloorOp>([](auto) { return "llvm.floor"; })
      .Case<math::CeilOp>([](auto) { return "llvm.ceil"; })
      .Case<math::TruncOp>([](auto) { return "llvm.trunc"; })
      .Case<math::RoundEvenOp>([](auto) { return "llvm.roundeven"; })
      .Case<math::RoundOp>([](auto) { return "llvm.round"; })
      .Case<math::SqrtOp>([](auto) { return "llvm.sqrt"; })
      .Case<math::AbsFOp>([](auto) { return "llvm.fabs"; })
      .Case<math::FmaOp>([](auto) { return "llvm.fma"; })
      .Case<math::CopySignOp>([](auto) { return "llvm.copysign"; })
      .Case<math::Exp2Op>([](auto) { return "llvm.exp2"; })
      .Case<math::ExpOp>([](auto) { return "llvm.exp"; })
      .Case<math::Log2Op>([](auto) { return "llvm.log2"; })
      .Case<math::LogOp>([](auto) { return "llvm.log"; })
      .Default([](Operation *) { return ""; });
}

struct MathToLLVMIntrinsicsPass
    : ke::impl::KeMathToLLVMIntrinsicsBase<MathToLLVMIntrinsicsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> mathOps;
    getOperation()->walk([&](Operation *op) {
      if (op->getDialect() && isa<math::MathDialect>(op->getDialect()))
        mathOps.push_back(op);
    });
    for (Operation *op : mathOps) {
      if (op->getNumResults() != 1)
        continue;
      Type type = op->getResult(0).getType();
      std::string suffix = getOverloadSuffix(type);
      if (suffix.empty())
        continue;
      OpBuilder builder(op);
      Location loc = op->getLoc();
      Value result;
      if (auto rsqrt = dyn_cast<math::RsqrtOp>(op)) {
        // 1 / sqrt(x): the division is exact enough and has no library.
        Value root = LLVM::CallIntrinsicOp::create(
                         builder, loc, type,
                         builder.getStringAttr("llvm.sqrt." + suffix),
                         rsqrt.getOperand())
                         .getResult(0);
        FloatAttr oneAttr =
            builder.getFloatAttr(getElementTypeOrSelf(type), 1.0);
        TypedAttr ones = oneAttr;
        if (auto vector = dyn_cast<VectorType>(type))
          ones = DenseElementsAttr::get(vector, Attribute(oneAttr));
        Value one = arith::ConstantOp::create(builder, loc, type, ones);
        result = arith::DivFOp::create(builder, loc, one, root);
      } else {
        StringRef name = getIntrinsicName(op);
        if (name.empty())
          continue;
        result = LLVM::CallIntrinsicOp::create(
                     builder, loc, type,
                     builder.getStringAttr(name.str() + "." + suffix),
                     op->getOperands())
                     .getResult(0);
      }
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};
} // namespace
