//===- ke-run.cpp - the ke hardware interpreter ---------------------------===//
//
// Lowers each kernel of a file, runs it next to its reference on seeded
// inputs, checks the outputs, times it and prints one JSON line per kernel.
// The search runs it as a subprocess, so a kernel that crashes or hangs costs
// one evaluation, never the search; the signal and alarm handlers below turn
// such kernels into a reported failure instead of a silent death.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/CPURunner.h"
#include "ke/Eval/Compare.h"
#include "ke/Eval/GPUBundleWriter.h"
#include "ke/Eval/GPUCodeStats.h"
#include "ke/Eval/HardwareCounters.h"
#include "ke/Eval/IndexRange.h"
#include "ke/Eval/Inputs.h"
#include "ke/Eval/KernelSignature.h"
#include "ke/Eval/PrepareForLowering.h"
#include "ke/Eval/ProbeRuntime.h"
#include "ke/Eval/RISCVRunner.h"
#include "ke/Eval/Roofline.h"
#include "ke/Eval/Timing.h"
#include "ke/Eval/WorkEstimate.h"
#include "ke/InitKe.h"
#include "ke/KeDialect.h"
#include "ke/Runtime/GPUDriver.h"
#include "ke/Runtime/GPUBundle.h"
#include "ke/Support/DiagnosticCollector.h"
#include "ke/Target/CPUPipeline.h"
#include "ke/Target/GPUPipeline.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cmath>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <map>
#include <sys/resource.h>
#include <unistd.h>

using namespace mlir;
using namespace ke::eval;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("ke-run options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir file>"),
                                          cl::cat(runCategory));
static cl::opt<std::string>
    kernelName("kernel",
               cl::desc("Only this kernel (default: every kernel in the file)"),
               cl::cat(runCategory));
static cl::opt<std::string> candidateName(
    "candidate",
    cl::desc("For a ke.kernel: evaluate this candidate (default: the best "
             "correct candidate, else the reference)"),
    cl::cat(runCategory));
static cl::opt<std::string> targetName("target", cl::init("cpu"),
                                       cl::desc("cpu, nvgpu, amdgpu or riscv"),
                                       cl::cat(runCategory));
/// `--threads N`: libLLVM already registers a global cl::opt named
/// "threads", so ke-run takes this one out of argv before cl parses it.
static unsigned threads = 1;
static cl::opt<std::string> referenceFilename(
    "reference",
    cl::desc("Take the reference function (same name) from this file instead "
             "of the kernel itself"),
    cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::init(1), cl::desc("First input seed"),
                              cl::cat(runCategory));
static cl::opt<unsigned> numSeeds("seeds", cl::init(2),
                                  cl::desc("Input seeds checked (>= 1)"),
                                  cl::cat(runCategory));
static cl::opt<bool> emitJson("json",
                              cl::desc("Print one JSON line per kernel"),
                              cl::cat(runCategory));
static cl::opt<std::string> reportPath(
    "report",
    cl::desc("Write each kernel's JSON line to this file too: a channel the "
             "evaluated code does not write to, so a kernel that prints JSON "
             "cannot forge its verdict (ke-evolve reads verdicts from it)"),
    cl::value_desc("path"), cl::cat(runCategory));
static cl::opt<bool> calibrateOnly(
    "calibrate",
    cl::desc("Measure this machine's peak GFLOP/s and GB/s, cache and print "
             "them"),
    cl::cat(runCategory));
static cl::opt<bool> checkOnly("check-only",
                               cl::desc("Check correctness, skip timing"),
                               cl::cat(runCategory));
static cl::opt<double> minTime("min-time", cl::init(0.2),
                               cl::desc("Seconds of timed runs (at least 5)"),
                               cl::cat(runCategory));
static cl::opt<unsigned>
    timeoutSeconds("timeout", cl::init(120),
                   cl::desc("Seconds one kernel may take in all (0: no limit)"),
                   cl::cat(runCategory));
static cl::opt<bool> naive("naive",
                           cl::desc("Lower the candidate with the naive "
                                    "pipeline too: no schedule of ke-run's "
                                    "own (for already scheduled candidates)"),
                           cl::cat(runCategory));
static cl::opt<std::string> referenceCache(
    "reference-cache",
    cl::desc("Directory caching the reference's outputs per seed, so that "
             "evaluating many candidates of one kernel runs it once"),
    cl::cat(runCategory));
static cl::opt<bool> profile(
    "profile",
    cl::desc("Also run an instrumented copy (ke-instrument) and report each "
             "top-level region's share of the time, plus hardware counters "
             "(perf_event_open) when the kernel allows them"),
    cl::cat(runCategory));
static cl::opt<bool> compileOnly(
    "compile-only",
    cl::desc("nvgpu/amdgpu: compile and report the code's static metrics, "
             "do not run on the GPU"),
    cl::cat(runCategory));
static cl::opt<std::string> bundleDirectory(
    "bundle",
    cl::desc("nvgpu: write each kernel's bundle (host code with PTX, "
             "inputs, the reference's outputs) to DIR/<kernel>, for "
             "ke-gpu-run on a GPU machine"),
    cl::cat(runCategory));
static cl::list<int64_t> gpuBlockTile(
    "gpu-block-tile", cl::CommaSeparated,
    cl::desc("nvgpu/amdgpu: threads per block along the innermost parallel "
             "loops (sets ke.gpu_block_tile; bundles are named "
             "<kernel>@<tile>)"),
    cl::cat(runCategory));
static cl::opt<int64_t> gpuReductionThreads(
    "gpu-reduction-threads", cl::init(256),
    cl::desc("nvgpu/amdgpu: most threads reducing one row together (0: "
             "each thread reduces its rows alone; bundles of other values "
             "are named <kernel>@r<N>)"),
    cl::cat(runCategory));
static cl::list<int64_t> gpuThreadTile(
    "gpu-thread-tile", cl::CommaSeparated,
    cl::desc("nvgpu/amdgpu: outputs per thread of matmul-like reductions, "
             "right-aligned on their parallel loops (bundles are named "
             "<kernel>@t<tile>)"),
    cl::cat(runCategory));
static cl::opt<int64_t> gpuSharedTile(
    "gpu-shared-tile", cl::init(64),
    cl::desc("nvgpu/amdgpu: outputs per block along i and j of GEMM-like "
             "contractions staged through shared memory (16 to 128 in steps "
             "of 16; 0: no staging; bundles of other values are named "
             "<kernel>@s<N>)"),
    cl::cat(runCategory));
static cl::opt<int64_t> gpuWarps(
    "gpu-warps", cl::init(8),
    cl::desc("nvgpu/amdgpu: warps per block of contractions staged through "
             "shared memory (2, 4, 8 or 16; bundles of other values are "
             "named <kernel>@w<N>)"),
    cl::cat(runCategory));
static cl::opt<int64_t> gpuVectorWidth(
    "gpu-vector-width", cl::init(4),
    cl::desc("nvgpu/amdgpu: elements per thread of elementwise ops, read "
             "and written as one vector (1, 2 or 4; bundles of other values "
             "are named <kernel>@v<N>)"),
    cl::cat(runCategory));
static cl::opt<bool> emitAssembly(
    "emit-asm",
    cl::desc("riscv: print the kernel's RISC-V assembly before its report"),
    cl::cat(runCategory));
static cl::opt<std::string>
    riscvCPU("riscv-cpu", cl::init("sifive-x280"),
             cl::desc("riscv: the CPU model of code generation and of "
                      "llvm-mca's cycle estimate"),
             cl::cat(runCategory));
static cl::opt<std::string> workDirectory(
    "work-dir",
    cl::desc("riscv: keep the object, harness, assembly and llvm-mca input "
             "in this directory (default: a temporary one, removed)"),
    cl::cat(runCategory));
static cl::opt<double>
    riscvGHz("riscv-ghz", cl::init(1.0),
             cl::desc("riscv: clock that turns estimated cycles into time"),
             cl::cat(runCategory));
static cl::opt<int64_t> vectorWidth("vector-width", cl::init(8),
                                    cl::desc("Vector width of the default "
                                             "schedule"),
                                    cl::cat(runCategory));

//===----------------------------------------------------------------------===//
// Crash and hang containment
//===----------------------------------------------------------------------===//

static sigjmp_buf recoveryPoint;
static volatile sig_atomic_t recoveryArmed = 0;
static volatile sig_atomic_t caughtSignal = 0;

static volatile sig_atomic_t stackOverflow = 0;
static uintptr_t stackTop = 0, stackLimit = 0;

/// Remembers where the main thread's stack lives, to tell a stack overflow
/// (a kernel with big temporaries on the stack) from other crashes.
static void noteStackBounds() {
  int anchor;
  stackTop = reinterpret_cast<uintptr_t>(&anchor);
  struct rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    stackLimit = limit.rlim_cur;
}

static void onFatalSignal(int signal, siginfo_t *info, void *) {
  if (!recoveryArmed) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  auto address = reinterpret_cast<uintptr_t>(info ? info->si_addr : nullptr);
  stackOverflow = signal == SIGSEGV && stackLimit && address < stackTop &&
                  address + stackLimit + (1 << 20) >= stackTop;
  caughtSignal = signal;
  recoveryArmed = 0;
  siglongjmp(recoveryPoint, 1);
}

static void installSignalHandlers() {
  noteStackBounds();
  // An alternate stack so a stack overflow in a kernel can still be reported.
  static char alternateStack[1 << 16];
  stack_t stack = {};
  stack.ss_sp = alternateStack;
  stack.ss_size = sizeof(alternateStack);
  sigaltstack(&stack, nullptr);
  struct sigaction action = {};
  action.sa_sigaction = onFatalSignal;
  action.sa_flags = SA_ONSTACK | SA_NODEFER | SA_SIGINFO;
  // SIGABRT: a failed cf.assert (front ends emit them for index bounds).
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM, SIGABRT})
    sigaction(signal, &action, nullptr);
}

static std::string describeSignal(int signal) {
  switch (signal) {
  case SIGSEGV:
    return stackOverflow ? "crashed (SIGSEGV, stack overflow: too much on the "
                           "stack, e.g. temporaries allocated in a loop)"
                         : "crashed (SIGSEGV)";
  case SIGBUS:
    return "crashed (SIGBUS)";
  case SIGFPE:
    return "crashed (SIGFPE)";
  case SIGILL:
    return "crashed (SIGILL)";
  case SIGABRT:
    return "aborted (SIGABRT: an assertion in the kernel failed, e.g. a "
           "cf.assert on an index)";
  case SIGALRM:
    return llvm::formatv("timed out after {0} s", unsigned(timeoutSeconds));
  default:
    return "crashed";
  }
}

//===----------------------------------------------------------------------===//
// One kernel
//===----------------------------------------------------------------------===//

namespace {
struct KernelJob {
  std::string name;
  std::string candidate; ///< what is evaluated, for the report
  func::FuncOp evaluated;
  func::FuncOp reference;
};

struct KernelReport {
  std::string name, candidate;
  bool correct = false;
  double maxAbsError = 0.0, maxRelError = 0.0;
  std::optional<TimingResult> timing;
  WorkEstimate work;
  std::optional<MachinePeaks> peaks;
  std::string error; ///< "<stage>: <message>", empty when correct
  struct Region {
    std::string name;
    double nsPerCall = 0.0, share = 0.0;
  };
  std::vector<Region> regions;            ///< --profile
  std::map<std::string, double> counters; ///< per call, --profile
  std::string countersError;
  std::string profileError;               ///< why --profile has no regions
  std::string timeSource = "measured";    ///< how time_ns was obtained
  std::vector<std::string> referenceWarnings; ///< e.g. NaN in its results
  std::optional<bool> compiled, runnable; ///< GPU targets
  std::string notRunnable;                ///< why it could not run
  std::optional<llvm::json::Value> gpuCode;
  std::optional<double> cycles; ///< riscv: the estimate
};

/// The stage running now, named in errors when a kernel crashes or hangs.
const char *currentStage = "setup";

std::string getCachePath(llvm::StringRef key, uint64_t inputSeed,
                         size_t result) {
  llvm::SmallString<256> path(referenceCache.getValue());
  llvm::sys::path::append(
      path, llvm::formatv("{0}-s{1}-r{2}.bin", key, inputSeed, result));
  return std::string(path);
}

/// Reads the reference's outputs for `inputSeed`; false if any is missing.
bool loadCachedOutputs(llvm::StringRef key, uint64_t inputSeed,
                       llvm::ArrayRef<TensorSpec> specs,
                       llvm::SmallVectorImpl<HostTensor> &outputs) {
  outputs.clear();
  for (auto [index, spec] : llvm::enumerate(specs)) {
    auto buffer =
        llvm::MemoryBuffer::getFile(getCachePath(key, inputSeed, index));
    if (!buffer ||
        (*buffer)->getBufferSize() != static_cast<size_t>(spec.getNumBytes())) {
      outputs.clear();
      return false;
    }
    HostTensor tensor(spec);
    std::memcpy(tensor.getData(), (*buffer)->getBufferStart(),
                spec.getNumBytes());
    outputs.push_back(std::move(tensor));
  }
  return true;
}

/// Best effort: a cache that cannot be written only costs time later.
void saveCachedOutputs(llvm::StringRef key, uint64_t inputSeed,
                       llvm::ArrayRef<HostTensor> outputs) {
  llvm::sys::fs::create_directories(referenceCache.getValue());
  for (auto [index, output] : llvm::enumerate(outputs)) {
    std::string path = getCachePath(key, inputSeed, index);
    std::string temporary = path + "." + std::to_string(getpid());
    {
      std::error_code ec;
      llvm::raw_fd_ostream out(temporary, ec);
      if (ec)
        return;
      out.write(static_cast<const char *>(output.getData()),
                output.getSpec().getNumBytes());
    }
    llvm::sys::fs::rename(temporary, path);
  }
}

/// Runs an instrumented copy of the evaluated function `runs` times and
/// records each region's time per call and share of the call's time.
llvm::Error profileRegions(KernelJob job, const ke::LowerCPUOptions &options,
                           const KernelSignature &signature,
                           llvm::ArrayRef<HostTensor> inputs, int runs,
                           KernelReport &report) {
  MLIRContext *context = job.evaluated.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(job.evaluated.getLoc());
  auto copy = cast<func::FuncOp>(job.evaluated->clone());
  module->push_back(copy);
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
  auto instrumented = CPUKernel::compile(copy, options, signature);
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

/// "; argument #k (i64) has no ke.range ..." for every integer argument of
/// `reference` with neither a ke.range nor an inferable one.
std::string describeUnrangedIntegers(func::FuncOp reference) {
  std::string text;
  for (auto [index, type] :
       llvm::enumerate(reference.getFunctionType().getInputs())) {
    Type element = getElementTypeOrSelf(type);
    if (!element.isInteger() || element.isInteger(1) ||
        reference.getArgAttr(index, "ke.range") ||
        inferIndexBound(reference, index))
      continue;
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    os << element;
    text += llvm::formatv("; argument #{0} ({1}) has no ke.range: if it holds "
                          "indices, give it ke.range = [lo, hi]",
                          index, typeText)
                .str();
  }
  return text;
}

/// A reference whose results hold NaN or Inf still "matches" a candidate
/// with the same non-finite positions; say so instead of staying silent.
void noteNonFiniteReference(llvm::ArrayRef<HostTensor> expected,
                            uint64_t inputSeed, KernelReport &report) {
  for (auto [index, tensor] : llvm::enumerate(expected)) {
    if (!isFloatKind(tensor.getSpec().kind))
      continue;
    int64_t nonFinite = 0;
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      nonFinite += !std::isfinite(tensor.getAsDouble(i));
    if (nonFinite)
      report.referenceWarnings.push_back(
          llvm::formatv("result #{0} of the reference holds {1} NaN or Inf "
                        "values of {2} with seed {3}",
                        index, nonFinite, tensor.getNumElements(), inputSeed)
              .str());
  }
}

/// The evaluated function's signature, checked against the reference's.
llvm::Expected<KernelSignature> checkSignature(KernelJob job) {
  llvm::Expected<KernelSignature> signature = getKernelSignature(job.evaluated);
  if (!signature)
    return llvm::createStringError("signature: " +
                                   llvm::toString(signature.takeError()));
  if (job.reference.getFunctionType() != job.evaluated.getFunctionType())
    return llvm::createStringError(
        "signature: the reference's function type differs from the kernel's");
  // Index inputs without ke.range get the range the reference's use implies.
  inferIndexRanges(job.reference, *signature);
  return signature;
}

/// Compares every result with the reference's for one seed, keeping the
/// largest errors in `report`; the first mismatch is the error.
llvm::Error compareOutputs(const KernelSignature &signature,
                           llvm::ArrayRef<HostTensor> actual,
                           llvm::ArrayRef<HostTensor> expected,
                           uint64_t inputSeed, KernelReport &report) {
  for (size_t r = 0; r < expected.size(); ++r) {
    Tolerance tolerance = signature.getTolerance(expected[r].getSpec().kind);
    Comparison comparison = compareTensors(actual[r], expected[r], tolerance);
    report.maxAbsError = std::max(report.maxAbsError, comparison.maxAbsError);
    report.maxRelError = std::max(report.maxRelError, comparison.maxRelError);
    if (!comparison.matches)
      return llvm::createStringError(llvm::formatv(
          "compare: result #{0} differs from the reference with seed {1}: "
          "{2} of {3} elements mismatch; first: {4}",
          r, inputSeed, comparison.numMismatches, expected[r].getNumElements(),
          comparison.firstMismatch));
  }
  return llvm::Error::success();
}

/// The riscv target: the candidate runs under qemu (rv64gcv), the reference
/// on the host; the time is llvm-mca's estimate.
llvm::Error evaluateRISCV(KernelJob job, KernelReport &report) {
  currentStage = "signature";
  llvm::Expected<KernelSignature> signature = checkSignature(job);
  if (!signature)
    return signature.takeError();
  report.work = estimateWork(job.reference);
  currentStage = "lower";
  ke::LowerCPUOptions candidateOptions;
  candidateOptions.naive = naive.getValue();
  candidateOptions.vectorWidth = vectorWidth.getValue();
  RISCVRunOptions runOptions;
  runOptions.codegen.cpu = riscvCPU;
  runOptions.timeoutSeconds = timeoutSeconds ? timeoutSeconds : 600;
  runOptions.clockGHz = riscvGHz;
  runOptions.workDirectory = workDirectory;
  auto candidate = RISCVKernel::compile(job.evaluated, candidateOptions,
                                        *signature, runOptions);
  if (!candidate)
    return candidate.takeError();
  if (emitAssembly)
    llvm::outs() << (*candidate)->getAssembly();
  ke::LowerCPUOptions referenceOptions;
  referenceOptions.naive = true;
  std::unique_ptr<CPUKernel> reference;
  for (unsigned s = 0; s < std::max(1u, numSeeds.getValue()); ++s) {
    uint64_t inputSeed = seed + s;
    currentStage = "inputs";
    llvm::SmallVector<HostTensor> inputs, expected, actual;
    for (auto [index, spec] : llvm::enumerate(signature->arguments))
      inputs.push_back(makeInput(spec, inputSeed, index));
    currentStage = "run reference";
    if (!reference) {
      auto compiled =
          CPUKernel::compile(job.reference, referenceOptions, *signature);
      if (!compiled)
        return llvm::createStringError("reference " +
                                       llvm::toString(compiled.takeError()));
      reference = std::move(*compiled);
    }
    if (llvm::Error error = reference->run(inputs, &expected))
      return llvm::createStringError("reference " +
                                     llvm::toString(std::move(error)));
    currentStage = "run";
    if (llvm::Error error = (*candidate)->run(inputs, actual))
      return error;
    currentStage = "compare";
    if (llvm::Error error =
            compareOutputs(*signature, actual, expected, inputSeed, report))
      return error;
  }
  report.correct = true;
  if (checkOnly)
    return llvm::Error::success();
  double cycles = (*candidate)->getEstimatedCycles();
  report.cycles = cycles;
  double ns = cycles / riscvGHz;
  report.timing = TimingResult{ns, ns, 1};
  report.timeSource = llvm::formatv(
      "estimate: llvm-mca -mcpu={0} cycles per basic block x block "
      "executions counted under qemu-riscv64, at {1} GHz",
      riscvCPU.getValue(), riscvGHz.getValue());
  return llvm::Error::success();
}

llvm::Error evaluate(KernelJob job, KernelReport &report, bool timeIt);

/// The texts of the gpu.binary objects of a lowered module (PTX or AMDGCN
/// assembly with format=isa).
std::vector<std::string> collectGPUCode(ModuleOp module) {
  std::vector<std::string> code;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      if (auto attr = dyn_cast<gpu::ObjectAttr>(object))
        code.push_back(attr.getObject().str());
  });
  return code;
}

/// MLIR's ROCDL serializer links code objects with $ROCM_PATH/llvm/bin/
/// ld.lld; without ROCm, Debian's lld stands in while this lives.
class ScopedROCmLinker {
public:
  ScopedROCmLinker() {
    if (std::getenv("ROCM_PATH"))
      return;
    if (llvm::sys::fs::createUniqueDirectory("ke-rocm", directory)) {
      directory.clear();
      return;
    }
    llvm::SmallString<128> bin = directory;
    llvm::sys::path::append(bin, "llvm", "bin");
    llvm::sys::fs::create_directories(bin);
    if (auto lld = llvm::sys::findProgramByName("ld.lld", {KE_LLVM_TOOLS_DIR}))
      llvm::sys::fs::create_link(*lld, (bin + "/ld.lld").str());
    setenv("ROCM_PATH", directory.c_str(), 1);
  }
  ~ScopedROCmLinker() {
    if (directory.empty())
      return;
    unsetenv("ROCM_PATH");
    llvm::sys::fs::remove_directories(directory);
  }

private:
  llvm::SmallString<128> directory;
};

/// nvgpu and amdgpu: the candidate's tensor program is checked on the CPU
/// (correctness does not depend on the target), then compiled for the GPU;
/// where it cannot run, its time is the documented static cost.
llvm::Error evaluateGPU(KernelJob job, KernelReport &report) {
  if (llvm::Error error = evaluate(job, report, /*timeIt=*/false))
    return error;
  currentStage = "lower";
  MLIRContext *context = job.evaluated.getContext();
  // A module holding a copy of the kernel, ready for a GPU lowering.
  auto prepare = [&] {
    OwningOpRef<ModuleOp> module = ModuleOp::create(job.evaluated.getLoc());
    auto clone = cast<func::FuncOp>(job.evaluated->clone());
    module->push_back(clone);
    prepareForLowering(clone);
    clone->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
    if (!gpuBlockTile.empty())
      clone->setAttr(ke::KeDialect::kGPUBlockTileAttrName,
                     DenseI64ArrayAttr::get(
                         context, SmallVector<int64_t>(gpuBlockTile.begin(),
                                                       gpuBlockTile.end())));
    return module;
  };
  bool nvidia = targetName == "nvgpu";
  // `binary`: the code object (format=bin) instead of assembly.
  auto lower = [&](ModuleOp module, bool binary) -> llvm::Error {
    ke::DiagnosticCollector diagnostics(context);
    PassManager pm(context, ModuleOp::getOperationName());
    ke::LowerGPUOptions options;
    options.reductionThreads = gpuReductionThreads;
    options.threadTile = SmallVector<int64_t>(gpuThreadTile.begin(), gpuThreadTile.end());
    options.sharedTile = gpuSharedTile;
    options.vectorWidth = gpuVectorWidth;
    options.warps = gpuWarps;
    std::optional<ScopedROCmLinker> rocmLinker;
    if (binary) {
      options.format = "bin";
      if (!nvidia)
        rocmLinker.emplace();
    }
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(nvidia ? ke::buildLowerNVGPUPipeline(pm, options, errorStream)
                      : ke::buildLowerAMDGPUPipeline(pm, options, errorStream)))
      return llvm::createStringError("lower: " + errors);
    if (failed(pm.run(module)) || !diagnostics.str().empty())
      return llvm::createStringError("lower: " + diagnostics.str());
    return llvm::Error::success();
  };
  OwningOpRef<ModuleOp> module = prepare();
  if (llvm::Error error = lower(*module, /*binary=*/false))
    return error;
  std::vector<std::string> code = collectGPUCode(*module);
  if (code.empty())
    return llvm::createStringError("lower: no GPU kernel came out of the "
                                   "lowering");
  GPUCodeStats stats;
  for (const std::string &text : code) {
    GPUCodeStats part =
        nvidia ? analyzePTX(text, "sm_90") : analyzeAMDGCN(text, "gfx942");
    stats.chip = part.chip;
    stats.source = part.source;
    for (GPUKernelStats &kernel : part.kernels)
      stats.kernels.push_back(std::move(kernel));
  }
  if (emitAssembly)
    for (const std::string &text : code)
      llvm::outs() << text;
  report.compiled = true;
  report.gpuCode = stats.toJSON();
  // AMD runs the code object (hsaco), NVIDIA the PTX of `module`.
  OwningOpRef<ModuleOp> binaryModule;
  if (!nvidia) {
    currentStage = "hsaco";
    binaryModule = prepare();
    int64_t hsacoBytes = 0;
    bool elf = true;
    llvm::Error error = lower(*binaryModule, /*binary=*/true);
    if (!error)
      for (const std::string &object : collectGPUCode(*binaryModule)) {
        hsacoBytes += object.size();
        elf &= llvm::StringRef(object).starts_with("\x7f"
                                                   "ELF");
      }
    if (error || hsacoBytes == 0 || !elf)
      return llvm::createStringError(
          "hsaco: the AMDGPU code object could not be linked" +
          (error ? ": " + llvm::toString(std::move(error)) : std::string()));
    report.gpuCode->getAsObject()->insert({"hsaco_bytes", hsacoBytes});
  }
  report.runnable = false;
  {
    ke::runtime::selectGPUVendor(nvidia ? ke::runtime::GPUVendor::NVIDIA
                                        : ke::runtime::GPUVendor::AMD);
    std::string driverProblem;
    bool haveGPU = !compileOnly && ke::runtime::getGPUDriver(&driverProblem);
    report.notRunnable = compileOnly ? "--compile-only" : driverProblem;
    if (profile && !haveGPU)
      report.profileError =
          "the per-launch profile needs the GPU: " + report.notRunnable;
    if (haveGPU || !bundleDirectory.empty()) {
      currentStage = "bundle";
      llvm::SmallString<128> directory;
      if (!bundleDirectory.empty()) {
        directory = bundleDirectory.getValue();
        std::string name = job.name;
        if (!gpuBlockTile.empty()) {
          name += "@";
          for (auto [i, size] : llvm::enumerate(gpuBlockTile))
            name += (i ? "x" : "") + std::to_string(size);
        }
        if (gpuReductionThreads != 256)
          name += (gpuBlockTile.empty() ? "@r" : "r") +
                  std::to_string(gpuReductionThreads);
        if (!gpuThreadTile.empty()) {
          name += name.find('@') == std::string::npos ? "@t" : "t";
          for (auto [i, size] : llvm::enumerate(gpuThreadTile))
            name += (i ? "x" : "") + std::to_string(size);
        }
        if (gpuSharedTile != 64)
          name += (name.find('@') == std::string::npos ? "@s" : "s") +
                  std::to_string(gpuSharedTile);
        if (gpuVectorWidth != 4)
          name += (name.find('@') == std::string::npos ? "@v" : "v") +
                  std::to_string(gpuVectorWidth);
        if (gpuWarps != 8)
          name += (name.find('@') == std::string::npos ? "@w" : "w") +
                  std::to_string(gpuWarps);
        llvm::sys::path::append(directory, name);
      } else if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(
                     "ke-gpu", directory)) {
        return llvm::createStringError("bundle: " + ec.message());
      }
      llvm::Expected<KernelSignature> signature =
          getKernelSignature(job.evaluated);
      if (!signature)
        return signature.takeError();
      inferIndexRanges(job.reference, *signature);
      unsigned seeds = std::max(1u, numSeeds.getValue());
      // --profile: a second build with probes, whose kernels time
      // themselves on the device (ke-time-gpu-kernels).
      OwningOpRef<ModuleOp> profiled;
      std::vector<std::string> regionNames;
      if (profile) {
        currentStage = "profile";
        profiled = prepare();
        std::string problem;
        {
          ke::DiagnosticCollector diagnostics(context);
          PassManager pm(context, ModuleOp::getOperationName());
          if (failed(parsePassPipeline("func.func(ke-instrument)", pm)) ||
              failed(pm.run(*profiled)))
            problem = "profile: " + diagnostics.str();
        }
        profiled->walk([&](ke::ProbeStartOp probe) {
          if (regionNames.size() <= probe.getId())
            regionNames.resize(probe.getId() + 1);
          regionNames[probe.getId()] = probe.getRegion().str();
        });
        if (problem.empty())
          if (llvm::Error error = lower(*profiled, /*binary=*/!nvidia))
            problem = "profile " + llvm::toString(std::move(error));
        // Extra diagnosis: without it the kernel is still checked and timed.
        if (!problem.empty()) {
          report.profileError = problem;
          profiled = nullptr;
        }
        currentStage = "bundle";
      }
      if (llvm::Error error =
              writeGPUBundle(nvidia ? *module : *binaryModule, job.name,
                             targetName, *signature, seeds, directory))
        return error;
      if (profiled)
        if (llvm::Error error =
                addGPUProfileBuild(*profiled, regionNames, directory))
          report.profileError = "profile " + llvm::toString(std::move(error));
      ke::LowerCPUOptions referenceOptions;
      referenceOptions.naive = true;
      auto reference =
          CPUKernel::compile(job.reference, referenceOptions, *signature);
      if (!reference)
        return llvm::createStringError("reference " +
                                       llvm::toString(reference.takeError()));
      for (unsigned s = 0; s < seeds; ++s) {
        llvm::SmallVector<HostTensor> inputs, expected;
        for (auto [index, spec] : llvm::enumerate(signature->arguments))
          inputs.push_back(makeInput(spec, seed + s, index));
        if (llvm::Error error = (*reference)->run(inputs, &expected))
          return llvm::createStringError("reference " +
                                         llvm::toString(std::move(error)));
        if (llvm::Error error = addBundleSeed(directory, s, inputs, expected))
          return error;
      }
      if (haveGPU) {
        currentStage = "run";
        ke::runtime::BundleResult result =
            ke::runtime::runBundle(std::string(directory), minTime, profile);
        if (bundleDirectory.empty())
          llvm::sys::fs::remove_directories(directory);
        report.runnable = true;
        report.correct = result.correct;
        report.maxAbsError = result.maxAbsError;
        report.maxRelError = result.maxRelError;
        if (!result.correct)
          return llvm::createStringError(result.error);
        report.timing =
            TimingResult{result.medianNs, result.minNs, result.runs};
        report.timeSource = std::string(nvidia ? "CUDA" : "HIP") +
                            " events on " + result.device +
                            ", L2 flushed before each run";
        // Regions timed on the device where the profiling build ran;
        // else each launch, timed with events.
        std::vector<ke::runtime::BundleResult::RegionTime> regionTimes =
            result.getRegionTimes();
        double total = 0;
        for (const auto &region : regionTimes)
          total += region.deviceNs;
        for (const auto &region : regionTimes)
          report.regions.push_back({region.name, region.deviceNs,
                                    total > 0 ? region.deviceNs / total : 0});
        if (regionTimes.empty()) {
          for (const ke::runtime::LaunchTime &launch : result.profile)
            total += launch.ns;
          for (auto [index, launch] : llvm::enumerate(result.profile))
            report.regions.push_back(
                {"launch " + std::to_string(index) + " " + launch.kernel,
                 launch.ns, total > 0 ? launch.ns / total : 0});
        }
        if (!result.profileError.empty() && report.profileError.empty())
          report.profileError = result.profileError;
        return llvm::Error::success();
      }
    }
  }
  if (checkOnly)
    return llvm::Error::success();
  double cost = stats.getStaticCost();
  report.timing = TimingResult{cost, cost, 1};
  report.timeSource =
      "static cost: sum over kernels of instructions x 8 / min(8, "
      "occupancy) + 4 x spill bytes (not a time; correctness checked on the "
      "CPU)";
  return llvm::Error::success();
}

llvm::Error evaluate(KernelJob job, KernelReport &report, bool timeIt) {
  currentStage = "signature";
  llvm::Expected<KernelSignature> signature = checkSignature(job);
  if (!signature)
    return signature.takeError();
  // Work is a property of the computation: count it on the reference, whose
  // linalg form survives (a scheduled candidate holds loops and vectors).
  report.work = estimateWork(job.reference);

  currentStage = "lower";
  ke::LowerCPUOptions referenceOptions;
  referenceOptions.naive = true;
  ke::LowerCPUOptions candidateOptions;
  candidateOptions.naive = naive.getValue();
  candidateOptions.vectorWidth = vectorWidth.getValue();
  // The reference is compiled only when an output is not in the cache.
  std::unique_ptr<CPUKernel> reference;
  std::string cacheKey;
  if (!referenceCache.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    job.reference->print(os);
    cacheKey = llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true);
  }
  auto candidate =
      CPUKernel::compile(job.evaluated, candidateOptions, *signature);
  if (!candidate)
    return candidate.takeError();

  llvm::SmallVector<HostTensor> inputs;
  for (unsigned s = 0; s < std::max(1u, numSeeds.getValue()); ++s) {
    uint64_t inputSeed = seed + s;
    currentStage = "inputs";
    inputs.clear();
    for (auto [index, spec] : llvm::enumerate(signature->arguments))
      inputs.push_back(makeInput(spec, inputSeed, index));
    llvm::SmallVector<HostTensor> expected, actual;
    currentStage = "run reference";
    if (cacheKey.empty() ||
        !loadCachedOutputs(cacheKey, inputSeed, signature->results, expected)) {
      if (!reference) {
        currentStage = "lower";
        auto compiled =
            CPUKernel::compile(job.reference, referenceOptions, *signature);
        if (!compiled)
          return llvm::createStringError("reference " +
                                         llvm::toString(compiled.takeError()));
        reference = std::move(*compiled);
        currentStage = "run reference";
      }
      if (llvm::Error error = reference->run(inputs, &expected))
        return llvm::createStringError("reference " +
                                       llvm::toString(std::move(error)));
      if (!cacheKey.empty())
        saveCachedOutputs(cacheKey, inputSeed, expected);
    }
    noteNonFiniteReference(expected, inputSeed, report);
    currentStage = "run";
    if (llvm::Error error = (*candidate)->run(inputs, &actual))
      return error;
    currentStage = "compare";
    if (llvm::Error error =
            compareOutputs(*signature, actual, expected, inputSeed, report))
      return error;
  }
  report.correct = true;
  if (checkOnly || !timeIt)
    return llvm::Error::success();

  currentStage = "timing";
  TimingOptions timingOptions;
  timingOptions.minSeconds = minTime;
  llvm::Error runError = llvm::Error::success();
  report.timing = measure(
      [&] {
        if (runError)
          return;
        runError = (*candidate)->run(inputs, nullptr);
      },
      timingOptions);
  if (runError) {
    report.correct = false;
    return runError;
  }
  currentStage = "calibrate";
  report.peaks = getOrCalibratePeaks(threads);
  if (profile) {
    currentStage = "profile";
    int runs = std::clamp(report.timing->runs, 3, 20);
    // A profile is extra diagnosis: failing it loses no measured result.
    if (llvm::Error error = profileRegions(job, candidateOptions, *signature,
                                           inputs, runs, report)) {
      report.regions.clear();
      report.profileError = llvm::toString(std::move(error));
    }
    if (auto counters = HardwareCounters::open()) {
      (*counters)->start();
      llvm::Error runError = llvm::Error::success();
      for (int i = 0; i < runs && !runError; ++i)
        runError = (*candidate)->run(inputs, nullptr);
      auto values = (*counters)->stop();
      if (runError)
        report.countersError = llvm::toString(std::move(runError));
      else
        for (auto &[name, value] : values)
          report.counters[name] = value / runs;
    } else {
      report.countersError = llvm::toString(counters.takeError());
    }
  }
  return llvm::Error::success();
}

/// The report file (--report), truncated when ke-run starts so no earlier
/// verdict survives in it.
llvm::raw_fd_ostream *getReportStream() {
  static std::unique_ptr<llvm::raw_fd_ostream> stream;
  if (!stream && !reportPath.empty()) {
    std::error_code error;
    stream = std::make_unique<llvm::raw_fd_ostream>(reportPath, error);
    if (error) {
      llvm::errs() << "ke-run: cannot write the report '" << reportPath
                   << "': " << error.message() << "\n";
      std::exit(2);
    }
  }
  return stream.get();
}

void printReport(const KernelReport &report) {
  double medianNs = report.timing ? report.timing->medianNs : 0.0;
  if (!emitJson && reportPath.empty()) {
    llvm::outs() << report.name << " [" << report.candidate << "] on "
                 << targetName << ": "
                 << (report.correct ? "correct" : "NOT correct");
    if (report.timing &&
        llvm::StringRef(report.timeSource).starts_with("static"))
      llvm::outs() << llvm::formatv(", static cost {0:f0} (not a time)",
                                    medianNs);
    else if (report.timing)
      llvm::outs() << llvm::formatv(
          ", median {0:f1} us, {1:f2} GFLOP/s, {2:f2} GB/s", medianNs / 1e3,
          report.work.flops / medianNs, report.work.bytes / medianNs);
    if (report.runnable && !*report.runnable)
      llvm::outs() << "\n  not run: " << report.notRunnable;
    if (!report.error.empty())
      llvm::outs() << "\n  error: " << report.error;
    for (const KernelReport::Region &region : report.regions)
      llvm::outs() << llvm::formatv("\n  {0,5:f1}%  {1,10:f1} us  {2}",
                                    region.share * 100, region.nsPerCall / 1e3,
                                    region.name);
    if (profile && !report.countersError.empty())
      llvm::outs() << "\n  counters: unavailable: " << report.countersError;
    else if (profile && report.counters.count("cycles"))
      llvm::outs() << llvm::formatv(
          "\n  counters: {0:f0} cycles, {1:f0} instructions (IPC {2:f2}), "
          "{3:f0} cache misses per call",
          report.counters.at("cycles"), report.counters.at("instructions"),
          report.counters.at("instructions") /
              std::max(1.0, report.counters.at("cycles")),
          report.counters.at("cache_misses"));
    llvm::outs() << "\n";
    return;
  }
  llvm::json::Object object{{"kernel", report.name},
                            {"candidate", report.candidate},
                            {"target", targetName.getValue()},
                            {"threads", threads},
                            {"correct", report.correct},
                            {"max_abs_err", report.maxAbsError},
                            {"max_rel_err", report.maxRelError},
                            {"flops", report.work.flops},
                            {"bytes", report.work.bytes},
                            {"seeds", numSeeds.getValue()},
                            {"error", report.error.empty()
                                          ? llvm::json::Value(nullptr)
                                          : llvm::json::Value(report.error)}};
  object["time_source"] = report.timeSource;
  if (!report.referenceWarnings.empty()) {
    llvm::json::Array warnings;
    for (const std::string &warning : report.referenceWarnings)
      warnings.push_back(warning);
    object["reference_warnings"] = std::move(warnings);
  }
  if (report.compiled)
    object["compiled"] = *report.compiled;
  if (report.runnable) {
    object["runnable"] = *report.runnable;
    if (!*report.runnable)
      object["not_runnable"] = report.notRunnable;
  }
  if (report.gpuCode)
    object["gpu_code"] = *report.gpuCode;
  if (report.cycles)
    object["cycles"] = *report.cycles;
  if (report.timing && medianNs > 0) {
    object["time_ns"] = llvm::json::Object{{"median", report.timing->medianNs},
                                           {"min", report.timing->minNs},
                                           {"runs", report.timing->runs}};
    // A static cost is not a time: no rates from it.
    bool isCost = llvm::StringRef(report.timeSource).starts_with("static");
    object["gflops"] = isCost ? llvm::json::Value(nullptr)
                              : llvm::json::Value(report.work.flops / medianNs);
    object["gbps"] = isCost ? llvm::json::Value(nullptr)
                            : llvm::json::Value(report.work.bytes / medianNs);
  } else {
    object["time_ns"] = nullptr;
    object["gflops"] = nullptr;
    object["gbps"] = nullptr;
  }
  if (report.peaks) {
    object["bound"] =
        getBoundName(
            classifyBound(report.work.flops, report.work.bytes, *report.peaks))
            .str();
    object["peak_gflops"] = report.peaks->gflops;
    object["peak_gbps"] = report.peaks->gbps;
  } else {
    object["bound"] = nullptr;
  }
  if (profile) {
    llvm::json::Array regions;
    for (const KernelReport::Region &region : report.regions)
      regions.push_back(llvm::json::Object{{"region", region.name},
                                           {"time_ns", region.nsPerCall},
                                           {"share", region.share}});
    object["profile"] = std::move(regions);
    if (!report.profileError.empty())
      object["profile_error"] = report.profileError;
    if (report.countersError.empty() && !report.counters.empty()) {
      llvm::json::Object counters;
      for (auto &[name, value] : report.counters)
        counters[name] = value;
      object["counters"] = std::move(counters);
    } else {
      object["counters"] = nullptr;
      object["counters_error"] = report.countersError.empty()
                                     ? llvm::json::Value(nullptr)
                                     : llvm::json::Value(report.countersError);
    }
  }
  llvm::json::Value line(std::move(object));
  if (llvm::raw_fd_ostream *stream = getReportStream()) {
    *stream << line << "\n";
    stream->flush();
  }
  if (emitJson) {
    llvm::outs() << line << "\n";
    llvm::outs().flush();
  }
}

/// The function to evaluate for a ke.kernel: the named candidate, else the
/// best correct one (as ke-select-best would choose), else the reference.
FailureOr<std::pair<func::FuncOp, std::string>>
chooseEvaluated(ke::KernelOp kernel) {
  if (!candidateName.empty()) {
    ke::CandidateOp candidate = kernel.lookupCandidate(candidateName);
    if (!candidate) {
      kernel.emitError() << "kernel '@" << kernel.getSymName()
                         << "' has no candidate '@" << candidateName << "'";
      return failure();
    }
    return std::make_pair(candidate.getPayload(), candidate.getSymName().str());
  }
  if (ke::CandidateOp best = kernel.getBestCandidate())
    return std::make_pair(best.getPayload(), best.getSymName().str());
  return std::make_pair(kernel.getReference(), std::string("reference"));
}

func::FuncOp findReferenceIn(ModuleOp module, llvm::StringRef name) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto kernel = dyn_cast<ke::KernelOp>(op))
      if (kernel.getSymName() == name)
        return kernel.getReference();
    if (auto function = dyn_cast<func::FuncOp>(op))
      if (function.getSymName() == name && !function.isExternal())
        return function;
  }
  return {};
}
} // namespace

static int runCalibration() {
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

/// Removes `--threads N`, `--threads=N` (or with one dash) from argv.
static LogicalResult extractThreadsOption(int argc, char **argv,
                                          llvm::SmallVectorImpl<char *> &rest) {
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef argument(argv[i]);
    llvm::StringRef name = argument.ltrim('-');
    if (i == 0 || argument == name || !name.consume_front("threads") ||
        (!name.empty() && !name.starts_with("="))) {
      rest.push_back(argv[i]);
      continue;
    }
    llvm::StringRef value;
    if (name.consume_front("="))
      value = name;
    else if (i + 1 < argc)
      value = argv[++i];
    if (value.getAsInteger(10, threads) || threads == 0) {
      llvm::errs() << "ke-run: --threads expects a positive integer, found '"
                   << value << "'\n";
      return failure();
    }
  }
  rest.push_back(nullptr);
  rest.pop_back();
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  llvm::SmallVector<char *> arguments;
  if (failed(extractThreadsOption(argc, argv, arguments)))
    return 2;
  cl::ParseCommandLineOptions(
      static_cast<int>(arguments.size()), arguments.data(),
      "ke-run: lower, run, check and time the kernels of an MLIR file\n\n"
      "  --threads=<N>  Threads the kernel may use; also selects the "
      "calibrated peaks (default 1)\n");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  if (threads == 0) {
    llvm::errs() << "ke-run: --threads must be at least 1\n";
    return 2;
  }
  // Multi-threaded kernels (OpenMP) use exactly the threads they were given.
  setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), /*overwrite=*/1);
  if (calibrateOnly)
    return runCalibration();
  // Created (empty) before any kernel code runs.
  getReportStream();
  if (inputFilename.empty()) {
    llvm::errs() << "ke-run: no input file (see --help)\n";
    return 2;
  }
  if (!llvm::is_contained(ke::KernelOp::getKnownTargets(), targetName)) {
    llvm::errs() << "ke-run: unknown target '" << targetName
                 << "'; expected one of "
                 << llvm::join(ke::KernelOp::getKnownTargets(), ", ") << "\n";
    return 2;
  }

  DialectRegistry registry;
  ke::registerEverything(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseFile(inputFilename, context, sourceMgr);
  if (!module)
    return 2;
  OwningOpRef<ModuleOp> referenceModule;
  llvm::SourceMgr referenceSourceMgr;
  if (!referenceFilename.empty()) {
    referenceModule = parseFile(referenceFilename, context, referenceSourceMgr);
    if (!referenceModule)
      return 2;
  }

  llvm::SmallVector<KernelJob> jobs;
  llvm::SmallVector<std::string> available;
  for (Operation &op : module->getBody()->getOperations()) {
    KernelJob job;
    if (auto kernel = dyn_cast<ke::KernelOp>(op)) {
      job.name = kernel.getSymName().str();
      available.push_back(job.name);
      if (!kernelName.empty() && job.name != kernelName)
        continue;
      auto chosen = chooseEvaluated(kernel);
      if (failed(chosen))
        return 2;
      job.evaluated = chosen->first;
      job.candidate = chosen->second;
      job.reference = kernel.getReference();
    } else if (auto function = dyn_cast<func::FuncOp>(op)) {
      if (!function->hasAttr(ke::KeDialect::kKernelAttrName))
        continue;
      job.name = function.getSymName().str();
      available.push_back(job.name);
      if (!kernelName.empty() && job.name != kernelName)
        continue;
      if (function.isExternal()) {
        function.emitError() << "kernel '@" << job.name << "' has no body";
        return 2;
      }
      job.evaluated = job.reference = function;
      job.candidate = "kernel";
    } else {
      continue;
    }
    if (referenceModule) {
      job.reference = findReferenceIn(*referenceModule, job.name);
      if (!job.reference) {
        llvm::errs() << "ke-run: '" << referenceFilename
                     << "' has no function '@" << job.name << "'\n";
        return 2;
      }
    } else if (job.reference == job.evaluated &&
               job.evaluated
                   .walk([](Operation *op) {
                     Dialect *dialect = op->getDialect();
                     return dialect && dialect->getNamespace() == "vector"
                                ? WalkResult::interrupt()
                                : WalkResult::advance();
                   })
                   .wasInterrupted()) {
      // Already vectorized (a scheduled candidate) and no reference given:
      // it is compared with itself, which proves nothing.
      llvm::errs() << "ke-run: warning: '@" << job.name
                   << "' is vectorized and is its own reference; pass "
                      "--reference with the original to check it\n";
    }
    jobs.push_back(job);
  }
  if (jobs.empty()) {
    if (!kernelName.empty())
      llvm::errs() << "ke-run: no kernel '" << kernelName << "' in '"
                   << inputFilename << "'; kernels: "
                   << (available.empty() ? std::string("none")
                                         : llvm::join(available, ", "))
                   << "\n";
    else
      llvm::errs() << "ke-run: no kernel in '" << inputFilename
                   << "': tag a func.func with the unit attribute ke.kernel "
                      "or wrap it in a ke.kernel op\n";
    return 2;
  }

  installSignalHandlers();
  bool allCorrect = true;
  for (KernelJob &job : jobs) {
    KernelReport report;
    report.name = job.name;
    report.candidate = job.candidate;
    if (sigsetjmp(recoveryPoint, 1) == 0) {
      recoveryArmed = 1;
      // qemu runs in a child process with its own time limit.
      if (timeoutSeconds && targetName == "cpu")
        alarm(timeoutSeconds);
      llvm::Error error = targetName == "riscv" ? evaluateRISCV(job, report)
                          : targetName == "cpu"
                              ? evaluate(job, report, /*timeIt=*/true)
                              : evaluateGPU(job, report);
      alarm(0);
      recoveryArmed = 0;
      if (error) {
        report.correct = false;
        report.error = llvm::toString(std::move(error));
      }
    } else {
      alarm(0);
      report.correct = false;
      report.timing.reset();
      report.error = std::string(currentStage) + ": the kernel " +
                     describeSignal(caughtSignal);
      // A reference that crashes on its own inputs most often read an index
      // input out of range: say which inputs have no range.
      if (llvm::StringRef(currentStage) == "run reference")
        report.error += describeUnrangedIntegers(job.reference);
    }
    allCorrect &= report.correct;
    printReport(report);
  }
  return allCorrect ? 0 : 1;
}
