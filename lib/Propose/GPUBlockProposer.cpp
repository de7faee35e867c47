//===- GPUBlockProposer.cpp - the library's GPU schedule space ------------===//

#include "ke/Propose/GPUBlockProposer.h"

#include "llvm/ADT/StringExtras.h"

using namespace ke::propose;

namespace {
std::string joinTile(llvm::ArrayRef<int64_t> tile) {
  return llvm::join(
      llvm::map_range(tile, [](int64_t v) { return std::to_string(v); }), "x");
}
/// `a` with the knob of `b`, if `b` sets one `a` does not.
std::optional<Proposal> combineKnobs(const Proposal &a, const Proposal &b) {
  Proposal pair = a;
  bool added = false;
  auto take = [&](auto &mine, const auto &theirs, bool isSet, bool haveIt) {
    if (isSet && !haveIt) {
      mine = theirs;
      added = true;
    }
  };
  take(pair.gpuBlockTile, b.gpuBlockTile, !b.gpuBlockTile.empty(),
       !a.gpuBlockTile.empty());
  take(pair.gpuThreadTile, b.gpuThreadTile, !b.gpuThreadTile.empty(),
       !a.gpuThreadTile.empty());
  take(pair.gpuReductionThreads, b.gpuReductionThreads,
       b.gpuReductionThreads.has_value(), a.gpuReductionThreads.has_value());
  take(pair.gpuSharedTile, b.gpuSharedTile, b.gpuSharedTile.has_value(),
       a.gpuSharedTile.has_value());
  take(pair.gpuVectorWidth, b.gpuVectorWidth, b.gpuVectorWidth.has_value(),
       a.gpuVectorWidth.has_value());
  take(pair.gpuWarps, b.gpuWarps, b.gpuWarps.has_value(),
       a.gpuWarps.has_value());
  take(pair.gpuTensorCoreTile, b.gpuTensorCoreTile,
       b.gpuTensorCoreTile.has_value(), a.gpuTensorCoreTile.has_value());
  take(pair.gpuWarpgroupTile, b.gpuWarpgroupTile,
       b.gpuWarpgroupTile.has_value(), a.gpuWarpgroupTile.has_value());
  take(pair.gpuKSplits, b.gpuKSplits, b.gpuKSplits.has_value(),
       a.gpuKSplits.has_value());
  if (!added)
    return std::nullopt;
  pair.strategy = a.strategy + " + " + b.strategy;
  return pair;
}
} // namespace

llvm::ArrayRef<llvm::SmallVector<int64_t, 2>> GPUBlockProposer::getShapes() {
  static const llvm::SmallVector<int64_t, 2> shapes[] = {
      {8, 32},  {16, 16}, {4, 32},  {2, 128}, {1, 128}, {32, 8},
      {4, 64},  {1, 256}, {2, 32},  {1, 64},  {1, 32},  {16, 32},
      {1, 512}, {8, 8},   {32, 32}, {64, 4}};
  return shapes;
}

std::vector<Proposal>
GPUBlockProposer::getSpace(llvm::ArrayRef<OpShape> shapes) {
  bool reduces = false, contracts = false, elementwise = false,
       tensorCores = false;
  for (const OpShape &shape : shapes) {
    elementwise |= !shape.hasReductionLoops() && shape.name != "linalg.fill";
    int64_t reductions = llvm::count(shape.isReduction, true);
    reduces |= reductions > 0;
    bool contraction =
        reductions > 0 &&
        static_cast<int64_t>(shape.isReduction.size()) - reductions >= 2;
    contracts |= contraction;
    tensorCores |= contraction && shape.tensorCoreInputs;
  }
  std::vector<Proposal> space;
  auto add = [&](std::string strategy, auto setKnob) {
    Proposal proposal;
    setKnob(proposal);
    proposal.strategy = std::move(strategy);
    space.push_back(std::move(proposal));
  };
  // The knobs that moved the H100 most first (conv2d 2x from thread tiles).
  if (tensorCores) {
    for (int64_t tile : {64, 32, 128, 0})
      add("gpu tensor core tile " + std::to_string(tile),
          [&](Proposal &p) { p.gpuTensorCoreTile = tile; });
    // 256 is the default; 128 gives twice the blocks (on the H200 a
    // 2048^3 bf16 product ran 51 us either way), 0 the mma.sync path.
    for (int64_t tile : {128, 0})
      add("gpu warpgroup tile " + std::to_string(tile),
          [&](Proposal &p) { p.gpuWarpgroupTile = tile; });
  }
  if (contracts) {
    for (int64_t tile : {128, 32, 0})
      add("gpu shared tile " + std::to_string(tile),
          [&](Proposal &p) { p.gpuSharedTile = tile; });
    for (int64_t warps : {4, 16})
      add("gpu warps " + std::to_string(warps),
          [&](Proposal &p) { p.gpuWarps = warps; });
    // Split-K: the default splits only grids of under two blocks per
    // multiprocessor; on an H200 the best split was another on 19 of 42
    // KernelBench problems (bench/gpu/h200-kernelbench-split-k-sweep-stop31).
    for (int64_t splits : {1, 4})
      add("gpu k splits " + std::to_string(splits),
          [&](Proposal &p) { p.gpuKSplits = splits; });
    for (llvm::SmallVector<int64_t, 2> tile :
         {llvm::SmallVector<int64_t, 2>{2, 1}, {2, 2}, {4, 1}, {1, 4}})
      add("gpu thread tile " + joinTile(tile),
          [&](Proposal &p) { p.gpuThreadTile = tile; });
  }
  if (reduces)
    // 1024 is the default (GPUScheduleDefaults::reductionThreads).
    for (int64_t threads : {128, 256, 0})
      add("gpu reduction threads " + std::to_string(threads),
          [&](Proposal &p) { p.gpuReductionThreads = threads; });
  if (elementwise)
    for (int64_t width : {2, 1})
      add("gpu vector width " + std::to_string(width),
          [&](Proposal &p) { p.gpuVectorWidth = width; });
  for (const auto &shape : getShapes())
    add("gpu block " + joinTile(shape),
        [&](Proposal &p) { p.gpuBlockTile = shape; });
  return space;
}

std::vector<Proposal>
GPUBlockProposer::propose(const ProposalContext &context) {
  std::vector<Proposal> space = getSpace(context.shapes);
  std::vector<Proposal> proposals;
  // Always the reference's payload: the knob is the whole schedule.
  llvm::StringRef base = context.trajectory.empty()
                             ? context.parent.payloadIR
                             : context.trajectory.front().payloadIR;
  for (unsigned i = 0; i < context.count && next < space.size(); ++i) {
    Proposal proposal = std::move(space[next++]);
    proposal.memory = MemoryOperator::Restart;
    proposal.payloadIR = base.str();
    singles[proposal.strategy] = proposal;
    proposals.push_back(std::move(proposal));
  }
  // The list spent: the best single knob with each next best of another
  // kind (the knobs act on different ops or different levels).
  const NodeView *best = nullptr;
  for (const NodeView &node : context.elite)
    if (node.correct && singles.count(node.strategy)) {
      best = &node;
      break;
    }
  for (const NodeView &other : context.elite) {
    if (!best || proposals.size() >= context.count)
      break;
    auto found = singles.find(other.strategy);
    if (&other == best || !other.correct || found == singles.end())
      continue;
    std::optional<Proposal> pair =
        combineKnobs(singles.at(best->strategy), found->second);
    if (!pair || !pairs.insert(pair->strategy).second)
      continue;
    pair->memory = MemoryOperator::Combine;
    pair->payloadIR = base.str();
    proposals.push_back(std::move(*pair));
  }
  return proposals;
}
