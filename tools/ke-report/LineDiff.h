//===- LineDiff.h - a line diff for showing IR side by side -----*- C++ -*-===//
//
// The report shows a candidate's IR as a diff against the reference and
// against its parent: a shortest edit script over lines (Myers' O(ND)
// algorithm), so that large, mostly equal functions stay cheap.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TOOLS_KEREPORT_LINEDIFF_H
#define KE_TOOLS_KEREPORT_LINEDIFF_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ke::report {

struct DiffLine {
  enum Kind { Same, Removed, Added } kind;
  std::string text;
};

/// The lines of `before` and `after` as kept, removed and added lines, or
/// nothing when more than `maxEdits` lines differ (the caller shows both;
/// the search keeps O(maxEdits^2) memory).
std::optional<std::vector<DiffLine>> diffLines(llvm::StringRef before,
                                               llvm::StringRef after,
                                               size_t maxEdits = 2000);

} // namespace ke::report

#endif // KE_TOOLS_KEREPORT_LINEDIFF_H
