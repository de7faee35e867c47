//===- ProposalScreen.h - the cost model at work in a search ----*- C++ -*-===//
//
// Once the cost model has seen enough of a kernel, an expansion of the
// library asks for a pool of proposals instead of the few it measures, and
// the screen keeps the best-predicted ones (plus a random share, so the model
// keeps learning about what it would not pick). Every measured schedule
// trains the model; its weights are kept per target in the database.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_PROPOSALSCREEN_H
#define KE_SEARCH_PROPOSALSCREEN_H

#include "ke/Propose/Proposer.h"
#include "ke/Search/CostModel.h"

#include "llvm/ADT/StringSet.h"

#include <random>
#include <vector>

namespace ke::store {
class Store;
struct NodeRecord;
} // namespace ke::store

namespace ke::search {

class ProposalScreen {
public:
  /// `pool`: proposals drawn per measured one once the model can rank and
  /// is trusted: its predictions of the last schedules, made before they
  /// were measured, agree with the measurements by at least `trust`
  /// (Kendall's tau; below -1: trusted from the start).
  ProposalScreen(std::vector<propose::OpShape> shapes, unsigned threads,
                 unsigned pool, double exploration, double trust,
                 uint64_t seed);

  /// The target's weights learnt by earlier searches, as the prior.
  void loadPrior(store::Store &store, llvm::StringRef target);
  /// This search's weights, for the next search on the target.
  llvm::Error savePrior(store::Store &store, llvm::StringRef target) const;

  /// A committed node: its schedule is no longer worth proposing, and a
  /// correct one's speedup trains the model.
  void learn(const store::NodeRecord &node);

  /// Whether the model predicted this kernel's last measurements well
  /// enough to choose for it.
  bool isTrusted() const;
  /// Its agreement so far (Kendall's tau over the last predictions made
  /// before measuring), and over how many.
  double getAgreement() const;
  size_t getNumPredicted() const { return predicted.size(); }

  /// How many proposals to ask for when `count` are to be measured.
  unsigned widen(unsigned count) const;
  /// Keeps `count` of `proposals` (pinned ones always), the best predicted
  /// first; the kept ones' strategies say their predicted rank.
  void screen(std::vector<propose::Proposal> &proposals, unsigned count);

  const CostModel &getModel() const { return model; }

private:
  std::vector<propose::OpShape> shapes;
  unsigned threads, pool;
  double exploration, trust;
  CacheSizes caches;
  /// (prediction before measuring, measured log speedup), oldest first.
  std::vector<std::pair<double, double>> predicted;
  CostModel model;
  llvm::StringSet<> measured;
  std::mt19937_64 generator;
};

} // namespace ke::search

#endif // KE_SEARCH_PROPOSALSCREEN_H
