//===- DefaultVariantsProposer.cpp - default lowering variants ----------===//

#include "ke/Propose/DefaultVariantsProposer.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace ke::propose;

std::string DefaultLoweringKnobs::describe() const {
  llvm::SmallVector<std::string> parts;
  if (vectorWidth != kDefaultVectorWidth)
    parts.push_back("vector-width=" + std::to_string(vectorWidth));
  if (elementwiseVectorWidth != 0)
    parts.push_back("elementwise-vector-width=" +
                    std::to_string(elementwiseVectorWidth));
  if (vectorRegisters != 0)
    parts.push_back("vector-registers=" + std::to_string(vectorRegisters));
  return parts.empty() ? "host budgets" : llvm::join(parts, " ");
}

std::vector<DefaultLoweringKnobs>
DefaultVariantsProposer::getVariants(VectorRegisterFile host) {
  auto registers = [](int64_t count) {
    DefaultLoweringKnobs knobs;
    knobs.vectorRegisters = count;
    return knobs;
  };
  auto elementwise = [](int64_t width) {
    DefaultLoweringKnobs knobs;
    knobs.elementwiseVectorWidth = width;
    return knobs;
  };
  auto width = [](int64_t lanes) {
    DefaultLoweringKnobs knobs;
    knobs.vectorWidth = lanes;
    return knobs;
  };
  int64_t lanes = std::max<int64_t>(1, host.bits / 32);
  // Kinds interleaved, so a short budget sees each: register blocks for
  // fewer and more registers than the host has (more spill, but load fewer
  // operands per FMA), elementwise loops two and four host vectors wide, and
  // vectors half and twice the default width (other panels and blocks).
  return {registers(host.count * 3 / 4), elementwise(2 * lanes),
          registers(host.count * 3 / 2), width(2 * kDefaultVectorWidth),
          registers(host.count / 2),     elementwise(4 * lanes),
          registers(host.count * 2),     width(kDefaultVectorWidth / 2)};
}

std::string
DefaultVariantsProposer::getStrategy(const DefaultLoweringKnobs &knobs) {
  return "default lowering, " + knobs.describe();
}

DefaultVariantsProposer::DefaultVariantsProposer(
    Builder build, VectorRegisterFile host, llvm::StringRef floorIR,
    const llvm::StringSet<> &recorded)
    : build(std::move(build)), variants(getVariants(host)), recorded(recorded) {
  seen.insert(llvm::hash_value(floorIR));
}

std::vector<Proposal>
DefaultVariantsProposer::propose(const ProposalContext &context) {
  std::vector<Proposal> proposals;
  while (proposals.size() < context.count && next < variants.size()) {
    const DefaultLoweringKnobs &knobs = variants[next++];
    Proposal proposal;
    proposal.strategy = getStrategy(knobs);
    if (recorded.contains(proposal.strategy))
      continue; // measured before this run was resumed
    proposal.memory = MemoryOperator::Restart;
    llvm::Expected<std::string> payload = build(knobs);
    if (!payload) {
      proposal.error = "the default schedule with " + knobs.describe() + ": " +
                       llvm::toString(payload.takeError());
    } else {
      // Budgets the kernel's ops do not feel make the same IR.
      if (!seen.insert(llvm::hash_value(*payload)).second)
        continue;
      proposal.payloadIR = std::move(*payload);
    }
    proposals.push_back(std::move(proposal));
  }
  return proposals;
}
