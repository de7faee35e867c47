//===- Proposer.h - what turns a node into child candidates -----*- C++ -*-===//
//
// The interface between the search and whatever proposes candidates: the
// built-in transform library, an LLM, or a file of hand-written candidates.
// A new proposer is one new implementation of this interface.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_PROPOSER_H
#define KE_PROPOSE_PROPOSER_H

#include "ke/Propose/Schedule.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ke::propose {

/// Which part of the search's memory a proposal builds on.
enum class MemoryOperator {
  InheritTrajectory, ///< refine the parent along its own path
  CompareSiblings,   ///< start from the best of the parent's children
  Combine,           ///< merge the parent with another good node
  Restart,           ///< a clean slate
};
llvm::StringRef getMemoryOperatorName(MemoryOperator memory);

/// What a proposer may see of a node of the tree.
struct NodeView {
  size_t index = 0;
  std::string schedule; ///< empty for the reference and for rewrites
  std::string strategy;
  double speedup = 0.0;
  bool correct = false;
  std::string diagnosis; ///< ke-run's JSON
  std::string status;    ///< correct | incorrect | failed ("" for the root)
  std::string error;     ///< why it failed, if it did
  std::string proposer;  ///< who proposed it
  std::string payloadIR; ///< the candidate's module (the reference's for 0)
};

struct ProposalContext {
  std::string kernelName;
  std::string target;
  std::string opKinds;              ///< e.g. "fill,matmul,generic"
  std::string signature;            ///< the kernel's function type
  unsigned threads = 1;             ///< threads a candidate may use
  llvm::ArrayRef<OpShape> shapes;   ///< linalg ops of the reference
  NodeView parent;                  ///< index 0: the reference
  std::vector<NodeView> trajectory; ///< the parent's ancestors, root first
  std::vector<NodeView> siblings;   ///< the parent's children so far
  std::vector<NodeView> elite;      ///< best correct nodes, best first
  unsigned count = 1;               ///< children wanted
  /// Whether a schedule builds a candidate the search has already seen (the
  /// search builds it and compares the IR, so two schedules that lower
  /// alike count as one). Null: proposers compare schedules' text only.
  std::function<bool(const Schedule &)> buildsKnownCandidate;
};

struct Proposal {
  /// Either a schedule of the transform library...
  std::optional<Schedule> schedule;
  /// ...or a whole replacement function (textual IR).
  std::string payloadIR;
  std::string strategy;
  /// Measured whatever a cost model predicts (the default schedule, warm
  /// starts).
  bool pinned = false;
  MemoryOperator memory = MemoryOperator::InheritTrajectory;
  /// Set when the proposer failed to produce a usable candidate (an LLM
  /// reply that does not parse, ...): recorded as a failed node.
  std::string error;
  /// What the rewrite was, verbatim (an LLM's transform script or
  /// function), kept with skills distilled from it.
  std::string rewrite;
  /// The llm_calls row of the reply that produced it.
  std::optional<int64_t> llmCall;
  /// GPU targets: threads per block (set as ke.gpu_block_tile), outputs
  /// per thread of matmul-like reductions (ke.gpu_thread_tile), most
  /// threads per reduced row (ke.gpu_reduction_threads), outputs per block
  /// side of contractions staged in shared memory (ke.gpu_shared_tile).
  llvm::SmallVector<int64_t, 2> gpuBlockTile;
  llvm::SmallVector<int64_t, 2> gpuThreadTile;
  std::optional<int64_t> gpuReductionThreads;
  std::optional<int64_t> gpuSharedTile;
  /// Elements per thread of elementwise ops (ke.gpu_vector_width).
  std::optional<int64_t> gpuVectorWidth;
  /// Warps per block of staged contractions (ke.gpu_warps).
  std::optional<int64_t> gpuWarps;
  /// Outputs per block along i and j of contractions on tensor cores
  /// (ke.gpu_tensor_core_tile; 0: none).
  std::optional<int64_t> gpuTensorCoreTile;
  /// Most columns per block of 16-bit GEMMs on Hopper's warpgroup mma
  /// (ke.gpu_warpgroup_tile; 0: none).
  std::optional<int64_t> gpuWarpgroupTile;
  /// Blocks per output tile along K of staged contractions
  /// (ke.gpu_k_splits; 1: none).
  std::optional<int64_t> gpuKSplits;
};

class Proposer {
public:
  virtual ~Proposer();
  /// Recorded as the node's proposer: "library", "file", "llm:<model>".
  virtual std::string getName() const = 0;
  virtual std::vector<Proposal> propose(const ProposalContext &context) = 0;
  /// Why propose() returned nothing, when it did (e.g. a spent token
  /// budget); empty means it simply ran out of ideas.
  virtual std::string getStopReason() const { return ""; }
  /// Set when propose() returned nothing because the search cannot go on
  /// correctly (a replay that misses a recorded answer): an error.
  virtual std::string getFailure() const { return ""; }
};

/// The op kinds of a kernel's linalg ops, comma-separated in walk order
/// ("fill,matmul,generic"): how skills are matched across kernels.
std::string describeOpKinds(llvm::ArrayRef<OpShape> shapes);

} // namespace ke::propose

#endif // KE_PROPOSE_PROPOSER_H
