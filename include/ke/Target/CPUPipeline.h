//===- CPUPipeline.h - ke-lower-cpu -----------------------------*- C++ -*-===//
//
// The pipeline that lowers tensor-level kernels to the LLVM dialect for the
// host CPU: tensors -> bufferize -> loops/vectors -> LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TARGET_CPUPIPELINE_H
#define KE_TARGET_CPUPIPELINE_H

#include "ke/Codegen/TileAndVectorize.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace ke {

struct LowerCPUOptions : public mlir::PassPipelineOptions<LowerCPUOptions> {
  Option<bool> naive{*this, "naive",
                     llvm::cl::desc("Apply no schedule: plain loops for "
                                    "linalg ops (the reference semantics); "
                                    "vector ops already in the input are "
                                    "still lowered"),
                     llvm::cl::init(false)};
  Option<int64_t> referenceThreads{
      *this, "reference-threads",
      llvm::cl::desc("With naive: the outer parallel dimensions of linalg ops "
                     "run on this many OpenMP threads "
                     "(ke-lower-linalg-to-reference-loops; each output "
                     "element's arithmetic and its order are unchanged, so "
                     "results are bit-identical); 0: sequential loops"),
      llvm::cl::init(0)};
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Vector width of the default schedule (ignored with "
                     "naive)"),
      llvm::cl::init(8)};
  Option<int64_t> elementwiseVectorWidth{
      *this, "elementwise-vector-width",
      llvm::cl::desc("Vector width of the default schedule's elementwise "
                     "ops; 0: the host's widest f32 vector (16 with "
                     "AVX-512), at least vector-width (ignored with naive)"),
      llvm::cl::init(0)};
  Option<int64_t> vectorRegisters{
      *this, "vector-registers",
      llvm::cl::desc("Vector registers the default schedule's register "
                     "blocks share; 0: the host's (32 with AVX-512, 16 with "
                     "AVX2) (ignored with naive)"),
      llvm::cl::init(0)};
  Option<int64_t> vectorRegisterBits{
      *this, "vector-register-bits",
      llvm::cl::desc("Bits of one of those registers; 0: the host's (512 "
                     "with AVX-512, 256 with AVX2) (ignored with naive)"),
      llvm::cl::init(0)};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Default schedule: f32 exp, expm1, tanh, erf, erfc as "
                     "polynomial approximations (a few ulp) that vectorize, "
                     "instead of libm calls, which do not (ignored with "
                     "naive)"),
      llvm::cl::init(true)};
  Option<bool> threads{
      *this, "threads",
      llvm::cl::desc("Run scf.forall on OpenMP threads (false: sequential "
                     "loops, for targets without a thread runtime)"),
      llvm::cl::init(true)};
  Option<bool> x86Transposes{
      *this, "x86-transposes",
      llvm::cl::desc("Lower 8 x 8 and 4 x 8 f32 vector transposes with AVX "
                     "shuffle sequences (ke-lower-transposes-to-avx) when "
                     "the host has AVX; false for code that runs elsewhere "
                     "(RISC-V)"),
      llvm::cl::init(true)};
  Option<bool> outParams{
      *this, "out-params",
      llvm::cl::desc("Destination-passing style at the function boundary: "
                     "memref results become trailing out-parameters the "
                     "caller allocates, and a result the kernel allocated "
                     "is written into the caller's buffer in place"),
      llvm::cl::init(false)};
};

/// Pass-pipeline text (on builtin.module) of the default lowering's stages
/// before bufferization: ke's search-free schedule of tensor kernels. The
/// search's floor applies exactly these, so it measures what ke-run does.
std::string getDefaultCPUSchedulePipeline(const LowerCPUOptions &options);

/// Appends the CPU lowering to `pm`, which must be anchored on builtin.module.
/// Fails (with a message in `errors`) only if a pass is not registered.
llvm::LogicalResult buildLowerCPUPipeline(mlir::OpPassManager &pm,
                                          const LowerCPUOptions &options,
                                          llvm::raw_ostream &errors);

/// Registers `ke-lower-cpu` with the pass registry.
void registerLowerCPUPipeline();
/// Registers `ke-lower-riscv`: ke-lower-cpu with threads=false.
void registerLowerRISCVPipeline();

} // namespace ke

#endif // KE_TARGET_CPUPIPELINE_H
