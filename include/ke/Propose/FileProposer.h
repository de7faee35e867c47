//===- FileProposer.h - candidates from a file ------------------*- C++ -*-===//

#ifndef KE_PROPOSE_FILEPROPOSER_H
#define KE_PROPOSE_FILEPROPOSER_H

#include "ke/Propose/Proposer.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ke::propose {

/// Serves the func.func ops of a file as whole-function proposals, in order
/// (`ke.strategy` on a function names it). For hand-written candidates, and
/// for tests that need a candidate which crashes or hangs.
class FileProposer : public Proposer {
public:
  static llvm::Expected<std::unique_ptr<FileProposer>>
  create(llvm::StringRef path, mlir::MLIRContext *context);
  std::string getName() const override { return "file"; }
  std::vector<Proposal> propose(const ProposalContext &context) override;
  /// Skips the first `count` functions (already served before a resume).
  void skip(size_t count) { next = std::min(next + count, entries.size()); }

private:
  struct Entry {
    std::string payloadIR, strategy;
  };
  std::vector<Entry> entries;
  size_t next = 0;
};

} // namespace ke::propose

#endif // KE_PROPOSE_FILEPROPOSER_H
