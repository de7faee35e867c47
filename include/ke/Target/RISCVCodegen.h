//===- RISCVCodegen.h - LLVM-dialect kernels to RISC-V code -----*- C++ -*-===//
//
// The back half of the riscv target: a module lowered by ke-lower-riscv is
// translated to LLVM IR, optimized for rv64gcv and emitted twice from the
// same optimized IR: an object whose every basic block counts its
// executions (run under qemu for correctness and block counts), and an
// assembly file with llvm-mca region markers around every basic block (the
// static cost of each block on a named CPU). Blocks are numbered alike in
// both, so a cycle estimate is the sum of count x cycles per block.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TARGET_RISCVCODEGEN_H
#define KE_TARGET_RISCVCODEGEN_H

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace ke {

struct RISCVCodegenOptions {
  std::string cpu = "sifive-x280"; ///< scheduling model (and -mcpu)
  std::string features = "+m,+a,+f,+d,+c,+v";
};

struct RISCVCode {
  std::string countingObject; ///< ELF object, defines __ke_block_counts
  std::string markedAssembly; ///< with LLVM-MCA-BEGIN/END b<N> regions
  std::string plainAssembly;  ///< what the kernel is, for people and tests
  unsigned numBlocks = 0;
};

/// `module` must be in the LLVM dialect (after ke-lower-riscv).
llvm::Expected<RISCVCode> generateRISCVCode(mlir::ModuleOp module,
                                            const RISCVCodegenOptions &options);

} // namespace ke

#endif // KE_TARGET_RISCVCODEGEN_H
