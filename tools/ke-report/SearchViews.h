//===- SearchViews.h - ke-report's views of runs, nodes and bests -*- C++ -*-===//
//
// The terminal views of what searches recorded: `ke-report runs`, `nodes`
// and `best`, as Markdown tables (readable as they are, pasteable into
// notes). Each returns the tool's exit status.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TOOLS_KEREPORT_SEARCHVIEWS_H
#define KE_TOOLS_KEREPORT_SEARCHVIEWS_H

#include "ke/Store/Store.h"

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ke::report {

/// One line per run: when, status, kernels, nodes, correct, best speedup.
int showRuns(store::Store &database, llvm::raw_ostream &os);

/// Every node of `run` (default: the latest), optionally of one kernel.
int showNodes(store::Store &database, std::optional<int64_t> run,
              const std::string &kernel, llvm::raw_ostream &os);

/// Per kernel of `run` (default: the latest) its best correct node; with
/// `withIR` that node's IR after the table.
int showBest(store::Store &database, std::optional<int64_t> run,
             const std::string &kernel, bool withIR, llvm::raw_ostream &os);

/// `run`, else the latest run; an error when the database has none.
llvm::Expected<store::RunRecord> resolveRun(store::Store &database,
                                            std::optional<int64_t> run);

} // namespace ke::report

#endif // KE_TOOLS_KEREPORT_SEARCHVIEWS_H
