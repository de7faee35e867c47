//===- KernelSearch.h - the tree search of one kernel -----------*- C++ -*-===//
//
// Select (UCB) -> expand (a Proposer) -> check in-process -> evaluate (ke-run
// subprocesses) -> record (SQLite, committed) -> back up, until a
// termination rule fires; then the best verified candidate (or ke's default
// lowering, when nothing beat it) replaces the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_KERNELSEARCH_H
#define KE_SEARCH_KERNELSEARCH_H

#include "ke/Search/SearchSummary.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cstdint>
#include <string>

namespace ke {
struct TargetInfo;
namespace store {
class Store;
} // namespace store
namespace propose {
class LLMSession;
} // namespace propose
} // namespace ke

namespace ke::search {

/// ke-evolve's options as one search reads them (validated by the pass).
struct KernelSearchOptions {
  const TargetInfo *targetInfo = nullptr;
  std::string target;
  int budget = 64;
  double timeLimit = 0;
  int stall = 0;
  double targetSpeedup = 0;
  unsigned workers = 1, threads = 1;
  uint64_t seed = 1;
  unsigned seeds = 2;
  double minTime = 0.1;
  unsigned evalTimeout = 60, memoryLimit = 8192;
  std::string profile = "auto";
  std::string proposer = "library", proposals;
  bool skills = true, warmStart = true, keepTree = false;
  bool defaultVariants = true; ///< CPU: the default lowering, re-budgeted
  double exploration = 0.5;
  bool costModel = true;         ///< screen library proposals (CPU)
  unsigned costModelPool = 8;    ///< proposals drawn per measured one
  double costModelTrust = 0.2;   ///< Kendall's tau it must have shown
  unsigned confirm = 3; ///< best nodes re-timed with the floor at the end
  std::string keRun;         ///< the ke-run executable
  std::string workDirectory; ///< candidates' files, the reference cache
  std::string executor = "local"; ///< local | slurm
  /// A tensor file every evaluation is checked against and timed on.
  std::string inputs;
  std::string slurmArgs;          ///< extra srun arguments
};

/// Where one search records and what it may use.
struct SearchResources {
  store::Store *database = nullptr;
  int64_t run = 0;
  propose::LLMSession *llmSession = nullptr; ///< null: no LLM
  mlir::Operation *anchor = nullptr;         ///< warnings go here
};

/// Searches `kernel` (the `kernelIndex`th of its module) and rewrites it
/// in place; `summary` says what happened, also on failure.
mlir::LogicalResult searchKernel(mlir::func::FuncOp kernel,
                                 unsigned kernelIndex,
                                 const KernelSearchOptions &options,
                                 const SearchResources &resources,
                                 KernelSummary &summary);

} // namespace ke::search

#endif // KE_SEARCH_KERNELSEARCH_H
