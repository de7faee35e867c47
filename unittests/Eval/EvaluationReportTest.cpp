//===- EvaluationReportTest.cpp - the report's JSON round trip ------------===//

#include "ke/Eval/EvaluationReport.h"

#include "gtest/gtest.h"

using namespace ke::eval;

TEST(EvaluationReportTest, RoundTripsThroughJSON) {
  EvaluationReport report;
  report.kernel = "k";
  report.candidate = "n3";
  report.target = "riscv";
  report.threads = 2;
  report.seeds = 3;
  report.correct = true;
  report.maxAbsError = 1e-6;
  report.timing = TimingResult{2000.0, 1800.0, 40};
  report.work.flops = 4000.0;
  report.work.bytes = 8000.0;
  report.bound = "memory";
  report.peakGflops = 100.0;
  report.profiled = true;
  report.regions.push_back({"matmul", 1500.0, 0.75});
  report.counters["cycles"] = 5000.0;
  report.referenceWarnings.push_back("NaN");
  report.cycles = 1234.0;

  llvm::Expected<EvaluationReport> parsed =
      EvaluationReport::fromJSON(report.toJSON());
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  EXPECT_EQ(parsed->kernel, "k");
  EXPECT_EQ(parsed->candidate, "n3");
  EXPECT_EQ(parsed->target, "riscv");
  EXPECT_EQ(parsed->threads, 2u);
  EXPECT_EQ(parsed->seeds, 3u);
  EXPECT_TRUE(parsed->correct);
  EXPECT_DOUBLE_EQ(parsed->maxAbsError, 1e-6);
  ASSERT_TRUE(parsed->timing.has_value());
  EXPECT_DOUBLE_EQ(parsed->timing->medianNs, 2000.0);
  EXPECT_DOUBLE_EQ(parsed->timing->minNs, 1800.0);
  EXPECT_EQ(parsed->timing->runs, 40);
  EXPECT_DOUBLE_EQ(parsed->work.flops, 4000.0);
  EXPECT_EQ(parsed->bound, "memory");
  EXPECT_EQ(parsed->peakGflops, std::optional<double>(100.0));
  EXPECT_FALSE(parsed->peakGbps.has_value());
  ASSERT_EQ(parsed->regions.size(), 1u);
  EXPECT_EQ(parsed->regions[0].name, "matmul");
  EXPECT_DOUBLE_EQ(parsed->regions[0].share, 0.75);
  EXPECT_DOUBLE_EQ(parsed->counters["cycles"], 5000.0);
  EXPECT_EQ(parsed->referenceWarnings.size(), 1u);
  EXPECT_EQ(parsed->cycles, std::optional<double>(1234.0));
  // Printed again, it is the same line.
  std::string first, second;
  llvm::raw_string_ostream(first) << report.toJSON();
  llvm::raw_string_ostream(second) << parsed->toJSON();
  EXPECT_EQ(first, second);
}

TEST(EvaluationReportTest, AStaticCostHasNoRates) {
  EvaluationReport report;
  report.timing = TimingResult{500.0, 500.0, 1};
  report.work.flops = 1000.0;
  report.timeSource = "static cost: ...";
  llvm::json::Value value = report.toJSON();
  EXPECT_EQ(value.getAsObject()->get("gflops")->kind(),
            llvm::json::Value::Null);
  report.timeSource = "measured";
  EXPECT_EQ(*report.toJSON().getAsObject()->getNumber("gflops"), 2.0);
}

TEST(EvaluationReportTest, RejectsWhatIsNotAnObject) {
  llvm::Expected<EvaluationReport> parsed = EvaluationReport::parse("[1]");
  EXPECT_FALSE(static_cast<bool>(parsed));
  llvm::consumeError(parsed.takeError());
}
