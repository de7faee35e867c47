//===- TransformLibraryProposer.h - the built-in proposer -------*- C++ -*-===//

#ifndef KE_PROPOSE_TRANSFORMLIBRARYPROPOSER_H
#define KE_PROPOSE_TRANSFORMLIBRARYPROPOSER_H

#include "ke/Propose/Proposer.h"

#include <random>

namespace ke::propose {

/// Proposes schedules of the transform library: the default schedule first,
/// then mutations (one knob of a good node changed), crossovers (knobs of two
/// good nodes combined) and fresh random schedules, chosen per the memory
/// operator. Deterministic for a given seed.
class TransformLibraryProposer : public Proposer {
public:
  /// With `threads` > 1, schedules may run cache tiles on threads.
  explicit TransformLibraryProposer(uint64_t seed, unsigned threads = 1,
                                    int64_t vectorWidth = 16)
      : generator(seed), threads(threads), vectorWidth(vectorWidth) {}
  std::string getName() const override { return "library"; }
  std::vector<Proposal> propose(const ProposalContext &context) override;

  /// Warm start: schedules learnt by earlier searches (skills), proposed
  /// before anything else, each under its description.
  void addWarmStart(Schedule schedule, std::string description) {
    warmStart.push_back({std::move(schedule), std::move(description)});
  }

  /// The search-free baseline (what ke-tile-and-vectorize does).
  Schedule makeDefaultSchedule(llvm::ArrayRef<OpShape> shapes) const;
  Schedule makeRandomSchedule(llvm::ArrayRef<OpShape> shapes);
  Schedule mutate(const Schedule &schedule, llvm::ArrayRef<OpShape> shapes);
  Schedule crossover(const Schedule &a, const Schedule &b);

  /// Turns tile-and-fuse on (rows > 0) or off and repairs the per-op knobs
  /// to fit: no cache tiles, first-loop register tiles dividing `rows`.
  static void setFusion(Schedule &schedule, llvm::ArrayRef<OpShape> shapes,
                        int64_t rows);

private:
  OpSchedule makeRandomOpSchedule(const OpShape &shape);
  /// The knobs drawn after the tiles: threads, loop order, unrolling.
  OpSchedule finishOpSchedule(const OpShape &shape, OpSchedule op);
  /// A random row count for tile-and-fuse, or 0 when the kernel cannot fuse.
  int64_t pickFuseRows(llvm::ArrayRef<OpShape> shapes);
  std::mt19937_64 generator;
  std::vector<std::pair<Schedule, std::string>> warmStart;
  unsigned threads;
  int64_t vectorWidth;
};

} // namespace ke::propose

#endif // KE_PROPOSE_TRANSFORMLIBRARYPROPOSER_H
