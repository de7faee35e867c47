//===- GPUBlockProposer.h - the library's GPU schedule space ----*- C++ -*-===//

#ifndef KE_PROPOSE_GPUBLOCKPROPOSER_H
#define KE_PROPOSE_GPUBLOCKPROPOSER_H

#include "ke/Propose/Proposer.h"

namespace ke::propose {

/// For GPU targets: the reference with a thread-block shape
/// (`ke.gpu_block_tile`, read by ke-tile-parallel-loops-for-gpu), one
/// shape per proposal from a fixed list of 32 to 512 threads, 1-D and 2-D.
/// The knob that mattered most on the H100 (batch_matmul 13x); thread
/// tiles, shared-memory staging and warp-level reductions are not in the
/// space yet.
class GPUBlockProposer : public Proposer {
public:
  std::string getName() const override { return "library"; }
  std::vector<Proposal> propose(const ProposalContext &context) override;

  /// The block shapes, in the order they are proposed.
  static llvm::ArrayRef<llvm::SmallVector<int64_t, 2>> getShapes();

private:
  size_t next = 0;
};

} // namespace ke::propose

#endif // KE_PROPOSE_GPUBLOCKPROPOSER_H
