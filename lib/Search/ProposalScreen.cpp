//===- ProposalScreen.cpp - the cost model at work in a search ------------===//

#include "ke/Search/ProposalScreen.h"

#include "ke/Store/Store.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace ke;
using namespace ke::search;

namespace {
std::string priorKey(llvm::StringRef target) {
  return ("cost-model:" + target).str();
}
} // namespace

ProposalScreen::ProposalScreen(std::vector<propose::OpShape> shapes,
                               unsigned threads, unsigned pool,
                               double exploration, double trust,
                               uint64_t seed)
    : shapes(std::move(shapes)), threads(std::max(1u, threads)),
      pool(std::max(1u, pool)), exploration(exploration), trust(trust),
      caches(CacheSizes::detect()), generator(seed) {}

namespace {
/// Predictions judged: the latest, so a model that learnt the kernel is
/// trusted even after a poor start.
constexpr size_t kJudgedPredictions = 12;
constexpr size_t kMinJudged = 5;
} // namespace

double ProposalScreen::getAgreement() const {
  llvm::ArrayRef<std::pair<double, double>> recent(predicted);
  if (recent.size() > kJudgedPredictions)
    recent = recent.take_back(kJudgedPredictions);
  return CostModel::rankAgreement(recent);
}

bool ProposalScreen::isTrusted() const {
  if (trust < -1.0)
    return true;
  return predicted.size() >= kMinJudged && getAgreement() >= trust;
}

void ProposalScreen::loadPrior(store::Store &store, llvm::StringRef target) {
  auto stored = store.getMetaValue(priorKey(target));
  if (!stored) {
    llvm::consumeError(stored.takeError());
    return;
  }
  if (!*stored)
    return;
  // A damaged entry only costs the prior.
  llvm::Expected<ScheduleFeatures> weights = CostModel::parseWeights(**stored);
  if (!weights) {
    llvm::consumeError(weights.takeError());
    return;
  }
  model.setPrior(*weights);
}

llvm::Error ProposalScreen::savePrior(store::Store &store,
                                      llvm::StringRef target) const {
  if (model.getNumSamples() < 4)
    return llvm::Error::success(); // too little to teach the next search
  return store.setMetaValue(priorKey(target), model.serialize());
}

void ProposalScreen::learn(const store::NodeRecord &node) {
  if (node.schedule.empty())
    return;
  measured.insert(node.schedule);
  if (node.status != "correct" || !node.speedup || *node.speedup <= 0)
    return;
  llvm::Expected<propose::Schedule> schedule =
      propose::Schedule::parse(node.schedule);
  if (!schedule) {
    llvm::consumeError(schedule.takeError());
    return;
  }
  ScheduleFeatures features =
      extractScheduleFeatures(*schedule, shapes, threads, caches);
  double measuredLog = std::log(*node.speedup);
  // Judged before it learns from the answer.
  if (model.canRank())
    predicted.push_back({model.predict(features), measuredLog});
  model.addSample(features, measuredLog);
}

unsigned ProposalScreen::widen(unsigned count) const {
  return pool > 1 && model.canRank() && isTrusted() ? count * pool : count;
}

void ProposalScreen::screen(std::vector<propose::Proposal> &proposals,
                            unsigned count) {
  if (proposals.size() <= count)
    return;
  std::vector<propose::Proposal> kept, candidates;
  llvm::StringSet<> inPool;
  for (const propose::Proposal &proposal : proposals) {
    if (proposal.pinned || !proposal.schedule) {
      kept.push_back(proposal);
      continue;
    }
    // Measured already, or twice in the pool: nothing to learn from it.
    std::string text = proposal.schedule->toString();
    if (measured.contains(text) || !inPool.insert(text).second)
      continue;
    candidates.push_back(proposal);
  }
  // A pool of known schedules only: left whole, the search counts them as
  // the duplicates they are (an empty list would retire the proposer).
  if (kept.empty() && candidates.empty()) {
    proposals.resize(count);
    return;
  }
  std::vector<double> scores;
  for (const propose::Proposal &candidate : candidates)
    scores.push_back(model.predict(extractScheduleFeatures(
        *candidate.schedule, shapes, threads, caches)));
  size_t room = count > kept.size() ? count - kept.size() : 0;
  std::vector<size_t> chosen =
      CostModel::select(scores, room, exploration, generator);
  for (size_t index : chosen) {
    size_t rank = 1;
    for (double score : scores)
      rank += score > scores[index];
    propose::Proposal &proposal = candidates[index];
    proposal.strategy +=
        llvm::formatv(" [cost model: rank {0} of {1}, tau {2:f2}]", rank,
                      candidates.size(), getAgreement())
            .str();
    kept.push_back(std::move(proposal));
  }
  proposals = std::move(kept);
}
