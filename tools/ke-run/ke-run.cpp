//===- ke-run.cpp - the ke hardware interpreter ---------------------------===//
//
// Lowers each kernel of a file, runs it next to its reference on seeded
// inputs, checks the outputs, times it and prints one JSON line per kernel.
// The search runs it as a subprocess, so a kernel that crashes or hangs costs
// one evaluation, never the search; crash containment turns such kernels
// into a reported failure instead of a silent death. The evaluation itself
// is lib/Eval's evaluateKernel.
//
//===----------------------------------------------------------------------===//

#include "RunOptions.h"
#include "../ToolMains.h"

#include "ke/Eval/CrashContainment.h"
#include "ke/Eval/EvaluateKernel.h"
#include "ke/Eval/GPUPeaks.h"
#include "ke/Eval/KernelJobs.h"
#include "ke/Eval/Roofline.h"
#include "ke/InitKe.h"
#include "ke/Target/TargetInfo.h"
#include "ke/KeDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>

using namespace mlir;
using namespace ke::eval;

/// GPU targets: the device's bandwidth and FMA peak, cached per device.
static int runGPUCalibration() {
  llvm::Expected<MachinePeaks> peaks =
      getOrCalibrateGPUPeaks(/*recalibrate=*/true);
  if (!peaks) {
    llvm::errs() << "ke-run: --calibrate: " << llvm::toString(peaks.takeError())
                 << "\n";
    return 1;
  }
  llvm::outs() << llvm::json::Value(llvm::json::Object{
                      {"gflops", peaks->gflops},
                      {"gbps", peaks->gbps},
                      {"device", peaks->cpu},
                      {"method", peaks->isa},
                      {"cache", getGPUPeaksCachePath(peaks->cpu)}})
               << "\n";
  return 0;
}

static int runCalibration(unsigned threads) {
  MachinePeaks peaks = calibrate(threads);
  std::string path = getPeaksCachePath(threads);
  if (llvm::Error error = savePeaks(peaks, path))
    llvm::errs() << "ke-run: warning: cannot cache the peaks: "
                 << llvm::toString(std::move(error)) << "\n";
  llvm::outs() << llvm::json::Value(
                      llvm::json::Object{{"gflops", peaks.gflops},
                                         {"gbps", peaks.gbps},
                                         {"threads", peaks.threads},
                                         {"cpu", peaks.cpu},
                                         {"isa", peaks.isa},
                                         {"cache", path}})
               << "\n";
  return 0;
}

static OwningOpRef<ModuleOp> parseFile(llvm::StringRef filename,
                                       MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr) {
  std::string message;
  auto file = openInputFile(filename, &message);
  if (!file) {
    llvm::errs() << "ke-run: cannot open '" << filename << "': " << message
                 << "\n";
    return nullptr;
  }
  // Each file gets its own SourceMgr: the parser reads a manager's main file.
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    llvm::errs() << "ke-run: cannot parse '" << filename << "'\n";
  return module;
}

/// The report file (--report), created empty before any kernel code runs
/// so that no earlier verdict survives in it.
static std::unique_ptr<llvm::raw_fd_ostream> openReport(llvm::StringRef path) {
  if (path.empty())
    return nullptr;
  std::error_code error;
  auto stream = std::make_unique<llvm::raw_fd_ostream>(path, error);
  if (error) {
    llvm::errs() << "ke-run: cannot write the report '" << path
                 << "': " << error.message() << "\n";
    std::exit(2);
  }
  return stream;
}

/// Evaluates `job` with crashes and hangs contained.
static EvaluationReport evaluateContained(const KernelJob &job,
                                          const EvaluationOptions &options) {
  EvaluationReport report;
  report.kernel = job.name;
  report.candidate = job.candidate;
  report.target = std::string(options.getTarget().name);
  report.threads = options.threads;
  report.seeds = options.seeds;
  report.profiled = options.profile;
  llvm::Error error = llvm::Error::success();
  // Other runners bound their child processes with limits of their own.
  unsigned alarmSeconds =
      options.getTarget().runsInProcess() ? options.timeoutSeconds : 0;
  // A search's output (ke.selected) carries its schedule: lowered as the
  // search measured it, with no schedule of ke-run's own.
  EvaluationOptions jobOptions = options;
  jobOptions.naive |= job.evaluated->hasAttr(ke::KeDialect::kSelectedAttrName);
  std::optional<std::string> crash = runContained(
      [&] { error = evaluateKernel(job, jobOptions, report); }, alarmSeconds);
  if (crash) {
    llvm::consumeError(std::move(error));
    report.correct = false;
    report.timing.reset();
    std::string stage = getEvaluationStage();
    report.error = stage + ": the kernel " + *crash;
    // A reference that crashes on its own inputs most often read an index
    // input out of range: say which inputs have no range.
    if (stage == "run reference")
      report.error += describeUnrangedIntegers(job.reference);
  } else if (error) {
    report.correct = false;
    report.error = llvm::toString(std::move(error));
  }
  return report;
}

int keRunMain(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  std::optional<RunCommand> command = parseRunCommandLine(argc, argv);
  if (!command)
    return 2;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // ke-lower-transposes-to-avx's blends are inline assembly.
  llvm::InitializeNativeTargetAsmParser();
  const EvaluationOptions &options = command->evaluation;
  // Multi-threaded kernels (OpenMP) use exactly the threads they were given.
  setenv("OMP_NUM_THREADS", std::to_string(options.threads).c_str(),
         /*overwrite=*/1);
  if (command->calibrateOnly)
    return options.target &&
                   options.target->isGPU()
               ? runGPUCalibration()
               : runCalibration(options.threads);
  std::unique_ptr<llvm::raw_fd_ostream> reportStream =
      openReport(command->reportPath);
  if (command->inputFilename.empty()) {
    llvm::errs() << "ke-run: no input file (see --help)\n";
    return 2;
  }
  if (!options.target) {
    llvm::errs() << "ke-run: unknown target '" << command->targetName
                 << "'; expected one of " << ke::getTargetNameList() << "\n";
    return 2;
  }

  DialectRegistry registry;
  ke::registerEverything(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseFile(command->inputFilename, context, sourceMgr);
  if (!module)
    return 2;
  OwningOpRef<ModuleOp> referenceModule;
  llvm::SourceMgr referenceSourceMgr;
  if (!command->referenceFilename.empty()) {
    referenceModule =
        parseFile(command->referenceFilename, context, referenceSourceMgr);
    if (!referenceModule)
      return 2;
  }
  KernelSelection selection;
  selection.filename = command->inputFilename;
  selection.kernel = command->kernel;
  selection.candidate = command->candidate;
  selection.referenceModule = referenceModule ? *referenceModule : ModuleOp();
  selection.referenceFilename = command->referenceFilename;
  FailureOr<llvm::SmallVector<KernelJob>> jobs =
      collectKernelJobs(*module, selection);
  if (failed(jobs))
    return 2;

  installCrashHandlers();
  // After parsing and loading: the bound is for the kernels' data.
  if (std::string problem = setMemoryLimit(command->memoryLimitMB);
      !problem.empty())
    llvm::errs() << "ke-run: warning: cannot set the memory limit: " << problem
                 << "\n";
  bool allCorrect = true;
  for (const KernelJob &job : *jobs) {
    EvaluationReport report = evaluateContained(job, options);
    allCorrect &= report.correct;
    if (!command->json && !reportStream) {
      report.printSummary(llvm::outs());
      continue;
    }
    llvm::json::Value line = report.toJSON();
    if (reportStream) {
      *reportStream << line << "\n";
      reportStream->flush();
    }
    if (command->json) {
      llvm::outs() << line << "\n";
      llvm::outs().flush();
    }
  }
  return allCorrect ? 0 : 1;
}
