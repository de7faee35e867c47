//===- DefaultVariantsProposer.h - default lowering variants -*- C++ -*-===//
//
// ke's default lowering under other register and vector budgets than the
// host's, each still the whole default pipeline: candidates around the
// search's floor, where the library's schedules start over from the linalg
// ops (docs/search.md says how far behind the floor those start).
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_DEFAULTVARIANTSPROPOSER_H
#define KE_PROPOSE_DEFAULTVARIANTSPROPOSER_H

#include "ke/Codegen/TileAndVectorize.h"
#include "ke/Propose/Proposer.h"

#include "llvm/Support/Error.h"

#include "llvm/ADT/StringSet.h"

#include <functional>
#include <set>

namespace ke::propose {

/// The default CPU lowering's budgets (ke-lower-cpu's options of the same
/// names; 0: the host's).
struct DefaultLoweringKnobs {
  int64_t vectorWidth = kDefaultVectorWidth;
  int64_t elementwiseVectorWidth = 0;
  int64_t vectorRegisters = 0;

  /// "vector-registers=12": the knobs that differ from the defaults.
  std::string describe() const;
};

class DefaultVariantsProposer : public Proposer {
public:
  /// The kernel's default lowering under `knobs`, as printed IR of a module
  /// whose first function is the kernel.
  using Builder =
      std::function<llvm::Expected<std::string>(const DefaultLoweringKnobs &)>;

  /// Variants sized for `host`'s register file, each proposed once; those
  /// whose IR is `floorIR` (the default lowering's, as `build` prints it)
  /// or an earlier variant's, and those whose strategy is in `recorded` (a
  /// resumed run's), are skipped.
  DefaultVariantsProposer(Builder build, VectorRegisterFile host,
                          llvm::StringRef floorIR,
                          const llvm::StringSet<> &recorded = {});

  static constexpr llvm::StringLiteral kName = "default-variants";
  std::string getName() const override { return kName.str(); }
  std::vector<Proposal> propose(const ProposalContext &context) override;

  /// The variants for `host`, in the order they are proposed.
  static std::vector<DefaultLoweringKnobs> getVariants(VectorRegisterFile host);
  /// A variant's node strategy.
  static std::string getStrategy(const DefaultLoweringKnobs &knobs);

private:
  Builder build;
  std::vector<DefaultLoweringKnobs> variants;
  size_t next = 0;
  /// Hashes of the IR proposed so far, the default lowering's first.
  std::set<size_t> seen;
  llvm::StringSet<> recorded;
};

} // namespace ke::propose

#endif // KE_PROPOSE_DEFAULTVARIANTSPROPOSER_H
