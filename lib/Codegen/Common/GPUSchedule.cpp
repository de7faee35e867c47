//===- GPUSchedule.cpp - a function's GPU knobs over the options ----------===//

#include "ke/Codegen/GPUSchedule.h"

#include "ke/KeDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace ke;

GPUSchedule GPUSchedule::get(func::FuncOp function, GPUSchedule options) {
  GPUSchedule schedule = std::move(options);
  auto readInteger = [&](llvm::StringRef name, int64_t &knob) {
    if (auto value = function->getAttrOfType<IntegerAttr>(name))
      knob = value.getInt();
  };
  auto readSizes = [&](llvm::StringRef name,
                       llvm::SmallVectorImpl<int64_t> &knob) {
    if (auto value = function->getAttrOfType<DenseI64ArrayAttr>(name))
      knob.assign(value.asArrayRef().begin(), value.asArrayRef().end());
  };
  readSizes(KeDialect::kGPUBlockTileAttrName, schedule.blockTile);
  readSizes(KeDialect::kGPUThreadTileAttrName, schedule.threadTile);
  readInteger(KeDialect::kGPUReductionThreadsAttrName,
              schedule.reductionThreads);
  readInteger(KeDialect::kGPUSharedTileAttrName, schedule.sharedTile);
  readInteger(KeDialect::kGPUWarpsAttrName, schedule.warps);
  readInteger(KeDialect::kGPUVectorWidthAttrName, schedule.vectorWidth);
  readInteger(KeDialect::kGPUTensorCoreTileAttrName, schedule.tensorCoreTile);
  readInteger(KeDialect::kGPUWarpgroupTileAttrName, schedule.warpgroupTile);
  readInteger(KeDialect::kGPUKSplitsAttrName, schedule.kSplits);
  return schedule;
}
