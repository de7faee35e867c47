//===- CPUPipeline.cpp - ke-lower-cpu -------------------------------------===//
//
// The pipeline is written as pass-pipeline text on purpose: it reads like the
// `mlir-opt` command a user would type, and every stage can be reproduced or
// bisected by hand with `ke-opt --pass-pipeline=...`.
//
//===----------------------------------------------------------------------===//

#include "ke/Target/CPUPipeline.h"
#include "ke/Codegen/FrontEndCleanup.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace mlir;

namespace {
/// Elementwise arith/math on whole tensors becomes linalg first (it does
/// not bufferize otherwise). Function results become freshly allocated buffers
/// with identity layouts, and temporaries are freed, so a kernel can be called
/// in a timing loop. A tensor.empty whose value ends up inserted into a
/// bigger tensor (a transposed convolution's phase, a grouped convolution's
/// group) becomes that slice first, so the op filling it writes in place
/// instead of into a temporary copied over with scalar strided loops. Its
/// stores then go through a strided view (a phase's outputs are every s-th);
/// on the CPU that op is the transpose back from channels-last, whose stores
/// are scattered either way (KernelBench's 4-group transposed convolution:
/// 5.9 to 4.1 ms).
constexpr llvm::StringLiteral kBufferize =
    "ke-lower-probes,"
    "func.func(ke-decompose-aggregates,convert-elementwise-to-linalg),"
    "eliminate-empty-tensors,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops},";
/// out-params: before deallocation, so a result copied into its
/// out-parameter (not allocated in place) is freed like a temporary. A
/// result carried through loops (iter_args yielded unchanged) is first folded
/// back to its allocation, which then becomes the out-parameter itself.
constexpr llvm::StringLiteral kResultsToOutParams =
    "func.func(canonicalize,cse),"
    "buffer-results-to-out-params{hoist-static-allocs=true "
    "modify-public-functions=true},"
    "func.func(ke-write-reshaped-results-in-place),";
constexpr llvm::StringLiteral kDeallocate =
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,";

/// Strided copies (a padded input's interior, a transposed convolution's
/// output phases) become loops, not memrefCopy's element-by-element walk.
/// scf.forall (multi-threaded tiles of a schedule) becomes OpenMP; kernels
/// without it are unaffected. n-D vector transfers are unrolled into 1-D
/// ones: lowered through a buffer instead, each needs a stack temporary that
/// lands inside the loop nest and overflows the stack over many iterations.
constexpr llvm::StringLiteral kLoops =
    "func.func(ke-copies-to-linalg{strided-only=true},"
    "convert-linalg-to-loops,lower-vector-multi-reduction,"
    "canonicalize),convert-vector-to-scf{full-unroll=true},scf-forall-to-parallel,"
    "convert-scf-to-openmp,";
/// Without a thread runtime scf.forall runs sequentially.
constexpr llvm::StringLiteral kSequentialLoops =
    "func.func(ke-copies-to-linalg{strided-only=true},"
    "convert-linalg-to-loops,lower-vector-multi-reduction,"
    "canonicalize),convert-vector-to-scf{full-unroll=true},scf-forall-to-for,";

/// The reference's loops: kLoops with the outer parallel dimensions of
/// linalg ops on {0} threads (bit-identical results, see the pass).
constexpr llvm::StringLiteral kReferenceLoops =
    "func.func(ke-lower-linalg-to-reference-loops,"
    "lower-vector-multi-reduction,canonicalize),convert-vector-to-scf{{full-unroll=true},"
    "scf-forall-to-parallel,convert-scf-to-openmp{{num-threads={0}},";

/// Memrefs go to LLVM before scf to cf: the alloca scopes OpenMP loops
/// bring must still have a single block when they are lowered.
/// math.fpowi becomes multiplications (constant exponents, as front ends
/// write x**2) or powf: LLVM's powi takes one scalar exponent, so a
/// vectorized fpowi with a vector of exponents has no lowering.
constexpr llvm::StringLiteral kToLLVM =
    "math-expand-ops{ops=fpowi},expand-strided-metadata,lower-affine,finalize-memref-to-llvm,"
    "convert-scf-to-cf,convert-vector-to-llvm,convert-math-to-llvm,"
    "convert-math-to-libm,convert-openmp-to-llvm,convert-to-llvm,"
    "reconcile-unrealized-casts";
} // namespace

/// The math ops whose approximations hold on every input.
constexpr llvm::StringLiteral kApproximatedOps =
    "exp,expm1,tanh,erf,erfc,log,log1p,log2";

/// f32 lanes of the host's vector registers where they are 512 bits wide
/// (AVX-512: measured faster for elementwise ops), else `vectorWidth`.
static int64_t getHostElementwiseVectorWidth(ke::VectorRegisterFile host,
                                             int64_t vectorWidth) {
  int64_t lanes = host.bits >= 512 ? host.bits / 32 : vectorWidth;
  return std::max(lanes, vectorWidth);
}

std::string ke::getDefaultCPUSchedulePipeline(const LowerCPUOptions &options) {
  VectorRegisterFile host = getHostVectorRegisterFile();
  int64_t registers = options.vectorRegisters > 0
                          ? static_cast<int64_t>(options.vectorRegisters)
                          : host.count;
  int64_t registerBits = options.vectorRegisterBits > 0
                             ? static_cast<int64_t>(options.vectorRegisterBits)
                             : host.bits;
  int64_t elementwiseWidth =
      options.elementwiseVectorWidth > 0
          ? static_cast<int64_t>(options.elementwiseVectorWidth)
          : getHostElementwiseVectorWidth(host, options.vectorWidth);
  // libm's exp & co. are scalar calls: a vectorized elementwise chain with
  // them runs ~8x slower than with the approximations (KernelBench's ELU, 2
  // threads: 6.8 against 0.87 ms).
  return llvm::formatv(
      "func.func(ke-vectorize-prefix-scans{{vector-width={1}},"
      "ke-decompose-transposed-convolutions,"
      "ke-convolutions-to-channels-last,ke-separate-pooling-windows,"
      "ke-decompose-aggregates,"
      "convert-elementwise-to-linalg,{0},ke-extract-index-operands,"
      "ke-fold-transposes-into-thin-matmuls,ke-widen-contraction-inputs,"
      "ke-widen-long-sums,"
      "ke-fuse-sibling-reductions,ke-fuse-row-chains,{2}"
      "ke-skip-masked-blocks,ke-fold-reshapes-into-initializers,"
      "ke-pads-to-copies,"
      "ke-pack-contraction-panels{{panel-width={3}},"
      "ke-tile-and-vectorize{{vector-width={1} "
      "elementwise-vector-width={4} vector-registers={5} "
      "vector-register-bits={6}},canonicalize,cse,ke-guard-clamped-math{7})",
      kFrontEndCleanupPipeline, static_cast<int64_t>(options.vectorWidth),
      options.approximateMath ? "ke-divisions-to-reciprocals,"
                                "ke-approximate-math{ops=" +
                                    kApproximatedOps.str() +
                                    " keep-clamped=true},"
                              : std::string(),
      // The register block's columns: four vectors.
      4 * static_cast<int64_t>(options.vectorWidth), elementwiseWidth,
      registers, registerBits,
      // The clamped ops are approximated in the branch that still runs them.
      options.approximateMath
          ? ",ke-approximate-math{ops=" + kApproximatedOps.str() + "}"
          : std::string());
}

/// `loops` with the host's transpose lowering after the vector transfers are
/// unrolled (where the transposes they read through appear).
static std::string withHostTransposes(llvm::StringRef loops,
                                      const ke::LowerCPUOptions &options) {
  constexpr llvm::StringLiteral kUnrolled =
      "convert-vector-to-scf{full-unroll=true},";
  std::string text = loops.str();
  size_t at = text.find(kUnrolled.str());
  if (!options.x86Transposes || at == std::string::npos ||
      !llvm::sys::getHostCPUFeatures().lookup("avx"))
    return text;
  text.insert(at + kUnrolled.size(), "func.func(ke-lower-transposes-to-avx),");
  return text;
}

LogicalResult ke::buildLowerCPUPipeline(OpPassManager &pm,
                                        const LowerCPUOptions &options,
                                        llvm::raw_ostream &errors) {
  std::string text;
  std::string loops = (options.threads ? kLoops : kSequentialLoops).str();
  if (options.naive && options.referenceThreads > 0 && options.threads)
    loops = llvm::formatv(kReferenceLoops.data(),
                          static_cast<int64_t>(options.referenceThreads));
  loops = withHostTransposes(loops, options);
  std::string bufferize =
      (kBufferize + (options.outParams ? kResultsToOutParams : "") +
       kDeallocate)
          .str();
  if (options.naive) {
    // No schedule of its own; vectors a schedule already made (a search
    // candidate) are lowered like in the default pipeline.
    text = bufferize + loops + kToLLVM.str();
  } else {
    text = getDefaultCPUSchedulePipeline(options) + "," + bufferize + loops +
           kToLLVM.str();
  }
  return parsePassPipeline(text, pm, errors);
}

void ke::registerLowerCPUPipeline() {
  PassPipelineRegistration<LowerCPUOptions>(
      "ke-lower-cpu",
      "Lower tensor kernels to the LLVM dialect for the host CPU "
      "(bufferize, loops or vectors, LLVM). The default tiles and "
      "vectorizes every linalg op (ke-tile-and-vectorize); naive=true applies "
      "no schedule of its own (plain loops for linalg ops, the reference "
      "semantics; vectors and scf.forall threads already in the input are "
      "lowered as usual).",
      [](OpPassManager &pm, const LowerCPUOptions &options) {
        if (failed(buildLowerCPUPipeline(pm, options, llvm::errs())))
          llvm::report_fatal_error("ke-lower-cpu: could not build pipeline");
      });
}

void ke::registerLowerRISCVPipeline() {
  PassPipelineRegistration<LowerCPUOptions>(
      "ke-lower-riscv",
      "Lower tensor kernels to the LLVM dialect for RISC-V rv64gcv: "
      "ke-lower-cpu without a thread runtime (scf.forall runs as sequential "
      "loops); fixed-length vectors become RVV code in the RISC-V backend "
      "(ke-run --target riscv --emit=asm|obj shows it).",
      [](OpPassManager &pm, const LowerCPUOptions &options) {
        LowerCPUOptions sequential;
        sequential.naive = options.naive.getValue();
        sequential.vectorWidth = options.vectorWidth.getValue();
        // RISC-V's vectors, not the host's.
        sequential.elementwiseVectorWidth =
            options.elementwiseVectorWidth > 0
                ? options.elementwiseVectorWidth.getValue()
                : options.vectorWidth.getValue();
        sequential.threads = false;
        sequential.x86Transposes = false;
        sequential.approximateMath = options.approximateMath.getValue();
        sequential.outParams = options.outParams.getValue();
        if (failed(buildLowerCPUPipeline(pm, sequential, llvm::errs())))
          llvm::report_fatal_error("ke-lower-riscv: could not build pipeline");
      });
}
