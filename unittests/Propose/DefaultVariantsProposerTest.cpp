//===- DefaultVariantsProposerTest.cpp - default lowering variants --------===//

#include "ke/Propose/DefaultVariantsProposer.h"

#include "gtest/gtest.h"

using namespace ke::propose;

namespace {
/// A builder whose IR is the knobs it was given, except that the host's
/// budgets and `sameAsFloor` knobs build the default lowering's IR (a kernel
/// they do not change).
DefaultVariantsProposer::Builder
knobEcho(std::function<bool(const DefaultLoweringKnobs &)> sameAsFloor,
         std::vector<std::string> &built) {
  return [sameAsFloor, &built](
             const DefaultLoweringKnobs &knobs) -> llvm::Expected<std::string> {
    built.push_back(knobs.describe());
    if (knobs.describe() == "host budgets" || sameAsFloor(knobs))
      return std::string("floor");
    return knobs.describe();
  };
}
} // namespace

TEST(DefaultVariantsProposerTest, VariantsAreSizedForTheHost) {
  std::vector<std::string> avx2, avx512;
  for (const DefaultLoweringKnobs &knobs :
       DefaultVariantsProposer::getVariants({16, 256}))
    avx2.push_back(knobs.describe());
  for (const DefaultLoweringKnobs &knobs :
       DefaultVariantsProposer::getVariants({32, 512}))
    avx512.push_back(knobs.describe());
  EXPECT_EQ(avx2, (std::vector<std::string>{
                      "vector-registers=12", "elementwise-vector-width=16",
                      "vector-registers=24", "vector-width=16",
                      "vector-registers=8", "elementwise-vector-width=32",
                      "vector-registers=32", "vector-width=4"}));
  EXPECT_EQ(avx512[0], "vector-registers=24");
  EXPECT_EQ(avx512[1], "elementwise-vector-width=32");
}

TEST(DefaultVariantsProposerTest, SkipsVariantsThatBuildTheFloor) {
  std::vector<std::string> built;
  // Elementwise widths change nothing in this kernel.
  auto elementwiseOnly = [](const DefaultLoweringKnobs &knobs) {
    return knobs.elementwiseVectorWidth != 0;
  };
  DefaultVariantsProposer proposer(knobEcho(elementwiseOnly, built), {16, 256},
                                   "floor");
  EXPECT_EQ(proposer.getName(), "default-variants");
  ProposalContext context;
  context.count = 3;
  std::vector<Proposal> first = proposer.propose(context);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0].strategy, "default lowering, vector-registers=12");
  EXPECT_EQ(first[1].strategy, "default lowering, vector-registers=24");
  EXPECT_EQ(first[2].strategy, "default lowering, vector-width=16");
  EXPECT_EQ(first[0].payloadIR, "vector-registers=12");
  // The floor's IR was given, not built again.
  EXPECT_EQ(llvm::count(built, "host budgets"), 0);
  context.count = 8;
  std::vector<Proposal> rest = proposer.propose(context);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].strategy, "default lowering, vector-registers=8");
  EXPECT_EQ(rest[2].strategy, "default lowering, vector-width=4");
  EXPECT_TRUE(proposer.propose(context).empty()); // exhausted
}

TEST(DefaultVariantsProposerTest, ABuildThatFailsIsAFailedProposal) {
  DefaultVariantsProposer proposer(
      [&](const DefaultLoweringKnobs &knobs) -> llvm::Expected<std::string> {
        if (knobs.vectorRegisters == 12)
          return llvm::createStringError("register blocks do not fit");
        return knobs.describe();
      },
      {16, 256}, "floor");
  ProposalContext context;
  std::vector<Proposal> proposals = proposer.propose(context);
  ASSERT_EQ(proposals.size(), 1u);
  EXPECT_TRUE(proposals[0].payloadIR.empty());
  EXPECT_EQ(proposals[0].error, "the default schedule with "
                                "vector-registers=12: register blocks do not "
                                "fit");
}

TEST(DefaultVariantsProposerTest, AResumedRunSkipsWhatItRecorded) {
  std::vector<std::string> built;
  llvm::StringSet<> recorded;
  recorded.insert("default lowering, vector-registers=12");
  DefaultVariantsProposer proposer(
      knobEcho([](const DefaultLoweringKnobs &) { return false; }, built),
      {16, 256}, "floor", recorded);
  ProposalContext context;
  std::vector<Proposal> proposals = proposer.propose(context);
  ASSERT_EQ(proposals.size(), 1u);
  EXPECT_EQ(proposals[0].strategy,
            "default lowering, elementwise-vector-width=16");
  EXPECT_EQ(built, std::vector<std::string>{"elementwise-vector-width=16"});
}
