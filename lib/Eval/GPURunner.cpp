//===- GPURunner.cpp - candidates compiled for a GPU, run where one is ----===//
//
// nvgpu and amdgpu: the candidate's tensor program is checked on the CPU
// (correctness does not depend on the target), then compiled for the GPU
// into a bundle (host code with PTX or a code object, inputs, expected
// outputs) that the GPU driver runs and checks again on the device; where
// no GPU is present, its time is the documented static cost.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/CPURunner.h"
#include "ke/Eval/GPUBundleWriter.h"
#include "ke/Eval/GPUCodeStats.h"
#include "ke/Eval/GPUPeaks.h"
#include "ke/Eval/PrepareForLowering.h"
#include "ke/Eval/TargetRunner.h"
#include "ke/KeDialect.h"
#include "ke/Runtime/GPUBundle.h"
#include "ke/Runtime/GPUDriver.h"
#include "ke/Support/DiagnosticCollector.h"
#include "ke/Target/CPUPipeline.h"
#include "ke/Target/GPUPipeline.h"
#include "ke/Target/TargetInfo.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace ke::eval;

namespace {
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

/// "<kernel>@<block tile>r<threads>t<thread tile>s<shared>v<width>w<warps>
/// c<tensor core tile>p<stages>k<K splits>"
/// with only the knobs that differ from the defaults: bundles of one kernel
/// side by side in one directory.
std::string getBundleName(llvm::StringRef kernel, const ke::GPUSchedule &knobs) {
  std::string name = kernel.str();
  auto addKnob = [&](llvm::StringRef letter, const std::string &value) {
    name += (name.find('@') == std::string::npos ? "@" : "") + letter.str() +
            value;
  };
  auto join = [](llvm::ArrayRef<int64_t> sizes) {
    std::string text;
    for (auto [i, size] : llvm::enumerate(sizes))
      text += (i ? "x" : "") + std::to_string(size);
    return text;
  };
  ke::GPUSchedule defaults;
  if (!knobs.blockTile.empty())
    addKnob("", join(knobs.blockTile));
  if (knobs.reductionThreads != defaults.reductionThreads)
    addKnob("r", std::to_string(knobs.reductionThreads));
  if (!knobs.threadTile.empty())
    addKnob("t", join(knobs.threadTile));
  if (knobs.sharedTile != defaults.sharedTile)
    addKnob("s", std::to_string(knobs.sharedTile));
  if (knobs.vectorWidth != defaults.vectorWidth)
    addKnob("v", std::to_string(knobs.vectorWidth));
  if (knobs.warps != defaults.warps)
    addKnob("w", std::to_string(knobs.warps));
  if (knobs.tensorCoreTile != defaults.tensorCoreTile)
    addKnob("c", std::to_string(knobs.tensorCoreTile));
  if (knobs.warpgroupTile != defaults.warpgroupTile)
    addKnob("g", std::to_string(knobs.warpgroupTile));
  if (knobs.stages != defaults.stages)
    addKnob("p", std::to_string(knobs.stages));
  if (knobs.kSplits != defaults.kSplits)
    addKnob("k", std::to_string(knobs.kSplits));
  return name;
}


class GPURunner : public TargetRunner {
public:
  explicit GPURunner(const EvaluationOptions &options)
      : options(options), target(options.getTarget()) {}

  llvm::Error compile(const KernelJob &kernelJob,
                      const KernelSignature &kernelSignature) override {
    job = kernelJob;
    signature = &kernelSignature;
    ke::runtime::selectGPUVendor(target.kind == ke::TargetKind::NVGPU
                                     ? ke::runtime::GPUVendor::NVIDIA
                                     : ke::runtime::GPUVendor::AMD);
    haveGPU = !options.compileOnly &&
              ke::runtime::getGPUDriver(&driverProblem) != nullptr;
    // With a GPU, every seed is checked on it (runOnDevice): running the
    // program on the host too only cost time (a bf16 8192^3 GEMM in the
    // default CPU schedule: many minutes). It is compiled on first use.
    if (haveGPU)
      return llvm::Error::success();
    return compileHostCheck();
  }

  llvm::Error run(llvm::ArrayRef<HostTensor> inputs,
                  llvm::SmallVectorImpl<HostTensor> &outputs) override {
    if (!hostCheck)
      if (llvm::Error error = compileHostCheck())
        return error;
    return hostCheck->run(inputs, &outputs);
  }

  bool checksSeedsOnTarget() const override { return haveGPU; }

  void keepSeed(unsigned, llvm::ArrayRef<HostTensor> inputs,
                llvm::SmallVector<HostTensor> expected,
                llvm::ArrayRef<double> allowances) override {
    if (!haveGPU && options.bundleDirectory.empty())
      return;
    // The bundle holds one tolerance for every result and seed.
    for (double allowance : allowances)
      roundingAllowance = std::max(roundingAllowance, allowance);
    llvm::SmallVector<HostTensor> inputCopies;
    for (const HostTensor &input : inputs)
      inputCopies.push_back(input.clone());
    seeds.push_back({std::move(inputCopies), std::move(expected)});
  }

  llvm::Error measure(llvm::ArrayRef<HostTensor> inputs,
                      EvaluationReport &report) override;

private:
  /// The host check runs the tensor program, which the GPU knobs do not
  /// change, with the default CPU schedule even for --naive (which the
  /// search passes for every candidate): in plain loops on one thread a
  /// 1024^3 GEMM took 14 s per evaluation, and the bench's GEMM searches
  /// on the GPU ran out of time before their first candidate.
  llvm::Error compileHostCheck() {
    ke::LowerCPUOptions lowering;
    lowering.vectorWidth = options.vectorWidth;
    auto compiled = CPUKernel::compile(job.evaluated, lowering, *signature);
    if (!compiled)
      return compiled.takeError();
    hostCheck = std::move(*compiled);
    return llvm::Error::success();
  }

  OwningOpRef<ModuleOp> prepare();
  llvm::Error lower(ModuleOp module, bool binary);
  llvm::Error runOnDevice(ModuleOp lowered, EvaluationReport &report);
  bool isNVIDIA() const { return target.kind == ke::TargetKind::NVGPU; }

  const EvaluationOptions &options;
  const ke::TargetInfo &target;
  KernelJob job;
  const KernelSignature *signature = nullptr;
  std::unique_ptr<CPUKernel> hostCheck;
  bool haveGPU = false;
  std::string driverProblem;
  struct Seed {
    llvm::SmallVector<HostTensor> inputs, expected;
  };
  llvm::SmallVector<Seed, 2> seeds;
  double roundingAllowance = 0.0;
};
} // namespace

std::unique_ptr<TargetRunner>
ke::eval::createGPURunner(const EvaluationOptions &options) {
  return std::make_unique<GPURunner>(options);
}

/// A module holding a copy of the kernel, ready for a GPU lowering.
OwningOpRef<ModuleOp> GPURunner::prepare() {
  MLIRContext *context = job.evaluated.getContext();
  OwningOpRef<ModuleOp> module;
  func::FuncOp clone = cloneIntoNewModule(job.evaluated, module);
  prepareForLowering(clone);
  clone->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
  if (!options.gpu.blockTile.empty())
    clone->setAttr(ke::KeDialect::kGPUBlockTileAttrName,
                   DenseI64ArrayAttr::get(context, options.gpu.blockTile));
  return module;
}

/// `binary`: the code object (format=bin) instead of assembly.
llvm::Error GPURunner::lower(ModuleOp module, bool binary) {
  MLIRContext *context = job.evaluated.getContext();
  ke::DiagnosticCollector diagnostics(context);
  PassManager pm(context, ModuleOp::getOperationName());
  ke::LowerGPUOptions lowering;
  lowering.reductionThreads = options.gpu.reductionThreads;
  lowering.threadTile = SmallVector<int64_t>(options.gpu.threadTile.begin(),
                                             options.gpu.threadTile.end());
  lowering.sharedTile = options.gpu.sharedTile;
  lowering.vectorWidth = options.gpu.vectorWidth;
  lowering.warps = options.gpu.warps;
  lowering.tensorCoreTile = options.gpu.tensorCoreTile;
  lowering.warpgroupTile = options.gpu.warpgroupTile;
  lowering.stages = options.gpu.stages;
  lowering.kSplits = options.gpu.kSplits;
  std::optional<ScopedROCmLinker> rocmLinker;
  if (binary) {
    lowering.format = "bin";
    if (!isNVIDIA())
      rocmLinker.emplace();
  }
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(isNVIDIA()
                 ? ke::buildLowerNVGPUPipeline(pm, lowering, errorStream)
                 : ke::buildLowerAMDGPUPipeline(pm, lowering, errorStream)))
    return llvm::createStringError("lower: " + errors);
  if (failed(pm.run(module)) || !diagnostics.str().empty())
    return llvm::createStringError("lower: " + diagnostics.str());
  return llvm::Error::success();
}

llvm::Error GPURunner::measure(llvm::ArrayRef<HostTensor>,
                               EvaluationReport &report) {
  setEvaluationStage("lower");
  OwningOpRef<ModuleOp> module = prepare();
  if (llvm::Error error = lower(*module, /*binary=*/false))
    return error;
  std::vector<std::string> code = collectGPUCode(*module);
  if (code.empty())
    return llvm::createStringError("lower: no GPU kernel came out of the "
                                   "lowering");
  GPUCodeStats stats;
  std::string chip(target.gpu.chip);
  for (const std::string &text : code) {
    GPUCodeStats part =
        isNVIDIA() ? analyzePTX(text, chip) : analyzeAMDGCN(text, chip);
    stats.chip = part.chip;
    stats.source = part.source;
    for (GPUKernelStats &kernel : part.kernels)
      stats.kernels.push_back(std::move(kernel));
  }
  if (options.emitAssembly)
    for (const std::string &text : code)
      llvm::outs() << text;
  report.compiled = true;
  report.gpuCode = stats.toJSON();
  // AMD runs the code object (hsaco), NVIDIA the PTX of `module`.
  OwningOpRef<ModuleOp> binaryModule;
  if (!isNVIDIA()) {
    setEvaluationStage("hsaco");
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
  report.notRunnable = options.compileOnly ? "--compile-only" : driverProblem;
  if (options.profile && !haveGPU)
    report.profileError =
        "the per-launch profile needs the GPU: " + report.notRunnable;
  if (haveGPU || !options.bundleDirectory.empty()) {
    if (llvm::Error error =
            runOnDevice(isNVIDIA() ? *module : *binaryModule, report))
      return error;
    if (*report.runnable)
      return llvm::Error::success();
  }
  if (options.checkOnly)
    return llvm::Error::success();
  double cost = stats.getStaticCost();
  report.timing = TimingResult{cost, cost, 1};
  report.timeSource =
      "static cost: sum over kernels of instructions x 8 / min(8, "
      "occupancy) + 4 x spill bytes (not a time; correctness checked on the "
      "CPU)";
  return llvm::Error::success();
}

/// Writes the bundle (to --bundle's directory, else a temporary one) and,
/// with a GPU present, runs it there: the device checks every seed again
/// and times the kernel.
llvm::Error GPURunner::runOnDevice(ModuleOp lowered, EvaluationReport &report) {
  setEvaluationStage("bundle");
  llvm::SmallString<128> directory;
  if (!options.bundleDirectory.empty()) {
    directory = options.bundleDirectory;
    llvm::sys::path::append(directory, getBundleName(job.name, options.gpu));
  } else if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(
                 "ke-gpu", directory)) {
    return llvm::createStringError("bundle: " + ec.message());
  }
  // --profile: a second build with probes, whose kernels time themselves
  // on the device (ke-time-gpu-kernels).
  OwningOpRef<ModuleOp> profiled;
  std::vector<std::string> regionNames;
  if (options.profile) {
    setEvaluationStage("profile");
    profiled = prepare();
    std::string problem;
    {
      ke::DiagnosticCollector diagnostics(job.evaluated.getContext());
      PassManager pm(job.evaluated.getContext(),
                     ModuleOp::getOperationName());
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
      if (llvm::Error error = lower(*profiled, /*binary=*/!isNVIDIA()))
        problem = "profile " + llvm::toString(std::move(error));
    // Extra diagnosis: without it the kernel is still checked and timed.
    if (!problem.empty()) {
      report.profileError = problem;
      profiled = nullptr;
    }
    setEvaluationStage("bundle");
  }
  if (llvm::Error error =
          writeGPUBundle(lowered, job.name, std::string(target.name),
                         *signature, seeds.size(), roundingAllowance,
                         directory))
    return error;
  if (profiled)
    if (llvm::Error error =
            addGPUProfileBuild(*profiled, regionNames, directory))
      report.profileError = "profile " + llvm::toString(std::move(error));
  for (auto [index, seed] : llvm::enumerate(seeds))
    if (llvm::Error error =
            addBundleSeed(directory, index, seed.inputs, seed.expected))
      return error;
  if (!haveGPU)
    return llvm::Error::success();
  setEvaluationStage("run");
  // Test hook (docs/targets.md): a candidate whose IR holds the text of
  // $KE_GPU_INJECT_FAULT faults on the device first, as a miscompiled one
  // would, so that containment on the GPU can be tested end to end.
  if (const char *marker = std::getenv("KE_GPU_INJECT_FAULT")) {
    std::string text;
    llvm::raw_string_ostream printed(text);
    job.evaluated->print(printed);
    if (*marker && llvm::StringRef(text).contains(marker))
      ke::runtime::injectDeviceFault();
  }
  ke::runtime::BundleResult result = ke::runtime::runBundle(
      std::string(directory), options.minTimeSeconds, options.profile);
  if (options.bundleDirectory.empty())
    llvm::sys::fs::remove_directories(directory);
  report.runnable = true;
  report.correct = result.correct;
  report.maxAbsError = result.maxAbsError;
  report.maxRelError = result.maxRelError;
  if (!result.correct)
    return llvm::createStringError(result.error);
  report.timing = TimingResult{result.medianNs, result.minNs, result.runs};
  report.timeSource = std::string(isNVIDIA() ? "CUDA" : "HIP") +
                      " events on " + result.device +
                      " up to the end of the call's GPU work, L2 flushed "
                      "before each run";
  // Regions timed on the device where the profiling build ran; else each
  // launch, timed with events.
  std::vector<ke::runtime::BundleResult::RegionTime> regionTimes =
      result.getRegionTimes();
  double total = 0;
  for (const auto &region : regionTimes)
    total += region.deviceNs;
  for (const auto &region : regionTimes)
    report.regions.push_back(
        {region.name, region.deviceNs, total > 0 ? region.deviceNs / total : 0});
  if (regionTimes.empty()) {
    for (const ke::runtime::LaunchTime &launch : result.profile)
      total += launch.ns;
    for (auto [index, launch] : llvm::enumerate(result.profile))
      report.regions.push_back(
          {"launch " + std::to_string(index) + " " + launch.kernel, launch.ns,
           total > 0 ? launch.ns / total : 0});
  }
  if (!result.profileError.empty() && report.profileError.empty())
    report.profileError = result.profileError;
  if (llvm::json::Object *code =
          report.gpuCode ? report.gpuCode->getAsObject() : nullptr) {
    code->insert({"launches_per_call", result.launchesPerCall});
    code->insert({"gpu_lock_wait_ms", result.lockWaitMs});
  }
  // The bound against this GPU's measured peaks (extra diagnosis: without
  // them the measured time stands).
  setEvaluationStage("calibrate");
  llvm::Expected<MachinePeaks> peaks = getOrCalibrateGPUPeaks();
  if (!peaks) {
    llvm::consumeError(peaks.takeError());
    return llvm::Error::success();
  }
  report.peakGflops = peaks->gflops;
  report.peakGbps = peaks->gbps;
  report.bound =
      getBoundName(classifyBound(report.work.flops, report.work.bytes, *peaks))
          .str();
  return llvm::Error::success();
}
