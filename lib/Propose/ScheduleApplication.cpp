//===- ScheduleApplication.cpp - schedules applied to a function ----------===//
//
// The payload side of a schedule: a function prepared for scheduling (every
// op a linalg op), its ops described as OpShapes, and a schedule applied to
// it in place through the transform interpreter, ops whose entry does not
// apply falling back to ke's default schedule.
//
//===----------------------------------------------------------------------===//

#include "ScheduleDetail.h"
#include "ke/Propose/Rewrite.h"
#include "ke/Propose/Schedule.h"
#include "ke/KeDialect.h"

#include "ke/Support/DiagnosticCollector.h"

#include "ke/Codegen/FrontEndCleanup.h"
#include "ke/Codegen/TileAndVectorize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ke::propose;
using ke::propose::detail::kOpIdAttr;

llvm::Error ke::propose::canonicalizeForScheduling(func::FuncOp function,
                                                   PayloadTarget target,
                                                   std::string *skipped) {
  MLIRContext *context = function.getContext();
  // One step at a time: a step that fails on this kernel is undone and
  // skipped (and reported), so the kernel can still be searched without it.
  // Scans first: the steps after it would fold their shifted copies.
  std::string scans = llvm::formatv("ke-vectorize-prefix-scans{{vector-width={0}}",
                                    ke::kDefaultVectorWidth);
  // Transposed convolutions split per output phase before layouts change
  // (the match is on channels-first named convolutions).
  llvm::SmallVector<llvm::StringRef> steps;
  if (target == PayloadTarget::CPU)
    steps.append({llvm::StringRef(scans),
                  "ke-decompose-transposed-convolutions",
                  "ke-convolutions-to-channels-last",
                  "ke-separate-pooling-windows"});
  else
    steps.push_back("ke-decompose-transposed-convolutions");
  steps.append({"ke-decompose-aggregates", "convert-elementwise-to-linalg",
                ke::kFrontEndCleanupPipeline,
                "ke-extract-index-operands", "canonicalize"});
  std::string notes;
  for (llvm::StringRef step : steps) {
    ke::DiagnosticCollector diagnostics(context);
    PassManager pm(context, func::FuncOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(parsePassPipeline(step, pm, errorStream)))
      return llvm::createStringError("cannot build the pipeline: " + errors);
    auto backup = cast<func::FuncOp>(function->clone());
    if (failed(pm.run(function)) || failed(verify(function))) {
      function.getBody().dropAllReferences();
      function.getBody().getBlocks().clear();
      function.getBody().takeBody(backup.getBody());
      if (!skipped) {
        backup.erase();
        return llvm::createStringError("cannot prepare the payload: " + step +
                                       ": " + diagnostics.str());
      }
      notes += (step + " skipped: " +
                llvm::StringRef(diagnostics.str()).trim().split('\n').first +
                "; ")
                   .str();
    }
    backup.erase();
  }
  if (skipped)
    *skipped = llvm::StringRef(notes).rtrim("; ").str();
  return llvm::Error::success();
}

std::vector<OpShape> ke::propose::describeOps(func::FuncOp function) {
  std::vector<OpShape> shapes;
  function.walk([&](linalg::LinalgOp op) {
    OpShape shape;
    shape.name = op->getName().getStringRef().str();
    shape.bounds = op.getStaticLoopRanges();
    for (utils::IteratorType iterator : op.getIteratorTypesArray())
      shape.isReduction.push_back(iterator == utils::IteratorType::reduction);
    // Rank loops by the operand bytes they index contiguously.
    llvm::SmallVector<int64_t> contiguous(shape.bounds.size(), 0);
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<ShapedType>(operand.get().getType());
      if (!type || !type.hasStaticShape())
        continue;
      if (type.getElementType().isInteger(1))
        shape.hasBooleans = true;
      if (type.getRank() == 0)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
        contiguous[dim.getPosition()] += type.getNumElements();
    }
    Type elementType = op->getNumResults()
                           ? getElementTypeOrSelf(op->getResult(0).getType())
                           : Type();
    shape.numResults = op->getNumResults();
    shape.nonMonotoneIndexing = ke::hasNonMonotoneIndexing(op);
    auto loopsOf = [&](OpOperand *operand) {
      llvm::SmallVector<int64_t> loops;
      for (AffineExpr result :
           op.getMatchingIndexingMap(operand).getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(result);
        loops.push_back(dim ? static_cast<int64_t>(dim.getPosition()) : -1);
      }
      return loops;
    };
    for (OpOperand *input : op.getDpsInputOperands())
      shape.inputLoops.push_back(loopsOf(input));
    for (OpOperand &init : op.getDpsInitsMutable())
      shape.outputLoops.push_back(loopsOf(&init));
    shape.uniformTypes =
        op->getNumResults() == 1 &&
        cast<ShapedType>(op->getResult(0).getType()).getRank() > 0 &&
        llvm::all_of(op->getOperands(), [&](Value operand) {
          return getElementTypeOrSelf(operand.getType()) == elementType;
        });
    auto function = op->getParentOfType<func::FuncOp>();
    auto precision =
        function ? function->getAttrOfType<StringAttr>(
                       KeDialect::kPrecisionAttrName)
                 : StringAttr();
    bool allowTF32 = precision && precision.getValue() == "tf32";
    shape.tensorCoreInputs =
        op.getNumDpsInputs() > 0 &&
        llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
          Type type = getElementTypeOrSelf(input->get().getType());
          return type.isF16() || type.isBF16() || (type.isF32() && allowTF32);
        });
    op->walk([&](Operation *nested) {
      if (nested->getDialect() &&
          nested->getDialect()->getNamespace() == "math")
        shape.hasMath = true;
    });
    for (unsigned loop = 0; loop < shape.bounds.size(); ++loop)
      shape.contiguousLoops.push_back(loop);
    llvm::stable_sort(shape.contiguousLoops, [&](unsigned a, unsigned b) {
      return contiguous[a] > contiguous[b];
    });
    shapes.push_back(shape);
  });
  return shapes;
}

namespace {
/// An entry the script leaves untouched (its layouts are already applied).
OpSchedule neutralEntry(const OpSchedule &entry) {
  OpSchedule neutral;
  neutral.cacheTiles.assign(entry.cacheTiles.size(), 0);
  neutral.registerTiles.assign(entry.registerTiles.size(), 0);
  neutral.layouts = entry.layouts;
  return neutral;
}

/// Runs the script of `schedule` on a copy of `function`, to learn whether it
/// applies without touching the function.
llvm::Error tryOnCopy(func::FuncOp function, const Schedule &schedule,
                      llvm::ArrayRef<OpShape> shapes) {
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(function.getLoc());
  auto copy = cast<func::FuncOp>(function->clone());
  scratch->push_back(copy);
  return applyTransformScript(copy, schedule.renderTransformScript(shapes));
}

/// The gist of a transform error: its first line, without the location.
std::string firstLine(llvm::StringRef text) {
  llvm::StringRef line = text.trim().split('\n').first;
  line.consume_front("the transform script does not apply: ");
  if (line.starts_with("loc(")) {
    if (size_t at = line.find("): "); at != llvm::StringRef::npos)
      line = line.drop_front(at + 3);
  }
  return line.size() > 120 ? (line.take_front(117) + "...").str() : line.str();
}
} // namespace

llvm::Error ke::propose::applySchedule(func::FuncOp function,
                                       const Schedule &schedule,
                                       std::string *fallbacks) {
  MLIRContext *context = function.getContext();
  // The script is rendered for the ops as described before the relayout:
  // it keeps their loops, only their operands' maps change.
  std::vector<OpShape> shapes = describeOps(function);
  int64_t index = 0;
  function.walk([&](linalg::LinalgOp op) {
    op->setAttr(kOpIdAttr,
                IntegerAttr::get(IntegerType::get(context, 64), index++));
  });
  relayoutInputs(function, schedule);
  auto untag = [&] {
    function.walk([&](Operation *op) { op->removeAttr(kOpIdAttr); });
  };

  // A schedule that fails on some ops still applies to the others: those
  // fall back to the default schedule, and the caller is told which.
  Schedule applied = schedule;
  llvm::SmallVector<int64_t> fallen;
  std::string notes;
  if (llvm::Error whole = tryOnCopy(function, applied, shapes)) {
    std::string wholeMessage = llvm::toString(std::move(whole));
    if (applied.fuseRows) {
      applied.fuseRows = 0;
      notes += "fuse dropped; ";
    }
    for (size_t op = 0; op < applied.ops.size(); ++op) {
      Schedule alone = applied;
      for (size_t other = 0; other < alone.ops.size(); ++other)
        if (other != op)
          alone.ops[other] = neutralEntry(alone.ops[other]);
      if (llvm::Error error = tryOnCopy(function, alone, shapes)) {
        std::string name = op < shapes.size() ? shapes[op].name : "?";
        std::string message = llvm::toString(std::move(error));
        notes += llvm::formatv("op #{0} ({1}) on the default schedule: {2}; ",
                               op, name, firstLine(message));
        applied.ops[op] = neutralEntry(applied.ops[op]);
        fallen.push_back(op);
      }
    }
    if (notes.empty() || tryOnCopy(function, applied, shapes)) {
      untag();
      return llvm::createStringError(wholeMessage);
    }
  }
  // Channels-last 3-D convolutions and depthwise ones of either layout are
  // outside the library's space but the default schedule vectorizes them:
  // with an empty entry they get it rather than plain loops. (For other ops
  // outside the space, LLVM's vectorized plain loops can beat the default's
  // scalar tiles, so they keep them.)
  for (auto [index, shape] : llvm::enumerate(shapes))
    if (index < applied.ops.size() &&
        (shape.name == "linalg.conv_3d_ndhwc_dhwcf" ||
         shape.name == "linalg.depthwise_conv_2d_nhwc_hwc" ||
         shape.name == "linalg.depthwise_conv_2d_nchw_chw") &&
        !canVectorize(shape) &&
        applied.ops[index] == OpSchedule() &&
        !llvm::is_contained(fallen, static_cast<int64_t>(index)))
      fallen.push_back(static_cast<int64_t>(index));
  llvm::Error error = runTransformScript(function, applied, shapes);
  if (!error && !fallen.empty()) {
    SmallVector<linalg::LinalgOp> ops;
    function.walk([&](linalg::LinalgOp op) {
      auto id = op->getAttrOfType<IntegerAttr>(kOpIdAttr);
      if (id && llvm::is_contained(fallen, id.getInt()))
        ops.push_back(op);
    });
    IRRewriter rewriter(context);
    for (linalg::LinalgOp op : ops)
      ke::tileAndVectorizeOp(rewriter, op, ke::kDefaultVectorWidth,
                             ke::getHostVectorRegisterFile());
  }
  // Untag on every path, before verifying: the result must stand alone.
  untag();
  if (error)
    return error;
  ke::DiagnosticCollector diagnostics(context);
  if (failed(verify(function)))
    return llvm::createStringError("the scheduled payload does not verify: " +
                                   diagnostics.str());
  if (fallbacks && !notes.empty())
    *fallbacks = llvm::StringRef(notes).rtrim("; ").str();
  return llvm::Error::success();
}

llvm::Error ke::propose::runTransformScript(func::FuncOp function,
                                            const Schedule &schedule,
                                            llvm::ArrayRef<OpShape> shapes) {
  std::string script = schedule.renderTransformScript(shapes);
  if (llvm::Error error = applyTransformScript(function, script))
    return llvm::createStringError("schedule '" + schedule.toString() +
                                   "': " + llvm::toString(std::move(error)));
  return llvm::Error::success();
}
