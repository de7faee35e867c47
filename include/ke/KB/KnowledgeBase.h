//===- KnowledgeBase.h - retrieval of knowledge passages --------*- C++ -*-===//
//
// The documents of kb/ (and of any extra directory) indexed into the
// database's FTS5 table and retrieved with BM25 by a query built from the
// runtime signals of a node: target, op kinds, bound, error text.
//
//===----------------------------------------------------------------------===//

#ifndef KE_KB_KNOWLEDGEBASE_H
#define KE_KB_KNOWLEDGEBASE_H

#include "ke/Store/Store.h"

#include <string>
#include <vector>

namespace ke::kb {

/// What a node tells about itself, for retrieval.
struct RetrievalSignals {
  std::string target;
  std::vector<std::string> opKinds;
  std::string bound; ///< compute | memory | latency | ""
  std::string errorText;
};

class KnowledgeBase {
public:
  /// Indexes every `.md` file under `directories` into `store`: new and
  /// changed files (by content hash) are (re)indexed, files gone are
  /// dropped. Documents that do not parse are skipped, each with a line in
  /// `warnings`; a missing directory is an error.
  static llvm::Expected<KnowledgeBase>
  open(store::Store &store, llvm::ArrayRef<std::string> directories,
       std::vector<std::string> &warnings);

  /// The FTS5 query for `signals` (exposed for tests and for --explain).
  static std::string buildQuery(const RetrievalSignals &signals);

  /// The best `limit` passages for `signals`: for the target (or for every
  /// target), at most two per document.
  llvm::Expected<std::vector<store::KnowledgePassage>>
  retrieve(const RetrievalSignals &signals, size_t limit) const;

  size_t getDocumentCount() const { return documentCount; }

  /// kb/ of the source tree this ke was built from, or $KE_KB_DIR.
  static std::string getDefaultDirectory();

private:
  explicit KnowledgeBase(store::Store &store) : store(&store) {}
  store::Store *store;
  size_t documentCount = 0;
};

} // namespace ke::kb

#endif // KE_KB_KNOWLEDGEBASE_H
