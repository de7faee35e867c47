//===- ProposerTest.cpp - the transform-library proposer and schedules ----===//

#include "ke/Propose/Schedule.h"
#include "ke/Propose/GPUBlockProposer.h"
#include "ke/Propose/TransformLibraryProposer.h"

#include "gtest/gtest.h"

using namespace ke::propose;

namespace {
/// A 256x128x512 matmul (loops i, j, k) after a fill (loops i, j).
std::vector<OpShape> matmulShapes() {
  OpShape fill;
  fill.name = "linalg.fill";
  fill.bounds = {256, 512};
  fill.isReduction = {false, false};
  fill.contiguousLoops = {1, 0};
  fill.uniformTypes = true;
  OpShape matmul;
  matmul.name = "linalg.matmul";
  matmul.bounds = {256, 512, 128};
  matmul.isReduction = {false, false, true};
  matmul.contiguousLoops = {1, 2, 0};
  matmul.uniformTypes = true;
  matmul.inputLoops = {{0, 2}, {2, 1}};
  matmul.outputLoops = {{0, 1}};
  return {fill, matmul};
}

/// The same with B read as [j, k] (attention's Q x K^T): a vector along j
/// reads B across rows.
std::vector<OpShape> transposedMatmulShapes() {
  std::vector<OpShape> shapes = matmulShapes();
  shapes[1].name = "linalg.generic";
  shapes[1].inputLoops = {{0, 2}, {1, 2}};
  return shapes;
}

TEST(ScheduleTest, RoundTripsThroughText) {
  Schedule schedule;
  schedule.approximateMath = true;
  schedule.ops.push_back({{}, {1, 16}, true});
  schedule.ops.push_back({{64, 128, 0}, {4, 16, 1}, true});
  schedule.ops.push_back({{}, {}, false});
  std::string text = schedule.toString();
  EXPECT_EQ(text, "math=approx; c=[] r=[1,16] v; c=[64,128,0] r=[4,16,1] v; "
                  "c=[] r=[]");
  llvm::Expected<Schedule> parsed = Schedule::parse(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(*parsed, schedule);
}

TEST(ScheduleTest, RejectsMalformedText) {
  for (const char *text : {"c=[1,x] r=[1]", "q=[1]", "c=1"}) {
    llvm::Expected<Schedule> parsed = Schedule::parse(text);
    EXPECT_FALSE(bool(parsed)) << text;
    llvm::consumeError(parsed.takeError());
  }
}

TEST(ScheduleTest, VerifyCatchesTilesThatDoNotFit) {
  std::vector<OpShape> shapes = matmulShapes();
  Schedule good;
  good.ops.push_back({{}, {1, 16}, true});
  good.ops.push_back({{64, 128, 0}, {4, 16, 1}, true});
  EXPECT_FALSE(bool(verifySchedule(good, shapes)));

  Schedule badCache = good;
  badCache.ops[1].cacheTiles = {48, 128, 0}; // 48 does not divide 256
  llvm::Error error = verifySchedule(badCache, shapes);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("cache tile 48"),
            std::string::npos);

  Schedule badRegister = good;
  badRegister.ops[1].registerTiles = {4, 48, 1}; // 48 does not divide 128
  EXPECT_TRUE(bool(verifySchedule(badRegister, shapes)));
  llvm::consumeError(verifySchedule(badRegister, shapes));

  Schedule tooBig = good;
  tooBig.ops[1] = {{}, {}, true}; // the whole matmul as one vector
  llvm::Error big = verifySchedule(tooBig, shapes);
  ASSERT_TRUE(bool(big));
  EXPECT_NE(llvm::toString(std::move(big)).find("too large"),
            std::string::npos);
}

TEST(ProposerTest, FirstProposalFromTheReferenceIsTheDefault) {
  std::vector<OpShape> shapes = matmulShapes();
  TransformLibraryProposer proposer(1);
  ProposalContext context;
  context.shapes = shapes;
  context.count = 3;
  std::vector<Proposal> proposals = proposer.propose(context);
  ASSERT_EQ(proposals.size(), 3u);
  ASSERT_TRUE(proposals[0].schedule);
  EXPECT_EQ(*proposals[0].schedule, proposer.makeDefaultSchedule(shapes));
  EXPECT_EQ(proposals[0].schedule->toString(),
            "c=[] r=[1,8] v; c=[] r=[1,8,1] v");
}

TEST(ProposerTest, EveryProposalIsValid) {
  std::vector<OpShape> shapes = matmulShapes();
  TransformLibraryProposer proposer(7);
  Schedule current = proposer.makeRandomSchedule(shapes);
  for (int i = 0; i < 200; ++i) {
    Schedule random = proposer.makeRandomSchedule(shapes);
    EXPECT_FALSE(bool(verifySchedule(random, shapes))) << random.toString();
    Schedule mutated = proposer.mutate(current, shapes);
    EXPECT_FALSE(bool(verifySchedule(mutated, shapes))) << mutated.toString();
    EXPECT_FALSE(mutated == current) << "a mutation must change something";
    Schedule child = proposer.crossover(current, random);
    for (size_t op = 0; op < child.ops.size(); ++op)
      EXPECT_TRUE(child.ops[op] == current.ops[op] ||
                  child.ops[op] == random.ops[op]);
    current = mutated;
  }
}

TEST(ProposerTest, SameSeedSameProposals) {
  std::vector<OpShape> shapes = matmulShapes();
  ProposalContext context;
  context.shapes = shapes;
  context.parent.index = 1;
  context.parent.correct = true;
  context.parent.speedup = 3;
  context.parent.schedule = "c=[] r=[1,16] v; c=[64,128,0] r=[4,16,1] v";
  context.count = 4;
  TransformLibraryProposer a(42), b(42), c(43);
  std::vector<std::string> fromA, fromB, fromC;
  for (int round = 0; round < 5; ++round) {
    for (Proposal &p : a.propose(context))
      fromA.push_back(p.strategy);
    for (Proposal &p : b.propose(context))
      fromB.push_back(p.strategy);
    for (Proposal &p : c.propose(context))
      fromC.push_back(p.strategy);
  }
  EXPECT_EQ(fromA, fromB);
  EXPECT_NE(fromA, fromC);
}

TEST(ProposerTest, MathKnobOnlyWhereThereIsMath) {
  std::vector<OpShape> shapes = matmulShapes();
  TransformLibraryProposer proposer(3);
  for (int i = 0; i < 50; ++i)
    EXPECT_FALSE(proposer.makeRandomSchedule(shapes).approximateMath);
  shapes[1].hasMath = true;
  bool sawApprox = false;
  for (int i = 0; i < 50; ++i)
    sawApprox |= proposer.makeRandomSchedule(shapes).approximateMath;
  EXPECT_TRUE(sawApprox);
}

TEST(ProposerTest, BooleanOpsAreNeverVectorized) {
  std::vector<OpShape> shapes = matmulShapes();
  shapes[0].hasBooleans = true;
  TransformLibraryProposer proposer(5);
  for (int i = 0; i < 50; ++i)
    EXPECT_FALSE(proposer.makeRandomSchedule(shapes).ops[0].vectorize);
  EXPECT_FALSE(proposer.makeDefaultSchedule(shapes).ops[0].vectorize);
}
} // namespace

namespace {
TEST(ProposerTest, ThreadsOnlyWhenAllowed) {
  std::vector<OpShape> shapes = matmulShapes();
  TransformLibraryProposer single(9, /*threads=*/1), multi(9, /*threads=*/2);
  bool sawThreads = false;
  for (int i = 0; i < 100; ++i) {
    for (const OpSchedule &op : single.makeRandomSchedule(shapes).ops)
      EXPECT_FALSE(op.parallel);
    Schedule schedule = multi.makeRandomSchedule(shapes);
    EXPECT_FALSE(bool(verifySchedule(schedule, shapes))) << schedule.toString();
    for (const OpSchedule &op : schedule.ops)
      sawThreads |= op.parallel;
  }
  EXPECT_TRUE(sawThreads);
}

TEST(ScheduleTest, ParallelFlagRendersForall) {
  std::vector<OpShape> shapes = matmulShapes();
  Schedule schedule;
  schedule.ops.push_back({{}, {1, 16}, true, false});
  schedule.ops.push_back({{64, 128, 32}, {4, 16, 1}, true, true});
  EXPECT_EQ(schedule.toString(),
            "c=[] r=[1,16] v; c=[64,128,32] r=[4,16,1] v p");
  std::string script = schedule.renderTransformScript(shapes);
  // Parallel loops on threads, the reduction's cache tile in order.
  EXPECT_NE(script.find("tile_using_forall %op1 tile_sizes [64,128,0]"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("tile_using_for %forall1 tile_sizes [0,0,32]"),
            std::string::npos)
      << script;
}
} // namespace

namespace {
/// softmax-like: fill, max-reduce, exp, fill, sum-reduce, divide.
std::vector<OpShape> chainShapes() {
  auto rows = [](llvm::ArrayRef<int64_t> bounds, llvm::ArrayRef<bool> red) {
    OpShape shape;
    shape.name = "linalg.generic";
    shape.bounds.assign(bounds.begin(), bounds.end());
    shape.isReduction.assign(red.begin(), red.end());
    for (unsigned i = bounds.size(); i-- > 0;)
      shape.contiguousLoops.push_back(i);
    shape.uniformTypes = true;
    return shape;
  };
  return {rows({512}, {false}),
          rows({512, 1024}, {false, true}),
          rows({512, 1024}, {false, false}),
          rows({512}, {false}),
          rows({512, 1024}, {false, true}),
          rows({512, 1024}, {false, false})};
}

TEST(ProposerTest, FusionRepairsTheOpKnobs) {
  std::vector<OpShape> shapes = chainShapes();
  TransformLibraryProposer proposer(11);
  bool sawFusion = false;
  for (int i = 0; i < 100; ++i) {
    Schedule schedule = proposer.makeRandomSchedule(shapes);
    EXPECT_FALSE(bool(verifySchedule(schedule, shapes))) << schedule.toString();
    if (!schedule.fuseRows)
      continue;
    sawFusion = true;
    for (const OpSchedule &op : schedule.ops) {
      EXPECT_TRUE(op.cacheTiles.empty());
      // 0: the whole fused rows (a split reduction's op).
      if (!op.registerTiles.empty() && op.registerTiles[0] != 0)
        EXPECT_EQ(schedule.fuseRows % op.registerTiles[0], 0);
    }
  }
  EXPECT_TRUE(sawFusion);

  Schedule schedule = proposer.makeRandomSchedule(shapes);
  schedule.ops[0] = {{256}, {64}, true, false};
  TransformLibraryProposer::setFusion(schedule, shapes, 8);
  EXPECT_EQ(schedule.fuseRows, 8);
  EXPECT_TRUE(schedule.ops[0].cacheTiles.empty());
  EXPECT_EQ(schedule.ops[0].registerTiles[0], 8);
  EXPECT_NE(schedule.toString().find("fuse=8; "), std::string::npos);
  llvm::Expected<Schedule> parsed = Schedule::parse(schedule.toString());
  ASSERT_TRUE(bool(parsed));
  EXPECT_EQ(*parsed, schedule);
}

TEST(ScheduleTest, FusionNeedsAParallelFirstLoopOnTheLastOp) {
  std::vector<OpShape> shapes = matmulShapes();
  Schedule schedule;
  schedule.fuseRows = 8;
  schedule.ops.push_back({{}, {1, 16}, true, false});
  schedule.ops.push_back({{}, {4, 16, 1}, true, false});
  EXPECT_FALSE(bool(verifySchedule(schedule, shapes)));
  shapes.back().isReduction[0] = true;
  llvm::Error error = verifySchedule(schedule, shapes);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("first loop is parallel"),
            std::string::npos);
}
} // namespace

namespace {
TEST(ProposerTest, UnfusingDropsThreadsWithoutCacheTiles) {
  std::vector<OpShape> shapes = chainShapes();
  Schedule schedule;
  for (const OpShape &shape : shapes)
    schedule.ops.push_back(
        {{}, llvm::SmallVector<int64_t>(shape.bounds.size(), 1), true, false});
  TransformLibraryProposer::setFusion(schedule, shapes, 8);
  schedule.ops.back().parallel = true; // threads on the fused loop
  EXPECT_FALSE(bool(verifySchedule(schedule, shapes)));
  TransformLibraryProposer::setFusion(schedule, shapes, 0);
  EXPECT_FALSE(schedule.ops.back().parallel);
  EXPECT_FALSE(bool(verifySchedule(schedule, shapes)));
}
} // namespace

namespace {
/// A row sum: 64 rows (parallel) of 1024 elements (reduction, contiguous).
std::vector<OpShape> rowSumShapes() {
  OpShape fill;
  fill.name = "linalg.fill";
  fill.bounds = {64};
  fill.isReduction = {false};
  fill.contiguousLoops = {0};
  OpShape sum;
  sum.name = "linalg.reduce";
  sum.bounds = {64, 1024};
  sum.isReduction = {false, true};
  sum.contiguousLoops = {1, 0};
  return {fill, sum};
}

std::string verifyMessage(const Schedule &schedule,
                          llvm::ArrayRef<OpShape> shapes) {
  llvm::Error error = verifySchedule(schedule, shapes);
  return error ? llvm::toString(std::move(error)) : "";
}
} // namespace

TEST(ScheduleTest, NewKnobsRoundTripThroughText) {
  Schedule schedule;
  schedule.ops.push_back({{}, {}, false});
  OpSchedule split;
  split.cacheTiles = {8, 0};
  split.registerTiles = {0, 0};
  split.splitReduction = {0, 32};
  split.vectorize = true;
  split.parallel = true;
  schedule.ops.push_back(split);
  OpSchedule ordered{{64, 128, 0}, {4, 16, 1}, true};
  ordered.interchange = {1, 0, 2};
  ordered.unroll = 4;
  schedule.ops.push_back(ordered);
  std::string text = schedule.toString();
  EXPECT_EQ(text, "c=[] r=[]; c=[8,0] r=[0,0] s=[0,32] v p; "
                  "c=[64,128,0] r=[4,16,1] i=[1,0,2] v u=4");
  llvm::Expected<Schedule> parsed = Schedule::parse(text);
  ASSERT_TRUE(bool(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(*parsed, schedule);
  for (const char *bad : {"c=[] r=[] u=0", "c=[] r=[] u=x", "c=[] s=[a]"}) {
    llvm::Expected<Schedule> rejected = Schedule::parse(bad);
    EXPECT_FALSE(bool(rejected)) << bad;
    llvm::consumeError(rejected.takeError());
  }
}

TEST(ScheduleTest, SplitReductionRendersPartialSums) {
  std::vector<OpShape> shapes = rowSumShapes();
  llvm::Expected<Schedule> schedule =
      Schedule::parse("c=[] r=[]; c=[8,0] s=[0,32] v p");
  ASSERT_TRUE(bool(schedule));
  EXPECT_EQ(verifyMessage(*schedule, shapes), "");
  std::string script = schedule->renderTransformScript(shapes);
  EXPECT_NE(script.find("tile_using_forall %op1 tile_sizes [8,0]"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("tile_reduction_using_for %cache1 reduction_dims = "
                        "[1] by tile_sizes = [0,32]"),
            std::string::npos)
      << script;
  // Both the split op and the combining op are vectorized; the split op is
  // elementwise, not a contraction.
  EXPECT_NE(script.find("vectorize %combine1"), std::string::npos) << script;
  EXPECT_EQ(script.find("create_named_contraction"), std::string::npos);
}

TEST(ScheduleTest, VerifyCatchesMisplacedNewKnobs) {
  std::vector<OpShape> shapes = rowSumShapes();
  auto check = [&](const char *text, const char *expected) {
    llvm::Expected<Schedule> schedule = Schedule::parse(text);
    ASSERT_TRUE(bool(schedule)) << text;
    EXPECT_NE(verifyMessage(*schedule, shapes).find(expected),
              std::string::npos)
        << text << ": " << verifyMessage(*schedule, shapes);
  };
  check("c=[] r=[]; c=[8,0] s=[32,0] v", "splits reduction loops only");
  check("c=[] r=[]; c=[8,0] s=[0,48] v", "split 48 does not divide 1024");
  check("c=[] r=[]; c=[] s=[0,32] v", "too large to vectorize");
  check("c=[] r=[]; c=[8,64] r=[1,16] i=[0,0] v", "must order all 2 loops");
  check("c=[] r=[]; c=[8,64] r=[1,16] i=[1,0] v p", "without p");
  check("c=[] r=[]; c=[8,0] s=[0,32] u=4 v", "needs a register tile loop");
}

TEST(ProposerTest, ReductionsAlongTheVectorLoopGetSplit) {
  std::vector<OpShape> shapes = rowSumShapes();
  TransformLibraryProposer proposer(5, /*threads=*/2);
  int split = 0, unrolled = 0;
  for (int i = 0; i < 200; ++i) {
    Schedule schedule = proposer.makeRandomSchedule(shapes);
    EXPECT_EQ(verifyMessage(schedule, shapes), "") << schedule.toString();
    split += schedule.ops[1].hasSplitReduction();
    unrolled += schedule.ops[1].unroll > 1;
    Schedule mutated = proposer.mutate(schedule, shapes);
    EXPECT_EQ(verifyMessage(mutated, shapes), "") << mutated.toString();
  }
  EXPECT_GT(split, 50);
  EXPECT_GT(unrolled, 5);
  // Matmul reduces along k, but its vector loop is j: never split.
  std::vector<OpShape> matmul = matmulShapes();
  for (int i = 0; i < 100; ++i)
    EXPECT_FALSE(proposer.makeRandomSchedule(matmul).ops[1].hasSplitReduction());
}

TEST(ProposerTest, ContractionsMostlyGetRegisterBlocks) {
  std::vector<OpShape> shapes = matmulShapes();
  TransformLibraryProposer proposer(3);
  int blocks = 0;
  for (int i = 0; i < 200; ++i) {
    Schedule schedule = proposer.makeRandomSchedule(shapes);
    const OpSchedule &op = schedule.ops[1];
    ASSERT_EQ(op.registerTiles.size(), 3u);
    // Rows x 16-float vectors within 24 accumulators, k = 1.
    if (op.registerTiles[2] == 1 && op.registerTiles[1] >= 32 &&
        op.registerTiles[0] >= 4 &&
        op.registerTiles[0] * (op.registerTiles[1] / 16) <= 24)
      ++blocks;
  }
  EXPECT_GT(blocks, 50);
  // Read across rows along the vector loop (attention's K^T): blocks only
  // with B read through a transposed copy.
  shapes = transposedMatmulShapes();
  int stridedBlocks = 0, transposedBlocks = 0;
  for (int i = 0; i < 400; ++i) {
    Schedule schedule = proposer.makeRandomSchedule(shapes);
    EXPECT_EQ(verifyMessage(schedule, shapes), "") << schedule.toString();
    const OpSchedule &op = schedule.ops[1];
    if (op.registerTiles.size() == 3 && op.registerTiles[2] == 1 &&
        op.registerTiles[1] >= 32 && op.registerTiles[0] >= 4) {
      if (op.layouts.empty())
        ++stridedBlocks;
      else
        ++transposedBlocks;
    }
    for (const OperandLayout &layout : op.layouts) {
      EXPECT_EQ(layout.operand, 1);
      EXPECT_EQ(layout.permutation, (llvm::SmallVector<int64_t>{1, 0}));
    }
  }
  EXPECT_LT(stridedBlocks, 30);
  EXPECT_GT(transposedBlocks, 40);
  // B of a plain matmul is read along j already: never copied.
  shapes = matmulShapes();
  for (int i = 0; i < 100; ++i)
    EXPECT_TRUE(proposer.makeRandomSchedule(shapes).ops[1].layouts.empty());
}

TEST(ScheduleTest, LayoutsRoundTripAndAreChecked) {
  std::vector<OpShape> shapes = transposedMatmulShapes();
  llvm::Expected<Schedule> schedule =
      Schedule::parse("c=[] r=[1,16] v; c=[64,128,0] r=[4,32,1] v p t1=[1,0]");
  ASSERT_TRUE(bool(schedule)) << llvm::toString(schedule.takeError());
  ASSERT_EQ(schedule->ops[1].layouts.size(), 1u);
  EXPECT_EQ(schedule->ops[1].layouts[0].operand, 1);
  EXPECT_EQ(schedule->toString(),
            "c=[] r=[1,16] v; c=[64,128,0] r=[4,32,1] v p t1=[1,0]");
  EXPECT_EQ(verifyMessage(*schedule, shapes), "");
  auto check = [&](const char *text, const char *expected) {
    llvm::Expected<Schedule> parsed = Schedule::parse(text);
    ASSERT_TRUE(bool(parsed)) << text;
    EXPECT_NE(verifyMessage(*parsed, shapes).find(expected), std::string::npos)
        << text << ": " << verifyMessage(*parsed, shapes);
  };
  check("c=[] r=[]; c=[] r=[] t2=[1,0]", "has 2 inputs");
  check("c=[] r=[]; c=[] r=[] t1=[0,1]", "must reorder all 2 dimensions");
  check("c=[] r=[]; c=[] r=[] t1=[1,0,2]", "must reorder all 2 dimensions");
  check("c=[] r=[]; c=[] r=[] t1=[1,0] t1=[1,0]", "two layouts");
  check("fuse=8; c=[] r=[]; c=[] r=[] t1=[1,0]", "no t1=[...] with fuse");
  EXPECT_FALSE(bool(Schedule::parse("c=[] r=[] tx=[1,0]")));
  EXPECT_FALSE(bool(Schedule::parse("c=[] r=[] t1=1,0")));
}

TEST(ProposerTest, CombinedParentsThatDoNotFitBecomeMutations) {
  // A fused parent whose split op gets its rows from the fused loop, and an
  // unfused one: a child taking the split op without the fusion has a
  // 64x32 vector. Crossovers alone make such children; proposals never.
  std::vector<OpShape> shapes = rowSumShapes();
  TransformLibraryProposer proposer(13, /*threads=*/2);
  llvm::Expected<Schedule> fused =
      Schedule::parse("fuse=4; c=[] r=[4] v; c=[] r=[0,0] s=[0,32] v p");
  llvm::Expected<Schedule> unfused =
      Schedule::parse("c=[] r=[32] v; c=[8,0] r=[1,16] v p");
  ASSERT_TRUE(fused && unfused);
  ASSERT_EQ(verifyMessage(*fused, shapes), "");
  ASSERT_EQ(verifyMessage(*unfused, shapes), "");
  int unfit = 0;
  for (int i = 0; i < 100; ++i)
    unfit += !verifyMessage(proposer.crossover(*fused, *unfused), shapes)
                  .empty();
  EXPECT_GT(unfit, 0);

  ProposalContext context;
  context.shapes = shapes;
  context.parent.index = 1;
  context.parent.schedule = fused->toString();
  context.parent.correct = true;
  NodeView other;
  other.index = 2;
  other.schedule = unfused->toString();
  other.correct = true;
  context.elite = {other};
  context.count = 200;
  for (const Proposal &proposal : proposer.propose(context)) {
    ASSERT_TRUE(proposal.schedule.has_value());
    EXPECT_EQ(verifyMessage(*proposal.schedule, shapes), "")
        << proposal.schedule->toString();
  }
}

/// The values one integer knob takes in the GPU space of `shapes`, in
/// order.
std::vector<int64_t>
knobValues(const std::vector<OpShape> &shapes,
           std::optional<int64_t> Proposal::*knob) {
  std::vector<int64_t> values;
  for (const Proposal &proposal : GPUBlockProposer::getSpace(shapes))
    if (proposal.*knob)
      values.push_back(*(proposal.*knob));
  return values;
}

TEST(GPUProposerTest, TensorCoreTilesOnlyForTensorCoreInputs) {
  auto tensorCoreTiles = [](const std::vector<OpShape> &shapes) {
    return knobValues(shapes, &Proposal::gpuTensorCoreTile);
  };
  // f32 without TF32 permission: the tensor-core knob would change nothing.
  std::vector<OpShape> shapes = matmulShapes();
  EXPECT_TRUE(tensorCoreTiles(shapes).empty());
  // bf16 inputs (or f32 under ke.precision = "tf32"): first in the space,
  // off (0) among them.
  shapes[1].tensorCoreInputs = true;
  EXPECT_EQ(tensorCoreTiles(shapes), (std::vector<int64_t>{64, 32, 128, 0}));
  EXPECT_EQ(GPUBlockProposer::getSpace(shapes).front().strategy,
            "gpu tensor core tile 64");
  // An elementwise op with such inputs is no contraction.
  shapes[0].tensorCoreInputs = true;
  shapes[1].tensorCoreInputs = false;
  EXPECT_TRUE(tensorCoreTiles(shapes).empty());
}

TEST(GPUProposerTest, WarpgroupTilesOnlyForTensorCoreInputs) {
  auto warpgroupTiles = [](const std::vector<OpShape> &shapes) {
    return knobValues(shapes, &Proposal::gpuWarpgroupTile);
  };
  std::vector<OpShape> shapes = matmulShapes();
  EXPECT_TRUE(warpgroupTiles(shapes).empty());
  // The narrower tile and off (0); 256 is the default.
  shapes[1].tensorCoreInputs = true;
  EXPECT_EQ(warpgroupTiles(shapes), (std::vector<int64_t>{128, 0}));
}

TEST(GPUProposerTest, KSplitsOnlyForContractions) {
  auto kSplits = [](const std::vector<OpShape> &shapes) {
    return knobValues(shapes, &Proposal::gpuKSplits);
  };
  // Off (1) and more than the default gives a full grid.
  EXPECT_EQ(kSplits(matmulShapes()), (std::vector<int64_t>{1, 4}));
  // A fill alone has no K to split.
  EXPECT_TRUE(kSplits({matmulShapes().front()}).empty());
}

TEST(GPUProposerTest, PairsTheBestKnobWithOthersOfAnotherKind) {
  std::vector<OpShape> shapes = matmulShapes();
  GPUBlockProposer proposer;
  ProposalContext context;
  context.shapes = shapes;
  context.parent.payloadIR = "module {}";
  context.count = 1000;
  std::vector<Proposal> singles = proposer.propose(context);
  ASSERT_EQ(singles.size(), GPUBlockProposer::getSpace(shapes).size());
  // A contraction with a reduction: shared tiles, warps per staged block,
  // thread tiles, reduction threads, block shapes; no vector widths (no
  // elementwise op).
  EXPECT_EQ(singles.front().strategy, "gpu shared tile 128");
  ASSERT_GE(singles.size(), 5u);
  EXPECT_EQ(singles[3].strategy, "gpu warps 4");
  EXPECT_EQ(singles[3].gpuWarps, std::optional<int64_t>(4));
  EXPECT_EQ(singles[4].strategy, "gpu warps 16");
  for (const Proposal &single : singles)
    EXPECT_FALSE(single.gpuVectorWidth.has_value()) << single.strategy;

  auto node = [](size_t index, const char *strategy, double speedup) {
    NodeView view;
    view.index = index;
    view.strategy = strategy;
    view.speedup = speedup;
    view.correct = true;
    return view;
  };
  context.elite = {node(3, "gpu block 8x32", 2.0),
                   node(1, "gpu shared tile 32", 1.5),
                   node(4, "gpu block 16x16", 1.2),
                   node(5, "gpu warps 4", 1.1)};
  context.count = 5;
  std::vector<Proposal> pairs = proposer.propose(context);
  ASSERT_EQ(pairs.size(), 2u); // 16x16 is a block shape like the best
  EXPECT_EQ(pairs[0].strategy, "gpu block 8x32 + gpu shared tile 32");
  EXPECT_EQ(pairs[0].gpuBlockTile, (llvm::SmallVector<int64_t, 2>{8, 32}));
  EXPECT_EQ(pairs[0].gpuSharedTile, std::optional<int64_t>(32));
  EXPECT_EQ(pairs[1].strategy, "gpu block 8x32 + gpu warps 4");
  EXPECT_EQ(pairs[1].gpuWarps, std::optional<int64_t>(4));
  EXPECT_EQ(pairs[0].memory, MemoryOperator::Combine);
  EXPECT_EQ(pairs[0].payloadIR, "module {}");
  // Each pair once.
  EXPECT_TRUE(proposer.propose(context).empty());
}
