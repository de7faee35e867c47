//===- KnowledgeDocument.cpp - front matter and sections ------------------===//

#include "ke/KB/KnowledgeDocument.h"

#include "ke/Target/TargetInfo.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace ke::kb;

namespace {
/// "[a, b]" or "a, b" -> {a, b}.
std::vector<std::string> parseList(llvm::StringRef value) {
  value = value.trim();
  value.consume_front("[");
  value.consume_back("]");
  llvm::SmallVector<llvm::StringRef> items;
  value.split(items, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> result;
  for (llvm::StringRef item : items)
    if (!item.trim().empty())
      result.push_back(item.trim().lower());
  return result;
}
} // namespace

llvm::Expected<KnowledgeDocument>
KnowledgeDocument::parse(llvm::StringRef path, llvm::StringRef text) {
  KnowledgeDocument document;
  document.path = path.str();
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  auto error = [&](size_t line, const llvm::Twine &message) {
    return llvm::createStringError(
        llvm::formatv("{0}:{1}: {2}", path, line + 1, message.str()));
  };
  if (lines.empty() || lines[0].trim() != "---")
    return error(0, "a knowledge document starts with a front matter "
                    "('---', then category/targets/tags, then '---')");
  size_t line = 1;
  for (; line < lines.size() && lines[line].trim() != "---"; ++line) {
    llvm::StringRef entry = lines[line].split('#').first.trim();
    if (entry.empty())
      continue;
    auto [key, value] = entry.split(':');
    key = key.trim();
    if (key == "category")
      document.category = value.trim().lower();
    else if (key == "targets")
      document.targets = parseList(value);
    else if (key == "tags")
      document.tags = parseList(value);
    else
      return error(line, "unknown front matter key '" + key +
                             "' (expected category, targets, tags)");
  }
  if (line == lines.size())
    return error(0, "the front matter is not closed by '---'");
  if (document.category != "correctness" &&
      document.category != "optimization" && document.category != "hardware")
    return error(0, "category must be correctness, optimization or hardware, "
                    "not '" +
                        document.category + "'");
  for (const std::string &target : document.targets)
    if (!ke::lookupTarget(target))
      return error(0, "unknown target '" + target + "' (expected " +
                          ke::getTargetNameList() + ")");

  KnowledgeSection current;
  auto flush = [&] {
    std::string body = llvm::StringRef(current.body).trim().str();
    if (!body.empty()) {
      current.body = body;
      document.sections.push_back(current);
    }
    current = KnowledgeSection();
  };
  bool inFence = false;
  for (++line; line < lines.size(); ++line) {
    llvm::StringRef text = lines[line].rtrim();
    if (text.trim().starts_with("```"))
      inFence = !inFence;
    if (!inFence && text.starts_with("# ") && document.title.empty()) {
      document.title = text.drop_front(2).trim().str();
      current.heading = document.title;
      continue;
    }
    if (!inFence && text.starts_with("## ")) {
      flush();
      current.heading = text.drop_front(3).trim().str();
      continue;
    }
    current.body += text.str() + "\n";
  }
  flush();
  if (document.title.empty())
    return error(line - 1, "the document has no '# ' title");
  return document;
}
