//===- KnowledgeBase.cpp - indexing and BM25 retrieval --------------------===//

#include "ke/KB/KnowledgeBase.h"
#include "ke/KB/KnowledgeDocument.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cstdlib>

using namespace ke::kb;
using ke::store::KnowledgePassage;

std::string KnowledgeBase::getDefaultDirectory() {
  if (const char *directory = std::getenv("KE_KB_DIR"))
    return directory;
  return KE_DEFAULT_KB_DIR;
}

llvm::Expected<KnowledgeBase>
KnowledgeBase::open(store::Store &store,
                    llvm::ArrayRef<std::string> directories,
                    std::vector<std::string> &warnings) {
  KnowledgeBase knowledge(store);
  std::vector<std::string> allIndexed;
  for (const std::string &directory : directories) {
    llvm::SmallString<256> root;
    if (llvm::sys::fs::real_path(directory, root) ||
        !llvm::sys::fs::is_directory(root))
      return llvm::createStringError("knowledge directory '" + directory +
                                     "' does not exist");
    std::vector<std::string> files;
    std::error_code ec;
    for (llvm::sys::fs::recursive_directory_iterator it(root, ec), end;
         it != end && !ec; it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".md" &&
          llvm::sys::path::filename(it->path()) != "README.md")
        files.push_back(it->path());
    if (ec)
      return llvm::createStringError("cannot list '" + directory +
                                     "': " + ec.message());
    llvm::sort(files);
    std::vector<std::string> indexed;
    for (const std::string &path : files) {
      auto buffer = llvm::MemoryBuffer::getFile(path);
      if (!buffer) {
        warnings.push_back(path +
                           ": cannot read: " + buffer.getError().message());
        continue;
      }
      llvm::StringRef text = (*buffer)->getBuffer();
      std::string stamp =
          llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                      /*LowerCase=*/true);
      auto known = store.getIndexedStamp(path);
      if (!known)
        return known.takeError();
      if (*known == stamp) {
        indexed.push_back(path);
        ++knowledge.documentCount;
        continue;
      }
      llvm::Expected<KnowledgeDocument> document =
          KnowledgeDocument::parse(path, text);
      if (!document) {
        warnings.push_back(llvm::toString(document.takeError()));
        continue;
      }
      std::vector<KnowledgePassage> passages;
      for (const KnowledgeSection &section : document->sections) {
        KnowledgePassage passage;
        passage.category = document->category;
        passage.targets = llvm::join(document->targets, " ");
        passage.tags = llvm::join(document->tags, " ");
        passage.title = document->title;
        passage.heading = section.heading;
        passage.body = section.body;
        passages.push_back(std::move(passage));
      }
      if (llvm::Error error = store.indexDocument(path, stamp, passages))
        return std::move(error);
      indexed.push_back(path);
      ++knowledge.documentCount;
    }
    allIndexed.insert(allIndexed.end(), indexed.begin(), indexed.end());
  }
  // Documents of directories not given this time (another kb=, a moved
  // tree) are dropped: only what was asked for is retrieved.
  if (llvm::Error error = store.dropDocumentsExcept("", allIndexed))
    return std::move(error);
  return knowledge;
}

namespace {
/// Words that say nothing about which passage helps.
bool isStopWord(llvm::StringRef word) {
  static const llvm::StringSet<> kWords = {
      "the",      "and",    "for",   "with",  "that",   "this",    "from",
      "does",     "not",    "error", "func",  "loc",    "note",    "see",
      "expected", "into",   "have",  "were",  "which",  "than",    "tensor",
      "arith",    "linalg", "index", "value", "values", "operand", "result",
      "generic",  "type",   "fill"};
  return kWords.contains(word);
}

void addWords(llvm::StringRef text, std::vector<std::string> &words,
              llvm::StringSet<> &seen, size_t limit, size_t minLength) {
  std::string word;
  auto flush = [&] {
    std::string lower = llvm::StringRef(word).lower();
    if (lower.size() >= minLength && !isStopWord(lower) &&
        !llvm::all_of(lower, llvm::isDigit) && seen.insert(lower).second &&
        words.size() < limit)
      words.push_back(lower);
    word.clear();
  };
  for (char c : text) {
    if (llvm::isAlnum(c))
      word += c;
    else
      flush();
  }
  flush();
}
} // namespace

std::string KnowledgeBase::buildQuery(const RetrievalSignals &signals) {
  std::vector<std::string> words;
  llvm::StringSet<> seen;
  for (const std::string &kind : signals.opKinds) {
    // conv_2d_nhwc_hwcf -> conv, batch_matmul -> batch matmul.
    std::string spaced = kind;
    std::replace(spaced.begin(), spaced.end(), '_', ' ');
    addWords(spaced, words, seen, 24, 3);
  }
  if (!signals.bound.empty())
    addWords(signals.bound + " bound", words, seen, 24, 3);
  addWords(signals.errorText, words, seen, words.size() + 10, 4);
  if (words.empty())
    words.push_back("optimization");
  std::vector<std::string> quoted;
  for (const std::string &word : words)
    quoted.push_back("\"" + word + "\"");
  std::string query = "(" + llvm::join(quoted, " OR ") + ")";
  if (!signals.target.empty())
    query = "targets : \"" + llvm::StringRef(signals.target).lower() +
            "\" AND " + query;
  return query;
}

llvm::Expected<std::vector<KnowledgePassage>>
KnowledgeBase::retrieve(const RetrievalSignals &signals, size_t limit) const {
  auto found = store->searchPassages(buildQuery(signals), limit * 4 + 4);
  if (!found)
    return found.takeError();
  std::vector<KnowledgePassage> chosen;
  llvm::StringMap<unsigned> perDocument;
  for (KnowledgePassage &passage : *found) {
    if (chosen.size() == limit)
      break;
    if (++perDocument[passage.path] > 2)
      continue;
    chosen.push_back(std::move(passage));
  }
  return chosen;
}
