//===- GPUContractionEpilogue.cpp - elementwise ops fused into stores -----===//

#include "ke/Codegen/GPUContractionEpilogue.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

ke::GPUContractionEpilogue ke::findGPUContractionEpilogue(linalg::LinalgOp op) {
  Value output = op.getDpsInitOperand(0)->get();
  auto outputType = dyn_cast<MemRefType>(output.getType());
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(op->getNextNode());
  if (!outputType || !epilogue || !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumDpsInits() != 1 ||
      epilogue.getNumParallelLoops() != epilogue.getNumLoops() ||
      epilogue.getNumLoops() != static_cast<unsigned>(outputType.getRank()) ||
      !epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0))
           .isIdentity() ||
      epilogue.getDpsInitOperand(0)->get().getType() != outputType)
    return GPUContractionEpilogue{};
  // Other views of the output's memory would be read or written out of
  // order with the blocks' stores.
  Value outputRoot = detail::getRootBuffer(output);
  Value written = epilogue.getDpsInitOperand(0)->get();
  Value writtenRoot = detail::getRootBuffer(written);
  if (written != output && writtenRoot == outputRoot)
    return GPUContractionEpilogue{};
  bool readsOutput = false;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (input->get() != output) {
      if (detail::getRootBuffer(input->get()) == outputRoot)
        return GPUContractionEpilogue{};
      continue;
    }
    if (!epilogue.getMatchingIndexingMap(input).isIdentity())
      return GPUContractionEpilogue{};
    readsOutput = true;
  }
  if (!readsOutput)
    return GPUContractionEpilogue{};
  // Blocks still reading the contraction's inputs must not see the
  // epilogue's stores.
  for (OpOperand *input : op.getDpsInputOperands())
    if (detail::getRootBuffer(input->get()) == writtenRoot)
      return GPUContractionEpilogue{};
  for (Operation &nested : epilogue.getBody()->without_terminator())
    if (isa<linalg::IndexOp>(nested) || !isMemoryEffectFree(&nested) ||
        nested.getNumRegions() != 0)
      return GPUContractionEpilogue{};
  // In place, the epilogue's values replace the output's. Elsewhere the
  // output need not be stored where it is a temporary nothing else reads.
  bool storeOutput = written != output;
  if (storeOutput && output.getDefiningOp<memref::AllocOp>())
    storeOutput = llvm::any_of(output.getUsers(), [&](Operation *user) {
      bool before =
          user->getBlock() == op->getBlock() && user->isBeforeInBlock(op);
      return !before && user != op && user != epilogue &&
             !isa<memref::DeallocOp>(user);
    });
  return GPUContractionEpilogue{epilogue, storeOutput};
}

Value ke::GPUContractionEpilogue::written() const {
  // Op handles are not const-correct: a copy of the handle.
  linalg::GenericOp generic = op;
  return generic.getDpsInitOperand(0)->get();
}

Value ke::GPUContractionEpilogue::apply(OpBuilder &builder, Location loc,
                                        Value contractionOutput, Value result,
                                        ValueRange at) const {
  linalg::GenericOp generic = op;
  IRMapping mapping;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    BlockArgument argument = generic.getMatchingBlockArgument(input);
    if (input->get() == contractionOutput) {
      mapping.map(argument, result);
      continue;
    }
    mapping.map(argument, memref::LoadOp::create(
                              builder, loc, input->get(),
                              detail::applyMap(
                                  builder, loc,
                                  generic.getMatchingIndexingMap(input), at)));
  }
  OpOperand *writtenOperand = generic.getDpsInitOperand(0);
  BlockArgument writtenArgument =
      generic.getMatchingBlockArgument(writtenOperand);
  if (!writtenArgument.use_empty())
    mapping.map(
        writtenArgument,
        writtenOperand->get() == contractionOutput
            ? result
            : memref::LoadOp::create(builder, loc, writtenOperand->get(), at)
                  .getResult());
  for (Operation &nested : generic.getBody()->without_terminator())
    builder.clone(nested, mapping);
  return mapping.lookupOrDefault(
      generic.getBody()->getTerminator()->getOperand(0));
}
