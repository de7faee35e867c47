//===- RunOptions.cpp - ke-run's command line -----------------------------===//
//
// ke-run's options, read into the evaluation's options: the tool itself
// (ke-run.cpp) only chooses kernels, runs them contained and reports.
//
//===----------------------------------------------------------------------===//

#include "RunOptions.h"

#include "ke/Eval/CPURunner.h"

#include "ke/KeDialect.h"
#include "ke/Target/TargetInfo.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

using namespace mlir;
using namespace ke::eval;
namespace cl = llvm::cl;

/// Removes `--threads N`, `--threads=N` (or with one dash) from argv.
/// `--threads N`: libLLVM already registers a global cl::opt named
/// "threads", so ke-run takes this one out of argv before cl parses it.
static LogicalResult extractThreadsOption(int argc, char **argv,
                                          llvm::SmallVectorImpl<char *> &rest,
                                          unsigned &threads) {
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

std::optional<RunCommand> parseRunCommandLine(int argc, char **argv) {
  // Registered here, not at load time: in the release archive's multi-call
  // binary ke-opt's own options must not meet these.
  cl::OptionCategory runCategory("ke-run options");
  cl::opt<std::string> inputFilename(
      cl::Positional, cl::desc("<input .mlir file>"), cl::cat(runCategory));
  cl::opt<std::string> kernelName(
      "kernel",
      cl::desc("Only this kernel (default: every kernel in the file)"),
      cl::cat(runCategory));
  cl::opt<std::string> candidateName(
      "candidate",
      cl::desc("For a ke.kernel: evaluate this candidate (default: the best "
               "correct candidate, else the reference)"),
      cl::cat(runCategory));
  cl::opt<std::string> targetName("target", cl::init("cpu"),
                                  cl::desc("cpu, nvgpu, amdgpu or riscv"),
                                  cl::cat(runCategory));
  cl::opt<std::string> referenceFilename(
      "reference",
      cl::desc("Take the reference function (same name) from this file instead "
               "of the kernel itself"),
      cl::cat(runCategory));
  cl::opt<uint64_t> seed("seed", cl::init(1), cl::desc("First input seed"),
                         cl::cat(runCategory));
  cl::opt<unsigned> numSeeds("seeds", cl::init(2),
                             cl::desc("Input seeds checked (>= 1)"),
                             cl::cat(runCategory));
  cl::opt<bool> emitJson("json", cl::desc("Print one JSON line per kernel"),
                         cl::cat(runCategory));
  cl::opt<std::string> reportPath(
      "report",
      cl::desc("Write each kernel's JSON line to this file too: a channel the "
               "evaluated code does not write to, so a kernel that prints JSON "
               "cannot forge its verdict (ke-evolve reads verdicts from it)"),
      cl::value_desc("path"), cl::cat(runCategory));
  cl::opt<bool> calibrateOnly(
      "calibrate",
      cl::desc("Measure this machine's peak GFLOP/s and GB/s (with a GPU "
               "--target: the "
               "GPU's, by a device copy and an FMA loop), cache and print "
               "them"),
      cl::cat(runCategory));
  cl::opt<bool> checkOnly("check-only",
                          cl::desc("Check correctness, skip timing"),
                          cl::cat(runCategory));
  cl::opt<double> minTime("min-time", cl::init(0.2),
                          cl::desc("Seconds of timed runs (at least 5)"),
                          cl::cat(runCategory));
  cl::opt<unsigned> timeoutSeconds(
      "timeout", cl::init(120),
      cl::desc("Seconds one kernel may take in all (0: no limit)"),
      cl::cat(runCategory));
  cl::opt<unsigned> memoryLimit(
      "memory-limit", cl::init(8192),
      cl::desc("MiB of heap and private mappings the process may use "
               "(RLIMIT_DATA; 0: no limit, else at least 256): a kernel that "
               "needs more is reported out of memory"),
      cl::cat(runCategory));
  cl::opt<cl::boolOrDefault> specialValues(
      "special-values",
      cl::desc("Also check on inputs with signed zeros and denormals "
               "(default: on for targets that run on this CPU, off for GPUs, "
               "whose fast math may flush denormals legitimately)"),
      cl::cat(runCategory));
  cl::opt<unsigned> maxLoweredOps(
      "max-lowered-ops", cl::init(200000),
      cl::desc("Refuse a kernel whose lowered code has more operations than "
               "this before JIT-compiling it (0: no bound)"),
      cl::cat(runCategory));
  cl::opt<bool> naive("naive",
                      cl::desc("Lower the candidate with the naive "
                               "pipeline too: no schedule of ke-run's "
                               "own (for already scheduled candidates)"),
                      cl::cat(runCategory));
  cl::opt<std::string> outputs(
      "outputs", cl::init("caller"),
      cl::desc("Who provides the result buffers of a CPU kernel: caller "
               "(destination-passing style: allocated once, written in place "
               "by every call, so a timed call measures the kernel) or kernel "
               "(each call allocates and returns fresh buffers)"),
      cl::cat(runCategory));
  cl::opt<std::string> temporaries(
      "temporaries", cl::init("reused"),
      cl::desc("Where a CPU kernel's temporary buffers come from: reused (a "
               "block the kernel frees is kept for its next allocation of "
               "that size, as PyTorch's and IREE's caching allocators do, so "
               "a timed call does not page-fault its temporaries in again) "
               "or system (malloc and free as the C library does them)"),
      cl::cat(runCategory));
  cl::opt<std::string> referenceCache(
      "reference-cache",
      cl::desc("Directory caching the reference's outputs per seed, so that "
               "evaluating many candidates of one kernel runs it once"),
      cl::cat(runCategory));
  cl::opt<unsigned> referenceThreads(
      "reference-threads", cl::init(0),
      cl::desc("Threads the reference (the naive lowering) runs its "
               "independent output elements on; its results are "
               "bit-identical for any count (0: every hardware thread)"),
      cl::cat(runCategory));
  cl::opt<std::string> expectedFile(
      "expected",
      cl::desc("A ke tensor file (ke-import writes one beside each kernel): "
               "also run the kernel on its inputs and compare the results "
               "with its outputs, e.g. PyTorch's own"),
      cl::value_desc("FILE.tensors"), cl::cat(runCategory));
  cl::opt<bool> profile(
      "profile",
      cl::desc("Also run an instrumented copy (ke-instrument) and report each "
               "top-level region's share of the time, plus hardware counters "
               "(perf_event_open) when the kernel allows them"),
      cl::cat(runCategory));
  cl::opt<bool> compileOnly(
      "compile-only",
      cl::desc("nvgpu/amdgpu: compile and report the code's static metrics, "
               "do not run on the GPU"),
      cl::cat(runCategory));
  cl::opt<std::string> bundleDirectory(
      "bundle",
      cl::desc("nvgpu: write each kernel's bundle (host code with PTX, "
               "inputs, the reference's outputs) to DIR/<kernel>, for "
               "ke-gpu-run on a GPU machine"),
      cl::cat(runCategory));
  cl::list<int64_t> gpuBlockTile(
      "gpu-block-tile", cl::CommaSeparated,
      cl::desc("nvgpu/amdgpu: threads per block along the innermost parallel "
               "loops (sets ke.gpu_block_tile; bundles are named "
               "<kernel>@<tile>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuReductionThreads(
      "gpu-reduction-threads",
      cl::init(ke::GPUScheduleDefaults::reductionThreads),
      cl::desc("nvgpu/amdgpu: most threads reducing one row together (0: "
               "each thread reduces its rows alone; bundles of other values "
               "are named <kernel>@r<N>)"),
      cl::cat(runCategory));
  cl::list<int64_t> gpuThreadTile(
      "gpu-thread-tile", cl::CommaSeparated,
      cl::desc("nvgpu/amdgpu: outputs per thread of matmul-like reductions, "
               "right-aligned on their parallel loops (bundles are named "
               "<kernel>@t<tile>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuSharedTile(
      "gpu-shared-tile", cl::init(ke::GPUScheduleDefaults::sharedTile),
      cl::desc("nvgpu/amdgpu: most outputs per block along i and j of "
               "GEMM-like contractions staged through shared memory (16 to "
               "128 in steps of 16; a ceiling, halved for small grids: the "
               "kernel's ke.gpu_shared_tile is taken exactly; 0: no staging; "
               "bundles of other values are named <kernel>@s<N>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuWarps(
      "gpu-warps", cl::init(ke::GPUScheduleDefaults::warps),
      cl::desc("nvgpu/amdgpu: warps per block of contractions staged through "
               "shared memory (2, 4, 8 or 16; bundles of other values are "
               "named <kernel>@w<N>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuTensorCoreTile(
      "gpu-tensor-core-tile", cl::init(ke::GPUScheduleDefaults::tensorCoreTile),
      cl::desc("nvgpu: outputs per block along i and j of contractions with "
               "f16/bf16 inputs (or f32 under ke.precision = \"tf32\") run on "
               "tensor cores (32, 64 or 128, halved for small grids; 0: none; "
               "bundles of other values are named <kernel>@c<N>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuWarpgroupTile(
      "gpu-warpgroup-tile", cl::init(ke::GPUScheduleDefaults::warpgroupTile),
      cl::desc("nvgpu: most columns per block of f16/bf16 GEMMs (row-major, "
               "f32 results) run on Hopper's warpgroup mma fed by TMA (128 "
               "or 256, the widest that still fills the GPU; 0: none, they "
               "take the mma.sync path; bundles of other values are named "
               "<kernel>@g<N>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuStages(
      "gpu-stages", cl::init(ke::GPUScheduleDefaults::stages),
      cl::desc("nvgpu/amdgpu: steps of K in flight in contractions staged "
               "through shared memory (SIMT and tensor cores; cp.async on "
               "nvgpu), at least 1; fewer where shared memory does not "
               "hold them"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuKSplits(
      "gpu-k-splits", cl::init(ke::GPUScheduleDefaults::kSplits),
      cl::desc("nvgpu/amdgpu: blocks per output tile along K of contractions "
               "staged through shared memory, adding their partial sums into "
               "the output (a power of two dividing K's steps; 0: as many as "
               "fill the grid; 1: none; bundles of other values are named "
               "<kernel>@k<N>)"),
      cl::cat(runCategory));
  cl::opt<int64_t> gpuVectorWidth(
      "gpu-vector-width", cl::init(ke::GPUScheduleDefaults::vectorWidth),
      cl::desc("nvgpu/amdgpu: elements per thread of elementwise ops, read "
               "and written as one vector (1, 2 or 4; bundles of other values "
               "are named <kernel>@v<N>)"),
      cl::cat(runCategory));
  cl::opt<bool> emitAssembly(
      "emit-asm",
      cl::desc("riscv: print the kernel's RISC-V assembly before its report"),
      cl::cat(runCategory));
  cl::opt<std::string> riscvCPU(
      "riscv-cpu", cl::init("sifive-x280"),
      cl::desc("riscv: the CPU model of code generation and of "
               "llvm-mca's cycle estimate"),
      cl::cat(runCategory));
  cl::opt<std::string> workDirectory(
      "work-dir",
      cl::desc("riscv: keep the object, harness, assembly and llvm-mca input "
               "in this directory (default: a temporary one, removed)"),
      cl::cat(runCategory));
  cl::opt<double> riscvGHz(
      "riscv-ghz", cl::init(1.0),
      cl::desc("riscv: clock that turns estimated cycles into time"),
      cl::cat(runCategory));
  cl::opt<int64_t> vectorWidth("vector-width", cl::init(8),
                               cl::desc("Vector width of the default "
                                        "schedule"),
                               cl::cat(runCategory));

  cl::HideUnrelatedOptions(runCategory);
  llvm::SmallVector<char *> arguments;
  unsigned threads = 1;
  if (failed(extractThreadsOption(argc, argv, arguments, threads)))
    return std::nullopt;
  cl::ParseCommandLineOptions(
      static_cast<int>(arguments.size()), arguments.data(),
      "ke-run: lower, run, check and time the kernels of an MLIR file\n\n"
      "  --threads=<N>  Threads the kernel may use; also selects the "
      "calibrated peaks (default 1)\n");
  if (outputs != "caller" && outputs != "kernel") {
    llvm::errs() << "ke-run: --outputs must be caller or kernel, found '"
                 << outputs << "'\n";
    return std::nullopt;
  }
  if (temporaries != "reused" && temporaries != "system") {
    llvm::errs() << "ke-run: --temporaries must be reused or system, found '"
                 << temporaries << "'\n";
    return std::nullopt;
  }
  if (memoryLimit != 0 && memoryLimit < 256) {
    llvm::errs() << "ke-run: --memory-limit=" << memoryLimit
                 << " is out of range: 0 (no limit) or at least 256 MiB\n";
    return std::nullopt;
  }
  RunCommand command;
  command.memoryLimitMB = memoryLimit;
  ke::eval::CPUKernel::setOperationLimit(maxLoweredOps);
  command.inputFilename = inputFilename;
  command.referenceFilename = referenceFilename;
  command.kernel = kernelName;
  command.candidate = candidateName;
  command.reportPath = reportPath;
  command.json = emitJson;
  command.calibrateOnly = calibrateOnly;
  command.targetName = targetName;
  ke::eval::EvaluationOptions &options = command.evaluation;
  options.target = ke::lookupTarget(targetName.getValue());
  options.threads = threads;
  options.seed = seed;
  options.seeds = numSeeds;
  options.specialValues =
      specialValues == cl::BOU_UNSET
          ? options.target && options.target->runsInProcess()
          : specialValues == cl::BOU_TRUE;
  options.checkOnly = checkOnly;
  options.minTimeSeconds = minTime;
  options.timeoutSeconds = timeoutSeconds;
  options.naive = naive;
  options.callerOutputs = outputs == "caller";
  options.reuseTemporaries = temporaries == "reused";
  options.vectorWidth = vectorWidth;
  options.referenceCache = referenceCache;
  options.referenceThreads = referenceThreads;
  options.expectedFile = expectedFile;
  options.profile = profile;
  options.emitAssembly = emitAssembly;
  options.riscvCPU = riscvCPU;
  options.workDirectory = workDirectory;
  options.riscvGHz = riscvGHz;
  options.compileOnly = compileOnly;
  options.bundleDirectory = bundleDirectory;
  options.gpu.blockTile.assign(gpuBlockTile.begin(), gpuBlockTile.end());
  options.gpu.reductionThreads = gpuReductionThreads;
  options.gpu.threadTile.assign(gpuThreadTile.begin(), gpuThreadTile.end());
  options.gpu.sharedTile = gpuSharedTile;
  options.gpu.warps = gpuWarps;
  options.gpu.tensorCoreTile = gpuTensorCoreTile;
  options.gpu.warpgroupTile = gpuWarpgroupTile;
  options.gpu.stages = gpuStages;
  options.gpu.kSplits = gpuKSplits;
  options.gpu.vectorWidth = gpuVectorWidth;
  return command;
}
