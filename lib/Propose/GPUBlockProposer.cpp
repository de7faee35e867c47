//===- GPUBlockProposer.cpp - the library's GPU schedule space ------------===//

#include "ke/Propose/GPUBlockProposer.h"

#include "llvm/ADT/StringExtras.h"

using namespace ke::propose;

llvm::ArrayRef<llvm::SmallVector<int64_t, 2>> GPUBlockProposer::getShapes() {
  static const llvm::SmallVector<int64_t, 2> shapes[] = {
      {8, 32},  {16, 16}, {4, 32},  {2, 128}, {1, 128}, {32, 8},
      {4, 64},  {1, 256}, {2, 32},  {1, 64},  {1, 32},  {16, 32},
      {1, 512}, {8, 8},   {32, 32}, {64, 4}};
  return shapes;
}

std::vector<Proposal>
GPUBlockProposer::propose(const ProposalContext &context) {
  std::vector<Proposal> proposals;
  // Always the reference's payload: the knob is the whole schedule.
  llvm::StringRef base = context.trajectory.empty()
                             ? context.parent.payloadIR
                             : context.trajectory.front().payloadIR;
  for (unsigned i = 0; i < context.count && next < getShapes().size(); ++i) {
    const auto &shape = getShapes()[next++];
    Proposal proposal;
    proposal.memory = MemoryOperator::Restart;
    proposal.payloadIR = base.str();
    proposal.gpuBlockTile = shape;
    proposal.strategy =
        "gpu block " +
        llvm::join(
            llvm::map_range(shape, [](int64_t v) { return std::to_string(v); }),
            "x");
    proposals.push_back(std::move(proposal));
  }
  return proposals;
}
