//===- DefaultVariantsProposer.h - default lowering variants -*- C++ -*-===//
//
// The library's schedules start over from the kernel's linalg ops; on
// kernels the default lowering was tuned on (GEMMs, convolutions, pools,
// norms) its 32 candidates ran 2-7x slower than the floor, so a CPU search
// mostly ended at the floor. These proposals are the default lowering
// itself under other register and vector budgets than the host's: other
// register blocks, panel widths and elementwise widths, each still the whole
// default pipeline. A search explores around its floor with them.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_DEFAULTVARIANTSPROPOSER_H
#define KE_PROPOSE_DEFAULTVARIANTSPROPOSER_H

#include "ke/Codegen/TileAndVectorize.h"
#include "ke/Propose/Proposer.h"

#include "llvm/Support/Error.h"

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
  /// whose IR is the default lowering's (or an earlier variant's) are
  /// skipped.
  DefaultVariantsProposer(Builder build, VectorRegisterFile host);

  std::string getName() const override { return "default-variants"; }
  std::vector<Proposal> propose(const ProposalContext &context) override;

  /// The variants for `host`, in the order they are proposed.
  static std::vector<DefaultLoweringKnobs> getVariants(VectorRegisterFile host);

private:
  Builder build;
  std::vector<DefaultLoweringKnobs> variants;
  size_t next = 0;
  /// Hashes of the IR proposed so far, the default lowering's first.
  std::set<size_t> seen;
};

} // namespace ke::propose

#endif // KE_PROPOSE_DEFAULTVARIANTSPROPOSER_H
