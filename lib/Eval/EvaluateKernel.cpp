//===- EvaluateKernel.cpp - one loop over seeds for every target ----------===//
//
// Correctness is decided here, the same way for every target: the naive
// lowering of the reference, run on the host, gives the expected outputs;
// the target's runner gives the candidate's; every seed must match.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/EvaluateKernel.h"

#include "ke/Codegen/WidenReferencePrecision.h"
#include "ke/Eval/CPURunner.h"
#include "ke/Eval/Compare.h"
#include "ke/Eval/CrashContainment.h"
#include "ke/Eval/IndexRange.h"
#include "ke/Eval/Inputs.h"
#include "ke/Eval/PrepareForLowering.h"
#include "ke/Eval/TargetRunner.h"
#include "ke/Eval/TensorFile.h"
#include "ke/Eval/WorkEstimate.h"
#include "ke/Target/CPUPipeline.h"
#include "ke/Target/TargetInfo.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <unistd.h>

using namespace mlir;
using namespace ke::eval;

static const char *currentStage = "setup";

const char *ke::eval::getEvaluationStage() { return currentStage; }
void ke::eval::setEvaluationStage(const char *stage) { currentStage = stage; }

const ke::TargetInfo &EvaluationOptions::getTarget() const {
  return target ? *target : ke::getTarget(ke::TargetKind::CPU);
}

TargetRunner::~TargetRunner() = default;

std::unique_ptr<TargetRunner>
ke::eval::createTargetRunner(const EvaluationOptions &options) {
  switch (options.getTarget().runner) {
  case RunnerKind::HostJIT:
    return createHostJITRunner(options);
  case RunnerKind::Emulator:
    return createEmulatorRunner(options);
  case RunnerKind::GPU:
    return createGPURunner(options);
  }
  return createHostJITRunner(options);
}

std::string ke::eval::describeUnrangedIntegers(func::FuncOp reference) {
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

namespace {
/// FNV-1a over a tensor's bytes: enough to see that a run wrote to it.
uint64_t checksum(const HostTensor &tensor) {
  const auto *bytes = static_cast<const unsigned char *>(tensor.getData());
  uint64_t hash = 1469598103934665603ull;
  for (int64_t i = 0, e = tensor.getSpec().getNumBytes(); i < e; ++i)
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

llvm::SmallVector<uint64_t> checksums(llvm::ArrayRef<HostTensor> tensors) {
  llvm::SmallVector<uint64_t> sums;
  for (const HostTensor &tensor : tensors)
    sums.push_back(checksum(tensor));
  return sums;
}

/// Inputs are read-only: a kernel that writes one in place would make the
/// next comparison (and its own timing) meaningless.
llvm::Error checkInputsUnchanged(llvm::ArrayRef<HostTensor> inputs,
                                 llvm::ArrayRef<uint64_t> before,
                                 llvm::StringRef who) {
  for (auto [index, input] : llvm::enumerate(inputs))
    if (checksum(input) != before[index])
      return llvm::createStringError(llvm::formatv(
          "check: {0} wrote to input #{1}; inputs are read-only (return a "
          "new tensor instead of updating an argument in place)",
          who, index));
  return llvm::Error::success();
}

/// A reduction this long, summed in f32 in loop order, rounds by about a
/// tenth of the f32 tolerance (inputs in [-1, 1)): from here on the
/// reference is also computed in f64.
constexpr int64_t kLongReduction = 1024;

/// The reference's outputs per seed: read from the cache directory when
/// another evaluation of the same reference left them there, else computed
/// by the naive lowering (compiled once, on first need) and cached. Kernels
/// with a long floating-point reduction are computed in f64 as well (see
/// joinWideReference); their float results are the f64 ones.
class ReferenceOutputs {
public:
  ReferenceOutputs(func::FuncOp reference, const KernelSignature &signature,
                   llvm::StringRef cacheDirectory, unsigned threads,
                   unsigned alarmSeconds)
      : reference(reference), signature(signature),
        cacheDirectory(cacheDirectory), threads(threads),
        alarmSeconds(alarmSeconds) {
    // 16-bit inputs and TF32 are held to tolerances that dwarf f32's
    // rounding; their references (the slowest: 8192^3 GEMMs) stay single.
    widen = ke::getLongestFloatReduction(reference) >= kLongReduction &&
            !signature.allowsTF32 &&
            llvm::none_of(signature.arguments, [](const TensorSpec &spec) {
              return spec.kind == ElementKind::F16 ||
                     spec.kind == ElementKind::BF16;
            });
    if (cacheDirectory.empty())
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    reference->print(os);
    cacheKey = llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true);
  }

  /// `expected` and, per result, the rounding allowance its comparison
  /// adds to the tolerance (0 where the reference is single).
  llvm::Error compute(llvm::ArrayRef<HostTensor> inputs, uint64_t inputSeed,
                      llvm::SmallVectorImpl<HostTensor> &expected,
                      llvm::SmallVectorImpl<double> &allowances) {
    if (!cacheKey.empty() && load(inputSeed, expected, allowances))
      return llvm::Error::success();
    // A search's workers start on one kernel's candidates together: one of
    // them computes the reference (a naive 1024^3 GEMM: seconds on every
    // core), the others wait for its files instead of competing with it.
    std::optional<llvm::raw_fd_ostream> lockFile;
    std::optional<llvm::sys::fs::FileLocker> lock;
    if (!cacheKey.empty()) {
      llvm::sys::fs::create_directories(cacheDirectory);
      std::error_code ec;
      lockFile.emplace(getPath(inputSeed, "lock"), ec,
                       llvm::sys::fs::OF_Append);
      if (!ec) {
        llvm::Expected<llvm::sys::fs::FileLocker> locked = lockFile->lock();
        if (locked)
          lock.emplace(std::move(*locked));
        else
          llvm::consumeError(locked.takeError()); // compute it unlocked
      }
      if (load(inputSeed, expected, allowances))
        return llvm::Error::success();
    }
    if (!compiled) {
      setEvaluationStage("lower");
      auto kernel = compileReference(reference);
      if (!kernel)
        return kernel.takeError();
      compiled = std::move(*kernel);
      if (widen)
        compileWideReference();
      setEvaluationStage("run reference");
    }
    if (llvm::Error error = run(*compiled, inputs, expected))
      return error;
    allowances.assign(expected.size(), 0.0);
    // The special-values seed too: where f32 overflows and f64 does not,
    // the join keeps the f32 reference's value.
    if (wideCompiled) {
      llvm::SmallVector<HostTensor> wide;
      if (llvm::Error error = run(*wideCompiled, inputs, wide))
        return llvm::createStringError("wide " +
                                       llvm::toString(std::move(error)));
      joinWideReference(expected, wide, allowances);
    }
    if (!cacheKey.empty())
      save(inputSeed, expected, allowances);
    return llvm::Error::success();
  }

  /// Why a reference that qualified for f64 stayed in f32 (empty if not).
  llvm::StringRef getWideningProblem() const { return wideningProblem; }

private:
  llvm::Expected<std::unique_ptr<CPUKernel>>
  compileReference(func::FuncOp function) {
    ke::LowerCPUOptions options;
    options.naive = true;
    options.referenceThreads = threads;
    auto kernel = CPUKernel::compile(function, options, signature);
    if (!kernel)
      return llvm::createStringError("reference " +
                                     llvm::toString(kernel.takeError()));
    return kernel;
  }

  /// The reference computed in f64 (ke-widen-reference-precision) on a
  /// copy; where that copy is not valid the reference stays single.
  void compileWideReference() {
    OwningOpRef<ModuleOp> module;
    func::FuncOp copy = cloneIntoNewModule(reference, module);
    std::string problem;
    {
      ScopedDiagnosticHandler collect(
          reference.getContext(), [&](Diagnostic &diagnostic) {
            if (problem.empty())
              problem = diagnostic.str();
            return success();
          });
      if (failed(ke::widenF32ToF64(copy)) && problem.empty())
        problem = "its body is not valid in f64";
    }
    if (problem.empty()) {
      auto kernel = compileReference(copy);
      if (kernel)
        wideCompiled = std::move(*kernel);
      else
        problem = llvm::toString(kernel.takeError());
    }
    if (!problem.empty())
      wideningProblem = "the reference is computed in f32 only: widening it "
                        "to f64 failed: " + problem;
  }

  llvm::Error run(CPUKernel &kernel, llvm::ArrayRef<HostTensor> inputs,
                  llvm::SmallVectorImpl<HostTensor> &outputs) {
    if (threads > 1)
      return runInChild(kernel, inputs, outputs);
    if (llvm::Error error = kernel.run(inputs, &outputs))
      return llvm::createStringError("reference " +
                                     llvm::toString(std::move(error)));
    return llvm::Error::success();
  }

  /// The reference on threads runs in a child process: a crash on an OpenMP
  /// worker cannot be contained in this one (see runInChildProcess). The
  /// child also checks that the reference left its inputs alone, which
  /// this process could not see.
  llvm::Error runInChild(CPUKernel &kernel, llvm::ArrayRef<HostTensor> inputs,
                         llvm::SmallVectorImpl<HostTensor> &expected) {
    size_t bytes = 0;
    for (const TensorSpec &spec : signature.results)
      bytes += spec.getNumBytes();
    std::vector<char> results(bytes);
    llvm::SmallVector<uint64_t> inputSums = checksums(inputs);
    std::optional<std::string> failure = runInChildProcess(
        results, alarmSeconds, [&](llvm::MutableArrayRef<char> shared) {
          llvm::SmallVector<HostTensor> outputs;
          if (llvm::Error error = kernel.run(inputs, &outputs))
            return "reference " + llvm::toString(std::move(error));
          if (llvm::Error error =
                  checkInputsUnchanged(inputs, inputSums, "the reference"))
            return llvm::toString(std::move(error));
          size_t offset = 0;
          for (const HostTensor &output : outputs) {
            size_t size = output.getSpec().getNumBytes();
            std::memcpy(shared.data() + offset, output.getData(), size);
            offset += size;
          }
          return std::string();
        });
    if (failure) {
      llvm::StringRef message(*failure);
      if (message.consume_front("error: "))
        return llvm::createStringError(message);
      return llvm::createStringError("run reference: the kernel " + *failure +
                                     describeUnrangedIntegers(reference));
    }
    expected.clear();
    size_t offset = 0;
    for (const TensorSpec &spec : signature.results) {
      HostTensor tensor(spec);
      std::memcpy(tensor.getData(), results.data() + offset,
                  spec.getNumBytes());
      offset += spec.getNumBytes();
      expected.push_back(std::move(tensor));
    }
    return llvm::Error::success();
  }

  /// The file of `result` (an index: rN.bin) or of the seed's lock.
  std::string getPath(uint64_t inputSeed, size_t result) const {
    return getPath(inputSeed, ("r" + llvm::Twine(result) + ".bin").str());
  }
  std::string getPath(uint64_t inputSeed, llvm::StringRef suffix) const {
    llvm::SmallString<256> path(cacheDirectory);
    llvm::sys::path::append(
        path, llvm::formatv("{0}-s{1}-{2}", cacheKey, inputSeed, suffix));
    return std::string(path);
  }

  /// False if any output is missing (then none is used), or a wide
  /// reference's allowances (a cache left by an older ke has none).
  bool load(uint64_t inputSeed, llvm::SmallVectorImpl<HostTensor> &outputs,
            llvm::SmallVectorImpl<double> &allowances) {
    outputs.clear();
    allowances.assign(signature.results.size(), 0.0);
    if (widen) {
      auto buffer = llvm::MemoryBuffer::getFile(getPath(inputSeed, "allowance"));
      if (!buffer)
        return false;
      llvm::SmallVector<llvm::StringRef> words;
      (*buffer)->getBuffer().split(words, ' ', -1, /*KeepEmpty=*/false);
      if (words.size() != allowances.size())
        return false;
      for (auto [word, allowance] : llvm::zip_equal(words, allowances))
        if (word.trim().getAsDouble(allowance))
          return false;
    }
    for (auto [index, spec] : llvm::enumerate(signature.results)) {
      auto buffer = llvm::MemoryBuffer::getFile(getPath(inputSeed, index));
      if (!buffer || (*buffer)->getBufferSize() !=
                         static_cast<size_t>(spec.getNumBytes())) {
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
  void save(uint64_t inputSeed, llvm::ArrayRef<HostTensor> outputs,
            llvm::ArrayRef<double> allowances) {
    llvm::sys::fs::create_directories(cacheDirectory);
    auto write = [&](const std::string &path, llvm::StringRef bytes) {
      std::string temporary = path + "." + std::to_string(getpid());
      {
        std::error_code ec;
        llvm::raw_fd_ostream out(temporary, ec);
        if (ec)
          return false;
        out << bytes;
      }
      return !llvm::sys::fs::rename(temporary, path);
    };
    for (auto [index, output] : llvm::enumerate(outputs))
      if (!write(getPath(inputSeed, index),
                 llvm::StringRef(static_cast<const char *>(output.getData()),
                                 output.getSpec().getNumBytes())))
        return;
    // Written last: its presence says the outputs are the wide ones.
    if (widen) {
      std::string text;
      for (double allowance : allowances)
        text += llvm::formatv("{0:e17} ", allowance).str();
      write(getPath(inputSeed, "allowance"), text);
    }
  }

  func::FuncOp reference;
  const KernelSignature &signature;
  std::string cacheDirectory, cacheKey;
  unsigned threads, alarmSeconds;
  bool widen = false;
  std::unique_ptr<CPUKernel> compiled, wideCompiled;
  std::string wideningProblem;
};

/// The evaluated function's signature, checked against the reference's.
llvm::Expected<KernelSignature> checkSignature(KernelJob job) {
  llvm::Expected<KernelSignature> signature = getKernelSignature(job.evaluated);
  if (!signature)
    return llvm::createStringError("signature: " +
                                   llvm::toString(signature.takeError()));
  if (job.reference.getFunctionType() != job.evaluated.getFunctionType())
    return llvm::createStringError(
        "signature: the reference's function type differs from the kernel's");
  // The tolerance and the precision allowed are the author's: read from the
  // reference, never from the candidate they judge.
  signature->atol.reset();
  signature->rtol.reset();
  if (auto atol = job.reference->getAttrOfType<FloatAttr>("ke.atol"))
    signature->atol = atol.getValueAsDouble();
  if (auto rtol = job.reference->getAttrOfType<FloatAttr>("ke.rtol"))
    signature->rtol = rtol.getValueAsDouble();
  auto precision = job.reference->getAttrOfType<StringAttr>("ke.precision");
  signature->allowsTF32 = precision && precision.getValue() == "tf32";
  // Index inputs without ke.range get the range the reference's use implies.
  inferIndexRanges(job.reference, *signature);
  return signature;
}

/// How errors name a seed.
std::string describeSeed(uint64_t inputSeed) {
  if (isSpecialValuesSeed(inputSeed))
    return "the special-values seed (signed zeros and denormals)";
  return "seed " + std::to_string(inputSeed);
}

/// A reference whose results hold NaN or Inf still "matches" a candidate
/// with the same non-finite positions; say so instead of staying silent.
void noteNonFiniteReference(llvm::ArrayRef<HostTensor> expected,
                            uint64_t inputSeed, EvaluationReport &report) {
  for (auto [index, tensor] : llvm::enumerate(expected)) {
    if (!isFloatKind(tensor.getSpec().kind))
      continue;
    int64_t nonFinite = 0;
    for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
      nonFinite += !std::isfinite(tensor.getAsDouble(i));
    if (nonFinite)
      report.referenceWarnings.push_back(
          llvm::formatv("result #{0} of the reference holds {1} NaN or Inf "
                        "values of {2} with {3}",
                        index, nonFinite, tensor.getNumElements(),
                        describeSeed(inputSeed))
              .str());
  }
}

/// Compares every result with its expected tensor, raising `maxAbs` and
/// `maxRel` to the largest errors; returns the first result that differs.
/// `allowances` (per result, or empty) widen the absolute tolerance.
std::optional<std::pair<size_t, Comparison>>
findMismatch(const KernelSignature &signature,
             llvm::ArrayRef<HostTensor> actual,
             llvm::ArrayRef<HostTensor> expected,
             llvm::ArrayRef<double> allowances, double &maxAbs,
             double &maxRel) {
  for (size_t r = 0; r < expected.size(); ++r) {
    Tolerance tolerance = signature.getTolerance(expected[r].getSpec().kind);
    if (!allowances.empty())
      tolerance.atol += allowances[r];
    Comparison comparison = compareTensors(actual[r], expected[r], tolerance);
    maxAbs = std::max(maxAbs, comparison.maxAbsError);
    maxRel = std::max(maxRel, comparison.maxRelError);
    if (!comparison.matches)
      return std::make_pair(r, comparison);
  }
  return std::nullopt;
}

/// Compares every result with the reference's for one seed, keeping the
/// largest errors in `report`; the first mismatch is the error.
llvm::Error compareOutputs(const KernelSignature &signature,
                           llvm::ArrayRef<HostTensor> actual,
                           llvm::ArrayRef<HostTensor> expected,
                           llvm::ArrayRef<double> allowances,
                           uint64_t inputSeed, EvaluationReport &report) {
  auto mismatch = findMismatch(signature, actual, expected, allowances,
                               report.maxAbsError, report.maxRelError);
  if (!mismatch)
    return llvm::Error::success();
  auto &[r, comparison] = *mismatch;
  return llvm::createStringError(llvm::formatv(
      "compare: result #{0} differs from the reference with {1}: "
      "{2} of {3} elements mismatch; first: {4}",
      r, describeSeed(inputSeed), comparison.numMismatches,
      expected[r].getNumElements(), comparison.firstMismatch));
}
/// Compares `actual` with a tensor file's outputs, raising `check`'s
/// largest errors; the first result that differs is the error.
llvm::Error compareWithFile(const KernelSignature &signature,
                            llvm::StringRef path,
                            llvm::ArrayRef<HostTensor> outputs,
                            llvm::ArrayRef<HostTensor> actual,
                            EvaluationReport::ExpectedCheck &check) {
  auto mismatch = findMismatch(signature, actual, outputs, {},
                               check.maxAbsError, check.maxRelError);
  if (!mismatch)
    return llvm::Error::success();
  auto &[index, comparison] = *mismatch;
  return llvm::createStringError(llvm::formatv(
      "result #{0} differs from {1}'s: {2} of {3} elements mismatch; "
      "first: {4}",
      index, path, comparison.numMismatches, outputs[index].getNumElements(),
      comparison.firstMismatch));
}

/// Runs the kernel on a tensor file's inputs and compares its results with
/// the file's outputs: a check against another framework (ke-import saves
/// PyTorch's), independent of ke's own reference.
llvm::Error checkAgainstFile(const KernelSignature &signature,
                             TargetRunner &runner, llvm::StringRef path,
                             const TensorFile &file,
                             EvaluationReport &report) {
  auto checkSpecs = [&](llvm::ArrayRef<TensorSpec> kernel,
                        llvm::ArrayRef<HostTensor> tensors,
                        llvm::StringRef what) -> llvm::Error {
    if (kernel.size() != tensors.size())
      return llvm::createStringError(llvm::formatv(
          "{0} holds {1} {2}s, the kernel has {3}", path, tensors.size(),
          what, kernel.size()));
    for (auto [index, spec] : llvm::enumerate(kernel)) {
      const TensorSpec &given = tensors[index].getSpec();
      if (given.kind != spec.kind || given.shape != spec.shape)
        return llvm::createStringError(llvm::formatv(
            "{0}: {1} #{2} is {3}, the kernel's is {4}", path, what, index,
            describeSpec(given), describeSpec(spec)));
    }
    return llvm::Error::success();
  };
  if (llvm::Error error =
          checkSpecs(signature.arguments, file.inputs, "input"))
    return error;
  if (llvm::Error error =
          checkSpecs(signature.results, file.outputs, "output"))
    return error;
  llvm::SmallVector<HostTensor> actual;
  if (llvm::Error error = runner.run(file.inputs, actual))
    return error;
  EvaluationReport::ExpectedCheck check{path.str()};
  if (llvm::Error error =
          compareWithFile(signature, path, file.outputs, actual, check))
    return error;
  report.expected = std::move(check);
  return llvm::Error::success();
}

} // namespace

llvm::Error ke::eval::evaluateKernel(const KernelJob &job,
                                     const EvaluationOptions &options,
                                     EvaluationReport &report) {
  setEvaluationStage("signature");
  llvm::Expected<KernelSignature> signature = checkSignature(job);
  if (!signature)
    return signature.takeError();
  // Work is a property of the computation: count it on the reference, whose
  // linalg form survives (a scheduled candidate holds loops and vectors).
  report.work = estimateWork(job.reference);
  report.precision = signature->allowsTF32 ? "tf32" : "ieee";

  setEvaluationStage("lower");
  std::unique_ptr<TargetRunner> runner = createTargetRunner(options);
  if (llvm::Error error = runner->compile(job, *signature))
    return error;

  // A large naive reference on one thread dominates an evaluation (a
  // 2048^3 GEMM: 30 s); its parallel loops give the same bits on all.
  unsigned referenceThreads =
      options.referenceThreads
          ? options.referenceThreads
          : llvm::hardware_concurrency().compute_thread_count();
  ReferenceOutputs reference(job.reference, *signature,
                             options.referenceCache, referenceThreads,
                             options.timeoutSeconds);
  llvm::SmallVector<HostTensor> inputs, lastExpected, timedInputs;
  llvm::SmallVector<double> lastAllowances;
  // The special-values seed last; timing uses the last regular seed's
  // inputs (denormals would slow the timed calls down).
  llvm::SmallVector<uint64_t> inputSeeds;
  for (unsigned s = 0; s < std::max(1u, options.seeds); ++s)
    inputSeeds.push_back(options.seed + s);
  if (options.specialValues)
    inputSeeds.push_back(getSpecialValuesSeed(options.seed));
  for (auto [s, inputSeed] : llvm::enumerate(inputSeeds)) {
    setEvaluationStage("inputs");
    inputs.clear();
    for (auto [index, spec] : llvm::enumerate(signature->arguments))
      inputs.push_back(makeInput(spec, inputSeed, index));
    llvm::SmallVector<HostTensor> expected, actual;
    llvm::SmallVector<double> allowances;
    llvm::SmallVector<uint64_t> inputSums = checksums(inputs);
    setEvaluationStage("run reference");
    if (llvm::Error error =
            reference.compute(inputs, inputSeed, expected, allowances))
      return error;
    if (!reference.getWideningProblem().empty() &&
        !llvm::is_contained(report.referenceWarnings,
                            reference.getWideningProblem()))
      report.referenceWarnings.push_back(
          reference.getWideningProblem().str());
    for (double allowance : allowances)
      report.roundingAllowance = std::max(report.roundingAllowance, allowance);
    if (llvm::Error error =
            checkInputsUnchanged(inputs, inputSums, "the reference"))
      return error;
    // NaN and Inf are what special values are for; elsewhere they are news.
    if (!isSpecialValuesSeed(inputSeed))
      noteNonFiniteReference(expected, inputSeed, report);
    if (!runner->checksSeedsOnTarget()) {
      setEvaluationStage("run");
      if (llvm::Error error = runner->run(inputs, actual))
        return error;
      setEvaluationStage("compare");
      if (llvm::Error error =
              checkInputsUnchanged(inputs, inputSums, "the kernel"))
        return error;
      if (llvm::Error error = compareOutputs(*signature, actual, expected,
                                             allowances, inputSeed, report))
        return error;
    }
    // The last regular seed's inputs are timed, its outputs checked again
    // after timing.
    if (!isSpecialValuesSeed(inputSeed)) {
      lastExpected.clear();
      for (const HostTensor &tensor : expected)
        lastExpected.push_back(tensor.clone());
      lastAllowances = allowances;
      timedInputs.clear();
      for (const HostTensor &tensor : inputs)
        timedInputs.push_back(tensor.clone());
    }
    runner->keepSeed(s, inputs, std::move(expected), allowances);
  }
  std::optional<TensorFile> given;
  if (!options.expectedFile.empty()) {
    setEvaluationStage(kCompareWithExpectedStage.data());
    llvm::Expected<TensorFile> file = readTensorFile(options.expectedFile);
    if (!file)
      return llvm::createStringError(llvm::Twine(kCompareWithExpectedStage) +
                                     ": " + llvm::toString(file.takeError()));
    if (llvm::Error error = checkAgainstFile(
            *signature, *runner, options.expectedFile, *file, report))
      return llvm::createStringError(llvm::Twine(kCompareWithExpectedStage) +
                                     ": " + llvm::toString(std::move(error)));
    given = std::move(*file);
  }
  report.correct = true;
  // With a tensor file, the calls are timed on its inputs: the ones the
  // other framework ran on, so a kernel whose speed depends on its data
  // (PyTorch's ELU skips exp for vectors of positive lanes, and so does
  // ke's) is compared on equal inputs. Other targets time their own seeds.
  bool timesGivenInputs = given && options.getTarget().runsInProcess();
  if (timesGivenInputs) {
    inputs = std::move(given->inputs);
    lastExpected = std::move(given->outputs);
    lastAllowances.clear();
    report.timedInputs = "expected";
  } else {
    inputs = std::move(timedInputs);
    if (options.getTarget().runsInProcess())
      report.timedInputs = describeSeed(options.seed + options.seeds - 1);
  }
  llvm::SmallVector<uint64_t> inputSums = checksums(inputs);
  if (llvm::Error error = runner->measure(inputs, report))
    return error;
  if (!report.timing || report.hasStaticCost() ||
      !options.getTarget().runsInProcess())
    return llvm::Error::success();
  // The timed calls must have computed the same thing: a kernel correct
  // only on its first calls, or one that writes its inputs while timed, is
  // caught here.
  setEvaluationStage("check after timing");
  if (llvm::Error error =
          checkInputsUnchanged(inputs, inputSums, "the kernel (timed)")) {
    report.correct = false;
    return error;
  }
  llvm::SmallVector<HostTensor> afterTiming;
  if (llvm::Error error = runner->run(inputs, afterTiming)) {
    report.correct = false;
    return error;
  }
  llvm::Error mismatch =
      timesGivenInputs
          ? compareWithFile(*signature, options.expectedFile, lastExpected,
                            afterTiming, *report.expected)
          : compareOutputs(*signature, afterTiming, lastExpected,
                           lastAllowances, options.seed + options.seeds - 1,
                           report);
  if (mismatch) {
    report.correct = false;
    return llvm::createStringError("after timing: " +
                                   llvm::toString(std::move(mismatch)));
  }
  return llvm::Error::success();
}
