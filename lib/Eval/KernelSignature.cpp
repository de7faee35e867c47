//===- KernelSignature.cpp - what a kernel takes and returns --------------===//

#include "ke/Eval/KernelSignature.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ke::eval;

static std::optional<ElementKind> getElementKind(Type type) {
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    switch (integer.getWidth()) {
    case 1:
      return ElementKind::I1;
    case 8:
      return ElementKind::I8;
    case 16:
      return ElementKind::I16;
    case 32:
      return ElementKind::I32;
    case 64:
      return ElementKind::I64;
    }
  }
  return std::nullopt;
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// `what` names the value in messages, e.g. "argument #1".
static llvm::Expected<TensorSpec> getSpec(Type type, const std::string &what) {
  TensorSpec spec;
  Type elementType = type;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape())
      return llvm::createStringError(
          llvm::formatv("{0} has dynamic shape {1}; ke needs static shapes",
                        what, typeToString(type)));
    spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    elementType = tensor.getElementType();
  } else if (isa<ShapedType>(type)) {
    return llvm::createStringError(llvm::formatv(
        "{0} has type {1}; ke kernels take ranked tensors and scalars", what,
        typeToString(type)));
  } else {
    spec.isScalar = true;
  }
  std::optional<ElementKind> kind = getElementKind(elementType);
  if (!kind)
    return llvm::createStringError(llvm::formatv(
        "{0} has unsupported element type {1} (supported: f16, bf16, f32, "
        "f64, i1, i8, i16, i32, i64)",
        what, typeToString(elementType)));
  spec.kind = *kind;
  return spec;
}

llvm::Expected<KernelSignature>
ke::eval::getKernelSignature(func::FuncOp function) {
  KernelSignature signature;
  FunctionType type = function.getFunctionType();
  for (auto [index, argType] : llvm::enumerate(type.getInputs())) {
    llvm::Expected<TensorSpec> spec =
        getSpec(argType, llvm::formatv("argument #{0}", index).str());
    if (!spec)
      return spec.takeError();
    if (auto range = function.getArgAttrOfType<ArrayAttr>(index, "ke.range")) {
      if (range.size() == 2 && isa<IntegerAttr>(range[0]) &&
          isa<IntegerAttr>(range[1]))
        spec->range = {cast<IntegerAttr>(range[0]).getInt(),
                       cast<IntegerAttr>(range[1]).getInt()};
    }
    signature.arguments.push_back(*spec);
  }
  if (type.getNumResults() == 0)
    return llvm::createStringError(
        "the kernel returns nothing; ke compares a kernel by its results");
  for (auto [index, resultType] : llvm::enumerate(type.getResults())) {
    llvm::Expected<TensorSpec> spec =
        getSpec(resultType, llvm::formatv("result #{0}", index).str());
    if (!spec)
      return spec.takeError();
    signature.results.push_back(*spec);
  }
  if (auto atol = function->getAttrOfType<FloatAttr>("ke.atol"))
    signature.atol = atol.getValueAsDouble();
  if (auto rtol = function->getAttrOfType<FloatAttr>("ke.rtol"))
    signature.rtol = rtol.getValueAsDouble();
  if (auto precision = function->getAttrOfType<StringAttr>("ke.precision"))
    signature.allowsTF32 = precision.getValue() == "tf32";
  return signature;
}

Tolerance KernelSignature::getTolerance(ElementKind resultKind) const {
  Tolerance tolerance = allowsTF32 && resultKind == ElementKind::F32
                            ? getTF32Tolerance()
                            : getDefaultTolerance(resultKind);
  // f32 results of 16-bit inputs: tensor cores multiply those exactly but
  // their f32 accumulators are not IEEE sums (a bf16 4096^3 product on an
  // H200 was off by up to 7e-4, wgmma and mma.sync alike), so such results
  // are held to the narrowest input's tolerance.
  if (resultKind == ElementKind::F32)
    for (const TensorSpec &argument : arguments)
      if (argument.kind == ElementKind::F16 ||
          argument.kind == ElementKind::BF16) {
        Tolerance narrow = getDefaultTolerance(argument.kind);
        tolerance.atol = std::max(tolerance.atol, narrow.atol);
        tolerance.rtol = std::max(tolerance.rtol, narrow.rtol);
      }
  if (atol)
    tolerance.atol = *atol;
  if (rtol)
    tolerance.rtol = *rtol;
  return tolerance;
}
