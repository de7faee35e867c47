//===- GPUBlockProposer.h - the library's GPU schedule space ----*- C++ -*-===//

#ifndef KE_PROPOSE_GPUBLOCKPROPOSER_H
#define KE_PROPOSE_GPUBLOCKPROPOSER_H

#include "ke/Propose/Proposer.h"

namespace ke::propose {

/// For GPU targets: the reference with one GPU schedule knob set per
/// proposal, from a fixed list: outputs per thread of matmul-like
/// reductions (`ke.gpu_thread_tile`: 2x1, 2x2, 4x1, 1x4; only for kernels
/// with a reduction beside two parallel loops), most threads per reduced
/// row (`ke.gpu_reduction_threads`: 128, 1024, 0; only for kernels with
/// reductions), then thread-block shapes (`ke.gpu_block_tile`, 32 to 1024
/// threads, 1-D and 2-D). Each knob is read by its GPU pass
/// (ke-distribute-reductions-for-gpu, ke-tile-parallel-loops-for-gpu).
/// Vector widths and shared-memory staging are not in the space yet.
class GPUBlockProposer : public Proposer {
public:
  std::string getName() const override { return "library"; }
  std::vector<Proposal> propose(const ProposalContext &context) override;

  /// The block shapes, in the order they are proposed.
  static llvm::ArrayRef<llvm::SmallVector<int64_t, 2>> getShapes();
  /// The whole space for a kernel's ops, in the order it is proposed
  /// (payloads empty: filled from the reference when proposed).
  static std::vector<Proposal> getSpace(llvm::ArrayRef<OpShape> shapes);

private:
  size_t next = 0;
};

} // namespace ke::propose

#endif // KE_PROPOSE_GPUBLOCKPROPOSER_H
