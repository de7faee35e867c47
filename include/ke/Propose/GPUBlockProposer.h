//===- GPUBlockProposer.h - the library's GPU schedule space ----*- C++ -*-===//

#ifndef KE_PROPOSE_GPUBLOCKPROPOSER_H
#define KE_PROPOSE_GPUBLOCKPROPOSER_H

#include "ke/Propose/Proposer.h"

#include <map>
#include <set>

namespace ke::propose {

/// For GPU targets: the reference with one GPU schedule knob set per
/// proposal, from a fixed list: the shared-memory tile of staged
/// contractions (`ke.gpu_shared_tile`: 128, 32, 0) and outputs per thread
/// of unstaged ones (`ke.gpu_thread_tile`: 2x1, 2x2, 4x1, 1x4), both only
/// for kernels with a reduction beside two parallel loops; most threads
/// per reduced row (`ke.gpu_reduction_threads`: 128, 1024, 0; only for
/// kernels with reductions); elements per thread of elementwise ops
/// (`ke.gpu_vector_width`: 2, 1; only for kernels with some); then
/// thread-block shapes (`ke.gpu_block_tile`, 32 to 1024 threads, 1-D and
/// 2-D). Once the list is spent, pairs: the knobs of the best correct
/// single-knob node with those of each next best of another kind. Each
/// knob is read by its GPU pass.
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
  /// The knobs of every single-knob proposal made, by strategy.
  std::map<std::string, Proposal> singles;
  /// Strategies of the pairs proposed.
  std::set<std::string> pairs;
};

} // namespace ke::propose

#endif // KE_PROPOSE_GPUBLOCKPROPOSER_H
