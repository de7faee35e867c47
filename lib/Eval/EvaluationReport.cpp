//===- EvaluationReport.cpp - the evaluation report and its JSON ----------===//
//
// toJSON and fromJSON are written side by side so that what ke-run prints
// and what the search reads back cannot drift apart.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/EvaluationReport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace ke::eval;
namespace json = llvm::json;

bool EvaluationReport::hasStaticCost() const {
  return llvm::StringRef(timeSource).starts_with("static");
}

std::optional<double> EvaluationReport::getMedianNs() const {
  if (timing && timing->medianNs > 0)
    return timing->medianNs;
  return std::nullopt;
}

static json::Value orNull(const std::string &text) {
  return text.empty() ? json::Value(nullptr) : json::Value(text);
}

json::Value EvaluationReport::toJSON() const {
  json::Object object{{"kernel", kernel},
                      {"candidate", candidate},
                      {"target", target},
                      {"threads", threads},
                      {"correct", correct},
                      {"max_abs_err", maxAbsError},
                      {"max_rel_err", maxRelError},
                      {"flops", work.flops},
                      {"bytes", work.bytes},
                      {"seeds", seeds},
                      {"error", orNull(error)}};
  object["time_source"] = timeSource;
  if (!outputs.empty())
    object["outputs"] = outputs;
  if (!temporaries.empty())
    object["temporaries"] = temporaries;
  if (!timedInputs.empty())
    object["timed_inputs"] = timedInputs;
  if (!precision.empty())
    object["precision"] = precision;
  if (roundingAllowance > 0.0)
    object["rounding_allowance"] = roundingAllowance;
  if (!implausibleTiming.empty())
    object["implausible_timing"] = implausibleTiming;
  if (!referenceWarnings.empty()) {
    json::Array warnings;
    for (const std::string &warning : referenceWarnings)
      warnings.push_back(warning);
    object["reference_warnings"] = std::move(warnings);
  }
  if (expected)
    object["expected"] = json::Object{{"file", expected->file},
                                      {"max_abs_err", expected->maxAbsError},
                                      {"max_rel_err", expected->maxRelError}};
  if (compiled)
    object["compiled"] = *compiled;
  if (runnable) {
    object["runnable"] = *runnable;
    if (!*runnable)
      object["not_runnable"] = notRunnable;
  }
  if (gpuCode)
    object["gpu_code"] = *gpuCode;
  if (cycles)
    object["cycles"] = *cycles;
  if (std::optional<double> medianNs = getMedianNs()) {
    object["time_ns"] = json::Object{{"median", timing->medianNs},
                                     {"min", timing->minNs},
                                     {"runs", timing->runs}};
    bool isCost = hasStaticCost();
    object["gflops"] =
        isCost ? json::Value(nullptr) : json::Value(work.flops / *medianNs);
    object["gbps"] =
        isCost ? json::Value(nullptr) : json::Value(work.bytes / *medianNs);
  } else {
    object["time_ns"] = nullptr;
    object["gflops"] = nullptr;
    object["gbps"] = nullptr;
  }
  object["bound"] = orNull(bound);
  if (peakGflops)
    object["peak_gflops"] = *peakGflops;
  if (peakGbps)
    object["peak_gbps"] = *peakGbps;
  if (profiled) {
    json::Array regionArray;
    for (const Region &region : regions)
      regionArray.push_back(json::Object{{"region", region.name},
                                         {"time_ns", region.nsPerCall},
                                         {"share", region.share}});
    object["profile"] = std::move(regionArray);
    if (!profileError.empty())
      object["profile_error"] = profileError;
    if (countersError.empty() && !counters.empty()) {
      json::Object counterObject;
      for (auto &[name, value] : counters)
        counterObject[name] = value;
      object["counters"] = std::move(counterObject);
    } else {
      object["counters"] = nullptr;
      object["counters_error"] = orNull(countersError);
    }
  }
  return json::Value(std::move(object));
}

llvm::Expected<EvaluationReport>
EvaluationReport::fromJSON(const json::Value &value) {
  const json::Object *object = value.getAsObject();
  if (!object)
    return llvm::createStringError("an evaluation report is a JSON object");
  EvaluationReport report;
  auto readString = [&](llvm::StringRef key, std::string &into) {
    if (std::optional<llvm::StringRef> text = object->getString(key))
      into = text->str();
  };
  readString("kernel", report.kernel);
  readString("candidate", report.candidate);
  readString("target", report.target);
  readString("error", report.error);
  readString("time_source", report.timeSource);
  readString("outputs", report.outputs);
  readString("temporaries", report.temporaries);
  readString("timed_inputs", report.timedInputs);
  readString("precision", report.precision);
  readString("bound", report.bound);
  readString("not_runnable", report.notRunnable);
  readString("profile_error", report.profileError);
  readString("counters_error", report.countersError);
  if (std::optional<int64_t> threads = object->getInteger("threads"))
    report.threads = static_cast<unsigned>(*threads);
  if (std::optional<int64_t> seeds = object->getInteger("seeds"))
    report.seeds = static_cast<unsigned>(*seeds);
  if (std::optional<bool> correct = object->getBoolean("correct"))
    report.correct = *correct;
  report.maxAbsError = object->getNumber("max_abs_err").value_or(0.0);
  report.maxRelError = object->getNumber("max_rel_err").value_or(0.0);
  report.roundingAllowance =
      object->getNumber("rounding_allowance").value_or(0.0);
  report.work.flops = object->getNumber("flops").value_or(0.0);
  report.work.bytes = object->getNumber("bytes").value_or(0.0);
  report.peakGflops = object->getNumber("peak_gflops");
  report.peakGbps = object->getNumber("peak_gbps");
  report.cycles = object->getNumber("cycles");
  report.compiled = object->getBoolean("compiled");
  report.runnable = object->getBoolean("runnable");
  if (const json::Value *code = object->get("gpu_code"))
    report.gpuCode = *code;
  if (const json::Object *time = object->getObject("time_ns"))
    if (std::optional<double> median = time->getNumber("median"))
      report.timing =
          TimingResult{*median, time->getNumber("min").value_or(*median),
                       static_cast<int>(time->getInteger("runs").value_or(1))};
  // A report that gives rates but not the work (another tool's, an older
  // ke-run's) still has its work: the rate times the time.
  if (std::optional<double> medianNs = report.getMedianNs()) {
    if (!object->getNumber("flops"))
      report.work.flops = object->getNumber("gflops").value_or(0) * *medianNs;
    if (!object->getNumber("bytes"))
      report.work.bytes = object->getNumber("gbps").value_or(0) * *medianNs;
  }
  if (std::optional<llvm::StringRef> implausible =
          object->getString("implausible_timing"))
    report.implausibleTiming = implausible->str();
  if (const json::Array *warnings = object->getArray("reference_warnings"))
    for (const json::Value &warning : *warnings)
      if (std::optional<llvm::StringRef> text = warning.getAsString())
        report.referenceWarnings.push_back(text->str());
  if (const json::Object *expected = object->getObject("expected"))
    report.expected = ExpectedCheck{
        expected->getString("file").value_or("").str(),
        expected->getNumber("max_abs_err").value_or(0.0),
        expected->getNumber("max_rel_err").value_or(0.0)};
  if (const json::Array *profile = object->getArray("profile")) {
    report.profiled = true;
    for (const json::Value &entry : *profile)
      if (const json::Object *region = entry.getAsObject())
        report.regions.push_back(
            {region->getString("region").value_or("?").str(),
             region->getNumber("time_ns").value_or(0.0),
             region->getNumber("share").value_or(0.0)});
  }
  if (const json::Object *counters = object->getObject("counters"))
    for (const auto &[name, count] : *counters)
      if (std::optional<double> number = count.getAsNumber())
        report.counters[name.str()] = *number;
  return report;
}

llvm::Expected<EvaluationReport>
EvaluationReport::parse(llvm::StringRef jsonText) {
  llvm::Expected<json::Value> value = json::parse(jsonText);
  if (!value)
    return value.takeError();
  return fromJSON(*value);
}

void EvaluationReport::printSummary(llvm::raw_ostream &os) const {
  os << kernel << " [" << candidate << "] on " << target << ": "
     << (correct ? "correct" : "NOT correct");
  double medianNs = timing ? timing->medianNs : 0.0;
  if (timing && hasStaticCost())
    os << llvm::formatv(", static cost {0:f0} (not a time)", medianNs);
  else if (timing)
    os << llvm::formatv(", median {0:f1} us, {1:f2} GFLOP/s, {2:f2} GB/s",
                        medianNs / 1e3, work.flops / medianNs,
                        work.bytes / medianNs);
  if (expected)
    os << llvm::formatv("\n  matches {0} (max abs error {1:e}, max rel error "
                        "{2:e})",
                        expected->file, expected->maxAbsError,
                        expected->maxRelError);
  if (runnable && !*runnable)
    os << "\n  not run: " << notRunnable;
  if (!error.empty())
    os << "\n  error: " << error;
  for (const Region &region : regions)
    os << llvm::formatv("\n  {0,5:f1}%  {1,10:f1} us  {2}", region.share * 100,
                        region.nsPerCall / 1e3, region.name);
  if (profiled && !countersError.empty())
    os << "\n  counters: unavailable: " << countersError;
  else if (profiled && counters.count("cycles"))
    os << llvm::formatv(
        "\n  counters: {0:f0} cycles, {1:f0} instructions (IPC {2:f2}), "
        "{3:f0} cache misses per call",
        counters.at("cycles"), counters.at("instructions"),
        counters.at("instructions") / std::max(1.0, counters.at("cycles")),
        counters.at("cache_misses"));
  os << "\n";
}
