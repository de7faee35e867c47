//===- HtmlReport.h - one self-contained page per search --------*- C++ -*-===//
//
// `ke-report html`: per run and kernel, the search tree as SVG (one mark
// per evaluated node: colour = status, size = speedup, shape = proposer;
// hovering or clicking shows the node), the best speedup against candidates
// evaluated, the best candidate's IR as diffs against the reference and its
// parent, its profile shares, and the LLM calls' prompts and replies. No
// network assets: CSS, script and SVG are inline.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TOOLS_KEREPORT_HTMLREPORT_H
#define KE_TOOLS_KEREPORT_HTMLREPORT_H

#include "ke/Store/Store.h"

#include <optional>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ke::report {

/// Writes the page for `run` (every run when none); returns the exit status.
int writeHtmlReport(store::Store &database, std::optional<int64_t> run,
                    llvm::raw_ostream &os);

/// `text` with API keys and bearer tokens replaced by "[redacted]": prompts
/// and replies are shown as recorded, and a key must never reach a page.
std::string redactSecrets(llvm::StringRef text);

} // namespace ke::report

#endif // KE_TOOLS_KEREPORT_HTMLREPORT_H
