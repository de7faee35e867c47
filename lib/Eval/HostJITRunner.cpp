//===- HostJITRunner.cpp - candidates JIT-compiled and run in-process -----===//
//
// The CPU target: the candidate is lowered with ke's CPU pipeline, JIT-
// compiled, timed with a monotonic clock, and (with a profile) run once more
// instrumented by region and under hardware counters.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/PrepareForLowering.h"
#include "ke/Eval/CPURunner.h"
#include "ke/Eval/HardwareCounters.h"
#include "ke/Eval/KernelHeap.h"
#include "ke/Eval/ProbeRuntime.h"
#include "ke/Eval/Roofline.h"
#include "ke/Eval/TargetRunner.h"
#include "ke/Eval/Timing.h"
#include "ke/KeDialect.h"
#include "ke/Support/DiagnosticCollector.h"
#include "ke/Target/CPUPipeline.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <algorithm>
#include <chrono>
#include <map>

using namespace mlir;
using namespace ke::eval;

namespace {
class HostJITRunner : public TargetRunner {
public:
  explicit HostJITRunner(const EvaluationOptions &options)
      : options(options) {
    lowering.naive = options.naive;
    lowering.vectorWidth = options.vectorWidth;
    lowering.outParams = options.callerOutputs;
    setKernelHeapReuse(options.reuseTemporaries);
  }

  llvm::Error compile(const KernelJob &kernelJob,
                      const KernelSignature &kernelSignature) override {
    job = kernelJob;
    signature = &kernelSignature;
    auto compiled = CPUKernel::compile(job.evaluated, lowering, *signature);
    if (!compiled)
      return compiled.takeError();
    candidate = std::move(*compiled);
    return llvm::Error::success();
  }

  llvm::Error run(llvm::ArrayRef<HostTensor> inputs,
                  llvm::SmallVectorImpl<HostTensor> &outputs) override {
    return candidate->run(inputs, &outputs);
  }

  llvm::Error measure(llvm::ArrayRef<HostTensor> inputs,
                      EvaluationReport &report) override;

private:
  llvm::Error profileRegions(llvm::ArrayRef<HostTensor> inputs, int runs,
                             EvaluationReport &report);

  const EvaluationOptions &options;
  ke::LowerCPUOptions lowering;
  KernelJob job;
  const KernelSignature *signature = nullptr;
  std::unique_ptr<CPUKernel> candidate;
};
} // namespace

/// How far above the measured FMA peak a time may imply before it is
/// doubted: the peak is measured, so some margin for noise in it.
static constexpr double kImplausiblePeakFactor = 1.5;

std::unique_ptr<TargetRunner>
ke::eval::createHostJITRunner(const EvaluationOptions &options) {
  return std::make_unique<HostJITRunner>(options);
}

llvm::Error HostJITRunner::measure(llvm::ArrayRef<HostTensor> inputs,
                                   EvaluationReport &report) {
  if (options.checkOnly)
    return llvm::Error::success();
  setEvaluationStage("timing");
  report.outputs = options.callerOutputs ? "caller" : "kernel";
  report.temporaries = options.reuseTemporaries ? "reused" : "system";
  // Checks poison reused temporaries; timed calls get them as they are.
  setKernelHeapPoison(false);
  llvm::scope_exit poisonAgain([] { setKernelHeapPoison(true); });
  TimingOptions timingOptions;
  timingOptions.minSeconds = options.minTimeSeconds;
  llvm::Error runError = llvm::Error::success();
  auto time = [&] {
    return ke::eval::measure(
        [&] {
          if (runError)
            return;
          runError = candidate->run(inputs, nullptr);
        },
        timingOptions);
  };
  report.timing = time();
  if (runError) {
    report.correct = false;
    return runError;
  }
  setEvaluationStage("calibrate");
  MachinePeaks peaks = getOrCalibratePeaks(options.threads);
  // A time below what the reference's FLOPs need at the measured peak is
  // measured again, and so is the peak (a cached one may have been measured
  // on a busy machine); if it stays, it is flagged.
  auto impliedGflops = [&] {
    return report.work.flops / std::max(1.0, report.timing->medianNs);
  };
  if (report.work.flops > 0 && impliedGflops() > kImplausiblePeakFactor *
                                                      peaks.gflops) {
    setEvaluationStage("calibrate again");
    MachinePeaks fresh = calibrate(options.threads);
    if (fresh.gflops > peaks.gflops) {
      // A cache we cannot write only costs a re-measurement next time.
      llvm::consumeError(
          savePeaks(fresh, getPeaksCachePath(options.threads)));
      peaks = fresh;
    }
    setEvaluationStage("timing again");
    timingOptions.minSeconds = std::max(0.2, 2 * options.minTimeSeconds);
    report.timing = time();
    if (runError) {
      report.correct = false;
      return runError;
    }
    if (impliedGflops() > kImplausiblePeakFactor * peaks.gflops)
      report.implausibleTiming = llvm::formatv(
          "measured twice, the time implies {0:f1} GFLOP/s, more than {1:f1}x "
          "the peak of {2:f1} GFLOP/s measured again: the timed call does not do "
          "the reference's work (a result computed once, or the work "
          "simplified away)",
          impliedGflops(), kImplausiblePeakFactor, peaks.gflops);
  }
  report.peakGflops = peaks.gflops;
  report.peakGbps = peaks.gbps;
  report.bound =
      getBoundName(classifyBound(report.work.flops, report.work.bytes, peaks))
          .str();
  if (!options.profile)
    return llvm::Error::success();
  setEvaluationStage("profile");
  int runs = std::clamp(report.timing->runs, 3, 20);
  // A profile is extra diagnosis: failing it loses no measured result.
  if (llvm::Error error = profileRegions(inputs, runs, report)) {
    report.regions.clear();
    report.profileError = llvm::toString(std::move(error));
  }
  if (auto counters = HardwareCounters::open()) {
    (*counters)->start();
    llvm::Error counterRunError = llvm::Error::success();
    for (int i = 0; i < runs && !counterRunError; ++i)
      counterRunError = candidate->run(inputs, nullptr);
    auto values = (*counters)->stop();
    if (counterRunError)
      report.countersError = llvm::toString(std::move(counterRunError));
    else
      for (auto &[name, value] : values)
        report.counters[name] = value / runs;
  } else {
    report.countersError = llvm::toString(counters.takeError());
  }
  return llvm::Error::success();
}

/// Runs an instrumented copy of the evaluated function `runs` times and
/// records each region's time per call and share of the call's time.
llvm::Error HostJITRunner::profileRegions(llvm::ArrayRef<HostTensor> inputs,
                                          int runs, EvaluationReport &report) {
  MLIRContext *context = job.evaluated.getContext();
  OwningOpRef<ModuleOp> module;
  func::FuncOp copy = cloneIntoNewModule(job.evaluated, module);
  {
    ke::DiagnosticCollector diagnostics(context);
    PassManager pm(context, ModuleOp::getOperationName());
    if (failed(parsePassPipeline("func.func(ke-instrument)", pm)) ||
        failed(pm.run(*module)))
      return llvm::createStringError("profile: " + diagnostics.str());
  }
  std::map<int64_t, std::string> names;
  copy.walk([&](ke::ProbeStartOp probe) {
    names[probe.getId()] = probe.getRegion().str();
  });
  auto instrumented = CPUKernel::compile(copy, lowering, *signature);
  if (!instrumented)
    return llvm::createStringError("profile " +
                                   llvm::toString(instrumented.takeError()));
  resetProbes();
  auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i)
    if (llvm::Error error = (*instrumented)->run(inputs, nullptr))
      return error;
  double wallNs = std::chrono::duration<double, std::nano>(
                      std::chrono::steady_clock::now() - started)
                      .count() /
                  runs;
  std::vector<RegionTime> times = readProbes();
  double inside = 0.0;
  for (auto [id, name] : names) {
    double ns = id < int64_t(times.size()) ? times[id].totalNs / runs : 0.0;
    inside += ns;
    report.regions.push_back({name, ns, wallNs > 0 ? ns / wallNs : 0.0});
  }
  // What no probe covers: ops between regions, allocation, the call itself.
  if (wallNs > inside)
    report.regions.push_back(
        {"(outside regions)", wallNs - inside, (wallNs - inside) / wallNs});
  return llvm::Error::success();
}
