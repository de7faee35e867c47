//===- KeDialect.cpp - the ke dialect and its attributes ------------------===//
//
// Registers the ops and checks the discardable `ke.*` attributes users put on
// plain functions, so a typo or a malformed range is caught at parse time
// rather than producing wrong inputs at evaluation time.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace ke;

#include "ke/KeDialect.cpp.inc"

void KeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ke/KeOps.cpp.inc"
      >();
}

static LogicalResult verifyTolerance(Operation *op, NamedAttribute attr) {
  auto value = dyn_cast<FloatAttr>(attr.getValue());
  if (!value || value.getValueAsDouble() < 0.0)
    return op->emitOpError()
           << "expects '" << attr.getName().getValue()
           << "' to be a non-negative float, found " << attr.getValue();
  return success();
}

LogicalResult KeDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool onFunction = isa<FunctionOpInterface>(op);
  if (name == kKernelAttrName) {
    if (!isa<UnitAttr>(attr.getValue()) || !onFunction)
      return op->emitOpError()
             << "expects '" << name << "' to be a unit attribute on a function";
    return success();
  }
  if (name == kAtolAttrName || name == kRtolAttrName)
    return verifyTolerance(op, attr);
  if (name == kOpIdAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitOpError()
             << "expects '" << name << "' to be an integer attribute";
    return success();
  }
  if (name == kWorkAttrName) {
    auto work = dyn_cast<DictionaryAttr>(attr.getValue());
    auto count = [&](StringRef key) {
      auto value = work ? work.getAs<IntegerAttr>(key) : IntegerAttr();
      return value && value.getValue().getSExtValue() >= 0;
    };
    if (!onFunction || !count("flops") || !count("bytes"))
      return op->emitOpError()
             << "expects '" << name
             << "' to be {flops = F, bytes = B} with non-negative integers "
                "on a function";
    return success();
  }
  if (name == kSelectedAttrName || name == kStrategyAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitOpError()
             << "expects '" << name << "' to be a string attribute";
    return success();
  }
  // The integer GPU knobs: which values each takes, and how to say so.
  auto verifyIntegerKnob = [&](auto isValid,
                               StringRef expected) -> LogicalResult {
    auto knob = dyn_cast<IntegerAttr>(attr.getValue());
    if (!onFunction || !knob || !isValid(knob.getInt()))
      return op->emitOpError() << "expects '" << name << "' to be " << expected
                               << " on a function";
    return success();
  };
  if (name == kGPUReductionThreadsAttrName)
    return verifyIntegerKnob(
        [](int64_t v) {
          return v == 0 || (v >= 32 && v <= 1024 && llvm::isPowerOf2_64(v));
        },
        "0 or a power of two from 32 to 1024");
  if (name == kGPUVectorWidthAttrName)
    return verifyIntegerKnob(
        [](int64_t v) { return v == 1 || v == 2 || v == 4; }, "1, 2 or 4");
  if (name == kGPUWarpsAttrName)
    return verifyIntegerKnob(
        [](int64_t v) {
          return llvm::is_contained({2, 4, 8, 16}, v);
        },
        "2, 4, 8 or 16");
  if (name == kGPUKSplitsAttrName)
    return verifyIntegerKnob(
        [](int64_t v) {
          return v >= 1 && v <= 64 && llvm::isPowerOf2_64(v);
        },
        "a power of two from 1 to 64");
  if (name == kGPUSharedTileAttrName)
    return verifyIntegerKnob(
        [](int64_t v) {
          return v == 0 || (v >= 16 && v <= 128 && v % 16 == 0);
        },
        "0 or a multiple of 16 from 16 to 128");
  if (name == kGPUTensorCoreTileAttrName)
    return verifyIntegerKnob(
        [](int64_t v) { return llvm::is_contained({0, 32, 64, 128}, v); },
        "0, 32, 64 or 128");
  if (name == kGPUWarpgroupTileAttrName)
    return verifyIntegerKnob(
        [](int64_t v) { return llvm::is_contained({0, 128, 256}, v); },
        "0, 128 or 256");
  if (name == kPrecisionAttrName) {
    auto precision = dyn_cast<StringAttr>(attr.getValue());
    if (!onFunction || !precision ||
        !llvm::is_contained({"ieee", "tf32"}, precision.getValue()))
      return op->emitOpError() << "expects '" << name
                               << "' to be \"ieee\" or \"tf32\" on a function";
    return success();
  }
  if (name == kGPUBlockTileAttrName || name == kGPUThreadTileAttrName) {
    auto tile = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!tile || tile.empty() || !onFunction ||
        llvm::any_of(tile.asArrayRef(), [](int64_t v) { return v <= 0; }))
      return op->emitOpError() << "expects '" << name
                               << "' to be a non-empty array<i64> of positive "
                                  "sizes on a function";
    return success();
  }
  return op->emitOpError() << "has unknown ke attribute '" << name
                           << "'; known: ke.kernel, ke.atol, ke.rtol, "
                              "ke.selected, ke.strategy, ke.work, ke.op_id, "
                              "ke.gpu_block_tile, ke.gpu_thread_tile, "
                              "ke.gpu_reduction_threads, ke.gpu_shared_tile, "
                              "ke.gpu_vector_width, ke.gpu_warps, "
                              "ke.gpu_tensor_core_tile, ke.gpu_warpgroup_tile, "
                              "ke.gpu_k_splits, "
                              "ke.precision";
}

LogicalResult KeDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kRangeAttrName)
    return op->emitOpError()
           << "has unknown ke argument attribute '" << name << "' on argument #"
           << argIndex << "; known: ke.range";
  auto range = dyn_cast<ArrayAttr>(attr.getValue());
  auto bound = [&](unsigned i) -> std::optional<int64_t> {
    if (auto value = dyn_cast<IntegerAttr>(range[i]))
      return value.getValue().getSExtValue();
    return std::nullopt;
  };
  if (!range || range.size() != 2 || !bound(0) || !bound(1))
    return op->emitOpError()
           << "expects 'ke.range' on argument #" << argIndex
           << " to be [lo, hi] with two integers, found " << attr.getValue();
  if (*bound(0) >= *bound(1))
    return op->emitOpError()
           << "expects 'ke.range' on argument #" << argIndex
           << " to be a non-empty half-open range lo < hi, found [" << *bound(0)
           << ", " << *bound(1) << "]";
  Region &region = op->getRegion(regionIndex);
  if (region.empty())
    return success();
  Type type = region.front().getArgument(argIndex).getType();
  if (!isa<IntegerType, IndexType>(getElementTypeOrSelf(type)))
    return op->emitOpError() << "expects 'ke.range' only on integer arguments, "
                                "but argument #"
                             << argIndex << " has type " << type;
  return success();
}
