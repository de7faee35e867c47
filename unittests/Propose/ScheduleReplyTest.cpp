//===- ScheduleReplyTest.cpp - reading a model's schedule choice ----------===//

#include "ke/Propose/ScheduleReply.h"

#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace ke::propose;

namespace {
/// A 256x256x64 matmul: loops (i, j) parallel, k a reduction.
OpShape makeMatmul() {
  OpShape shape;
  shape.name = "linalg.matmul";
  shape.bounds = {256, 256, 64};
  shape.isReduction = {false, false, true};
  shape.contiguousLoops = {1, 2, 0};
  shape.uniformTypes = true;
  shape.inputLoops = {{0, 2}, {2, 1}};
  shape.outputLoops = {{0, 1}};
  return shape;
}

TEST(ScheduleReplyTest, ReadsAValidChoiceAsItIs) {
  std::vector<OpShape> shapes = {makeMatmul()};
  auto reply = parseScheduleReply(
      R"({"explanation": "rows of 32", "ops": [{"cache": [32, 128, 0],
          "register": [4, 16, 1], "vectorize": true, "parallel": false,
          "unroll": 2}], "fuse": 0, "math": "exact"})",
      shapes, 1);
  ASSERT_TRUE(bool(reply)) << llvm::toString(reply.takeError());
  EXPECT_EQ(reply->schedule.toString(), "c=[32,128,0] r=[4,16,1] v u=2");
  EXPECT_EQ(reply->explanation, "rows of 32");
  EXPECT_TRUE(reply->adjustments.empty());
}

/// What the schema cannot forbid becomes the nearest valid value, and each
/// change is said.
TEST(ScheduleReplyTest, BringsInvalidValuesToTheNearestValidOne) {
  std::vector<OpShape> shapes = {makeMatmul()};
  auto reply = parseScheduleReply(
      "Here you go:\n```json\n{\"ops\": [{\"cache\": [30, 128, 0], "
      "\"register\": [4, 48, 1], \"vectorize\": true, \"parallel\": true, "
      "\"unroll\": 3}], \"fuse\": 5}\n```",
      shapes, /*threads=*/1);
  ASSERT_TRUE(bool(reply)) << llvm::toString(reply.takeError());
  // 30 is no divisor of 256: 32; 48 no power of two within 128: 32 (ties to
  // the smaller); no threads: not parallel; unroll 3: 2; one op: no fusion.
  EXPECT_EQ(reply->schedule.toString(), "c=[32,128,0] r=[4,32,1] v u=2");
  ASSERT_GE(reply->adjustments.size(), 2u);
  EXPECT_EQ(reply->adjustments[0], "ops[0].cache[0]: 30 -> 32");
  EXPECT_EQ(reply->adjustments[1], "ops[0].register[1]: 48 -> 32");
  EXPECT_FALSE(llvm::errorToBool(verifySchedule(reply->schedule, shapes)));
}

/// A register tile too large to be one vector is halved until it verifies.
TEST(ScheduleReplyTest, ShrinksVectorsTheVerifierRefuses) {
  std::vector<OpShape> shapes = {makeMatmul()};
  auto reply = parseScheduleReply(
      R"({"ops": [{"cache": [0, 0, 0], "register": [64, 64, 64],
          "vectorize": true, "parallel": false, "unroll": 1}]})",
      shapes, 1);
  ASSERT_TRUE(bool(reply)) << llvm::toString(reply.takeError());
  EXPECT_FALSE(llvm::errorToBool(verifySchedule(reply->schedule, shapes)));
  EXPECT_NE(reply->adjustments.back().find("register halved"),
            std::string::npos);
}

TEST(ScheduleReplyTest, NeedsAnObjectWithOps) {
  std::vector<OpShape> shapes = {makeMatmul()};
  auto reply = parseScheduleReply("use bigger tiles {not json}", shapes, 1);
  ASSERT_FALSE(bool(reply));
  EXPECT_EQ(llvm::toString(reply.takeError()),
            "the reply has no JSON object with \"ops\" (one entry per op)");
}

/// The schema enumerates each knob's values, per op and loop.
TEST(ScheduleReplyTest, SchemaListsTheValidValues) {
  std::vector<OpShape> shapes = {makeMatmul()};
  llvm::Expected<llvm::json::Value> schema =
      llvm::json::parse(buildScheduleSchema(shapes, 2));
  ASSERT_TRUE(bool(schema)) << llvm::toString(schema.takeError());
  const llvm::json::Object *op = (*schema->getAsObject()
                                      ->getObject("properties")
                                      ->getObject("ops")
                                      ->getArray("prefixItems"))[0]
                                     .getAsObject();
  const llvm::json::Array *k = (*op->getObject("properties")
                                     ->getObject("register")
                                     ->getArray("prefixItems"))[2]
                                   .getAsObject()
                                   ->getArray("enum");
  std::vector<int64_t> values;
  for (const llvm::json::Value &v : *k)
    values.push_back(*v.getAsInteger());
  EXPECT_EQ(values, (std::vector<int64_t>{0, 1, 2, 4, 8, 16, 32, 64}));
  // Two threads: parallel may be chosen.
  EXPECT_EQ(*op->getObject("properties")
                 ->getObject("parallel")
                 ->getString("type"),
            "boolean");
}
} // namespace
