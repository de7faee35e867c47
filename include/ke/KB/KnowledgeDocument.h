//===- KnowledgeDocument.h - one markdown document of kb/ -------*- C++ -*-===//

#ifndef KE_KB_KNOWLEDGEDOCUMENT_H
#define KE_KB_KNOWLEDGEDOCUMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ke::kb {

struct KnowledgeSection {
  std::string heading; ///< the "## " line, or the title for the preamble
  std::string body;
};

/// A document: front matter (category, targets, tags), a "# " title and
/// "## " sections. Each section is retrieved on its own.
struct KnowledgeDocument {
  std::string path;
  std::string category; ///< correctness | optimization | hardware
  std::vector<std::string> targets;
  std::vector<std::string> tags;
  std::string title;
  std::vector<KnowledgeSection> sections;

  /// Parses `text`; errors name `path:line` and what is wrong.
  static llvm::Expected<KnowledgeDocument> parse(llvm::StringRef path,
                                                 llvm::StringRef text);
};

} // namespace ke::kb

#endif // KE_KB_KNOWLEDGEDOCUMENT_H
