//===- Evolve.cpp - ke-evolve: the tree search ----------------------------===//
//
// The pass around the search: it validates every option before anything is
// written, opens (or resumes) the run in the database, sets up the LLM
// session, searches each kernel (KernelSearch.cpp) and prints the table.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/Evaluator.h"
#include "ke/Eval/RISCVRunner.h"
#include "ke/KeDialect.h"
#include "ke/Propose/LLMSession.h"
#include "ke/Search/KernelSearch.h"
#include "ke/Search/SearchSession.h"
#include "ke/Search/SearchSummary.h"
#include "ke/Search/StopSignals.h"
#include "ke/Search/TuningSpecExport.h"
#include "ke/Search/WorkDirectory.h"
#include "ke/Store/Store.h"
#include "ke/Target/TargetInfo.h"
#include "ke/Search/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <sys/resource.h>
#include <unistd.h>

namespace ke {
#define GEN_PASS_DEF_KEEVOLVE
#include "ke/Search/Passes.h.inc"
} // namespace ke

using namespace mlir;
using namespace ke;
using namespace ke::search;

namespace {
struct EvolvePass : ke::impl::KeEvolveBase<EvolvePass> {
  using Base::Base;
  template <typename PassT>
  friend propose::LLMSessionOptions
  ke::search::getLLMSessionOptions(const PassT &pass);

  void runOnOperation() override;

private:
  std::string optionsJson() const;
  /// Writes the run's tuning spec to `spec` (a warning when it cannot).
  void writeSpec(store::Store &store, int64_t runId);

  // Shared, not unique: passes are copyable (the pass manager clones them).
  std::shared_ptr<store::Store> database;
  int64_t run = 0;
  std::string keRun, workDirectory;
  unsigned effectiveMemoryLimit = 0;
  std::vector<KernelSummary> summaries;
  std::shared_ptr<propose::LLMSession> llmSession;
  const TargetInfo *targetInfo = nullptr;
};

/// An option's value, or the environment variable that stands in for it.
static std::string fromEnvironment(const std::string &option,
                                   const char *variable) {
  if (!option.empty())
    return option;
  const char *value = std::getenv(variable);
  return value ? value : "";
}

std::string EvolvePass::optionsJson() const {
  llvm::json::Object object{{"target", target.getValue()},
                            {"budget", budget.getValue()},
                            {"time_limit", timeLimit.getValue()},
                            {"stall", stall.getValue()},
                            {"target_speedup", targetSpeedup.getValue()},
                            {"workers", workers.getValue()},
                            {"threads", threads.getValue()},
                            {"seed", static_cast<int64_t>(seed.getValue())},
                            {"seeds", seeds.getValue()},
                            {"proposer", proposer.getValue()},
                            {"default_variants", defaultVariants.getValue()},
                            // What the session will use: the option, else
                            // the environment (LLMConfig::resolve's order).
                            {"llm_provider", fromEnvironment(llmProvider,
                                                             "KE_LLM_PROVIDER")},
                            {"llm_model",
                             fromEnvironment(llmModel, "KE_LLM_MODEL")},
                            {"llm_reply", llmReply.getValue()},
                            {"llm_context", llmContext.getValue()},
                            {"llm_mode", llmMode.getValue()},
                            {"skills", skills.getValue()},
                            {"exploration", exploration.getValue()},
                            {"cost_model", costModel.getValue()},
                            {"cost_model_pool", costModelPool.getValue()},
                            {"cost_model_trust", costModelTrust.getValue()},
                            {"confirm", confirm.getValue()}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  return text;
}

void EvolvePass::writeSpec(store::Store &store, int64_t runId) {
  ModuleOp module = getOperation();
  std::vector<std::string> notes;
  llvm::Expected<std::string> text =
      exportTuningSpec(store, runId, &getContext(), notes);
  if (!text) {
    module.emitWarning() << "ke-evolve: no tuning spec: "
                         << llvm::toString(text.takeError());
    return;
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(spec, ec);
  if (ec) {
    module.emitWarning() << "ke-evolve: cannot write the tuning spec '" << spec
                         << "': " << ec.message();
    return;
  }
  out << *text;
  for (const std::string &note : notes)
    module.emitRemark() << "ke-evolve: tuning spec: " << note;
}

void EvolvePass::runOnOperation() {
  ModuleOp module = getOperation();
  targetInfo = lookupTarget(target.getValue());
  if (!targetInfo) {
    module.emitError() << "ke-evolve: unknown target '" << target
                       << "'; expected one of " << getTargetNameList();
    return signalPassFailure();
  }
  if (targetInfo->runner == RunnerKind::Emulator) {
    if (llvm::Error error = eval::checkRISCVTools()) {
      module.emitError() << "ke-evolve: " << llvm::toString(std::move(error));
      return signalPassFailure();
    }
  }
  if (!llvm::is_contained({"library", "llm", "mixed", "file"},
                          proposer.getValue())) {
    module.emitError() << "ke-evolve: unknown proposer '" << proposer
                       << "'; expected library, llm, mixed or file";
    return signalPassFailure();
  }
  if (!llvm::is_contained({"on", "off", "auto"}, profile.getValue())) {
    module.emitError() << "ke-evolve: profile must be on, off or auto, not '"
                       << profile << "'";
    return signalPassFailure();
  }
  // Every number is checked before anything is written, with its range.
  auto outOfRange = [&](llvm::StringRef option, double value,
                        llvm::StringRef range) {
    InFlightDiagnostic error = module.emitError();
    error << "ke-evolve: " << option << " must be " << range << ", found ";
    // Whole numbers as such (1e+08 reads badly for a memory size).
    if (std::isfinite(value) && value == std::floor(value) &&
        std::fabs(value) < 1e15)
      error << static_cast<int64_t>(value);
    else
      error << value;
    signalPassFailure();
  };
  auto finiteAtLeast = [](double value, double least) {
    return std::isfinite(value) && value >= least;
  };
  if (budget < 0)
    return outOfRange("budget", budget, ">= 0 (0: no limit)");
  if (!finiteAtLeast(timeLimit, 0))
    return outOfRange("time-limit", timeLimit, ">= 0 seconds (0: no limit)");
  if (stall < 0)
    return outOfRange("stall", stall, ">= 0 (0: never stop for a stall)");
  if (!finiteAtLeast(targetSpeedup, 0))
    return outOfRange("target-speedup", targetSpeedup, ">= 0 (0: none)");
  if (workers < 1)
    return outOfRange("workers", workers, ">= 1");
  if (threads < 1)
    return outOfRange("threads", threads, ">= 1");
  if (seeds < 1)
    return outOfRange("seeds", seeds, ">= 1");
  if (!std::isfinite(costModelTrust))
    return outOfRange("cost-model-trust", costModelTrust, "a finite number");
  if (costModelPool < 1)
    return outOfRange("cost-model-pool", costModelPool, ">= 1");
  if (!finiteAtLeast(exploration, 0))
    return outOfRange("exploration", exploration, "a finite number >= 0");
  if (evalTimeout < 1)
    return outOfRange("eval-timeout", evalTimeout, ">= 1 second");
  if (memoryLimit != 0 && memoryLimit < 256)
    return outOfRange("memory-limit", memoryLimit,
                      "0 (no limit) or >= 256 MB (the JIT alone needs more "
                      "than that)");
  // The workers' bounds together must fit the machine: an explicit limit
  // that does not is refused, the default shrinks to fit.
  effectiveMemoryLimit = memoryLimit;
  uint64_t machineMB = (uint64_t(sysconf(_SC_PHYS_PAGES)) *
                        uint64_t(sysconf(_SC_PAGE_SIZE))) >> 20;
  if (memoryLimit != 0 && machineMB > 0 &&
      uint64_t(memoryLimit) * workers > machineMB) {
    if (memoryLimit.getNumOccurrences())
      return outOfRange(
          "memory-limit", memoryLimit,
          llvm::formatv("at most {0} MB: workers={1} processes of that size "
                        "exceed this machine's {2} MB of memory",
                        machineMB / workers, workers.getValue(), machineMB)
              .str());
    effectiveMemoryLimit =
        std::max<unsigned>(256, unsigned(machineMB / workers));
    module.emitRemark() << "ke-evolve: memory-limit lowered to "
                        << effectiveMemoryLimit << " MB per worker: " << workers
                        << " x the default " << memoryLimit << " MB exceeds "
                        << "this machine's " << machineMB << " MB";
  }
  if (!finiteAtLeast(minTime, 0))
    return outOfRange("min-time", minTime, ">= 0 seconds");
  if (!inputs.empty() && !llvm::sys::fs::is_regular_file(inputs.getValue())) {
    module.emitError() << "ke-evolve: inputs=" << inputs
                       << " is not a file (a ke tensor file: ke-import "
                          "writes one, and bench/kernelbench_torch.py "
                          "--tensors)";
    return signalPassFailure();
  }
  if (proposer == "file" && proposals.empty()) {
    module.emitError() << "ke-evolve: proposer=file needs proposals=<file>";
    return signalPassFailure();
  }
  std::optional<std::string> found = keRunPath.empty()
                                         ? eval::findKeRun()
                                         : std::optional(keRunPath.getValue());
  if (!found || !llvm::sys::fs::can_execute(*found)) {
    module.emitError() << "ke-evolve: cannot find ke-run (set ke-run=<path> "
                          "or $KE_RUN, or put it on PATH)";
    return signalPassFailure();
  }
  keRun = *found;

  if (failed(inlineHelperCalls(module, "ke-evolve")))
    return signalPassFailure();
  SmallVector<func::FuncOp> kernels;
  for (auto function : module.getOps<func::FuncOp>())
    if (function->hasAttr(KeDialect::kKernelAttrName) && !function.isExternal())
      kernels.push_back(function);
  if (kernels.empty()) {
    module.emitWarning() << "ke-evolve: no func.func tagged ke.kernel; "
                            "nothing to optimize";
    return;
  }

  auto opened = store::Store::open(db);
  if (!opened) {
    module.emitError() << "ke-evolve: " << llvm::toString(opened.takeError());
    return signalPassFailure();
  }
  database = std::move(*opened);
  std::string inputHash = hashText(printOp(module));
  std::optional<int64_t> previous;
  if (resume) {
    auto latest = database->findLatestRun(inputHash);
    if (!latest) {
      module.emitError() << "ke-evolve: " << llvm::toString(latest.takeError());
      return signalPassFailure();
    }
    previous = *latest;
    if (!previous)
      module.emitRemark() << "ke-evolve: nothing to resume in '" << db
                          << "' for this input; starting a new run";
  }
  if (previous) {
    run = *previous;
    // One process at a time resumes a run; a lease whose holder died (or,
    // from another host, went silent for longer than any evaluation may
    // take) is taken over.
    double staleSeconds = std::max(600.0, 4.0 * evalTimeout);
    if (llvm::Error error = database->acquireRun(run, staleSeconds)) {
      module.emitError() << "ke-evolve: " << llvm::toString(std::move(error));
      return signalPassFailure();
    }
  } else {
    auto begun = database->beginRun(inputHash, optionsJson());
    if (!begun) {
      module.emitError() << "ke-evolve: " << llvm::toString(begun.takeError());
      return signalPassFailure();
    }
    run = *begun;
  }

  if (proposer == "llm" || proposer == "mixed") {
    propose::LLMSessionOptions options = getLLMSessionOptions(*this);
    options.proposer.skills = skills ? 3 : 0;
    FailureOr<std::unique_ptr<propose::LLMSession>> session =
        openLLMSession(*database, run, options, module, "ke-evolve");
    if (failed(session))
      return signalPassFailure();
    llmSession = std::move(*session);
  }

  unsigned abandoned = 0;
  llvm::Expected<std::string> directory =
      search::createWorkDirectory(abandoned, workDir);
  if (!directory) {
    module.emitError() << "ke-evolve: "
                       << llvm::toString(directory.takeError());
    return signalPassFailure();
  }
  if (abandoned)
    module.emitRemark() << "ke-evolve: removed " << abandoned
                        << " work folder(s) left by searches that were "
                           "killed";
  workDirectory = std::move(*directory);

  KernelSearchOptions options;
  options.targetInfo = targetInfo;
  options.target = target;
  options.budget = budget;
  options.timeLimit = timeLimit;
  options.stall = stall;
  options.targetSpeedup = targetSpeedup;
  options.workers = workers;
  options.threads = threads;
  options.seed = seed;
  options.seeds = seeds;
  options.minTime = minTime;
  options.inputs = inputs;
  options.evalTimeout = evalTimeout;
  options.memoryLimit = effectiveMemoryLimit;
  options.profile = profile;
  options.proposer = proposer;
  options.proposals = proposals;
  options.defaultVariants = defaultVariants;
  options.skills = skills;
  options.warmStart = warmStart;
  options.keepTree = keepTree;
  options.exploration = exploration;
  options.costModel = costModel;
  options.costModelPool = costModelPool;
  options.costModelTrust = costModelTrust;
  options.confirm = confirm;
  options.keRun = keRun;
  options.workDirectory = workDirectory;
  options.executor = executor;
  options.slurmArgs = slurmArgs;
  SearchResources resources{database.get(), run, llmSession.get(), module};
  bool failedAny = false;
  int stoppedBy = 0;
  {
    ScopedStopSignals stopSignals;
    for (auto [index, kernel] : llvm::enumerate(kernels)) {
      if ((stoppedBy = getStopSignal()))
        break; // the kernels not searched yet are left as they are
      KernelSummary summary;
      if (failed(searchKernel(kernel, index, options, resources, summary)))
        failedAny = true;
      summaries.push_back(std::move(summary));
    }
    stoppedBy = getStopSignal();
  }
  llvm::sys::fs::remove_directories(workDirectory);
  llvm::StringRef status =
      failedAny ? "failed" : (stoppedBy ? "interrupted" : "finished");
  if (llvm::Error error = database->finishRun(run, status))
    module.emitWarning() << "ke-evolve: " << llvm::toString(std::move(error));

  printSummaryTable(run, db, summaries);
  // What the search process itself spent (proposing, preparing payloads,
  // writing files, reading reports, the database), evaluations apart: the
  // number that says how many workers one coordinator can feed.
  int evaluated = 0;
  for (const KernelSummary &summary : summaries)
    evaluated += summary.evaluated;
  struct rusage usage;
  if (evaluated > 0 && getrusage(RUSAGE_SELF, &usage) == 0) {
    double seconds = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    llvm::errs() << llvm::formatv("ke-evolve: coordinator CPU {0:f2} s, "
                                  "{1:f0} ms per candidate evaluated\n",
                                  seconds, 1e3 * seconds / evaluated);
  }
  if (!spec.empty())
    writeSpec(*database, run);
  // The best so far replaces each searched kernel as on a normal end, so a
  // stopped search still writes its output.
  if (stoppedBy)
    module.emitWarning() << "ke-evolve: stopped by "
                         << (stoppedBy == SIGINT ? "SIGINT" : "SIGTERM")
                         << "; every evaluated candidate is in '" << db
                         << "', resume=true goes on from there";
  if (failedAny)
    signalPassFailure();
}

} // namespace
