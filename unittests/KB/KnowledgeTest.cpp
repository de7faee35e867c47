//===- KnowledgeTest.cpp - documents, queries, retrieval ------------------===//

#include "ke/KB/KnowledgeBase.h"
#include "ke/KB/KnowledgeDocument.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace ke;
using namespace ke::kb;

TEST(KnowledgeDocumentTest, ParsesFrontMatterTitleAndSections) {
  auto document = KnowledgeDocument::parse("a.md", R"(---
category: optimization
targets: [cpu, riscv]   # comment
tags: [Tiling, vectorization]
---
# Tiling
Intro text.

## Cache tiles
Pick tiles that fit L2.
```mlir
## not a heading inside a fence
```

## Register tiles
Keep accumulators in registers.
)");
  ASSERT_TRUE(bool(document)) << llvm::toString(document.takeError());
  EXPECT_EQ(document->category, "optimization");
  EXPECT_EQ(document->targets, (std::vector<std::string>{"cpu", "riscv"}));
  EXPECT_EQ(document->tags,
            (std::vector<std::string>{"tiling", "vectorization"}));
  EXPECT_EQ(document->title, "Tiling");
  ASSERT_EQ(document->sections.size(), 3u);
  EXPECT_EQ(document->sections[0].heading, "Tiling");
  EXPECT_EQ(document->sections[1].heading, "Cache tiles");
  EXPECT_NE(document->sections[1].body.find("## not a heading"),
            std::string::npos);
  EXPECT_EQ(document->sections[2].heading, "Register tiles");
}

TEST(KnowledgeDocumentTest, ReportsWhatIsWrongWithItsLine) {
  auto check = [](llvm::StringRef text, llvm::StringRef expected) {
    auto document = KnowledgeDocument::parse("d.md", text);
    ASSERT_FALSE(bool(document));
    std::string message = llvm::toString(document.takeError());
    EXPECT_NE(message.find(expected.str()), std::string::npos) << message;
  };
  check("# no front matter\n", "d.md:1: a knowledge document starts with");
  check("---\ncategory: hardware\n", "not closed");
  check("---\ncategory: hardware\ncolour: red\n---\n# T\n",
        "d.md:3: unknown front matter key 'colour'");
  check("---\ncategory: hardware\ntargets: [tpu]\n---\n# T\n",
        "unknown target 'tpu'");
  check("---\ncategory: hardware\n---\nno title\n", "has no '# ' title");
}

TEST(KnowledgeBaseTest, QueriesCombineTargetOpsBoundAndErrors) {
  RetrievalSignals signals;
  signals.target = "CPU";
  signals.opKinds = {"batch_matmul", "generic"};
  signals.bound = "memory";
  signals.errorText = "lower: failed to legalize 'gpu.thread_id'";
  EXPECT_EQ(
      KnowledgeBase::buildQuery(signals),
      "targets : \"cpu\" AND (\"batch\" OR \"matmul\" OR \"memory\" OR "
      "\"bound\" OR \"lower\" OR \"failed\" OR \"legalize\" OR \"thread\")");
}

TEST(KnowledgeBaseTest, IndexesRetrievesAndReindexes) {
  llvm::SmallString<128> directory;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ke-kb", directory));
  auto write = [&](llvm::StringRef name, llvm::StringRef text) {
    llvm::SmallString<128> path = directory;
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << text;
  };
  write("gpu.md", "---\ncategory: hardware\ntargets: [nvgpu]\ntags: [warp]\n"
                  "---\n# GPU\n## Warp shuffles\nreduce with shuffles\n");
  write("cpu.md", "---\ncategory: optimization\ntargets: [cpu]\ntags: "
                  "[reduction]\n---\n# CPU\n## Row reductions\nreduce rows "
                  "with vector accumulators\n## Tiling\ntile loops\n");
  llvm::SmallString<128> databasePath = directory;
  llvm::sys::path::append(databasePath, "ke.db");
  auto database = store::Store::open(databasePath);
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  std::vector<std::string> warnings;
  auto knowledge =
      KnowledgeBase::open(**database, {std::string(directory)}, warnings);
  ASSERT_TRUE(bool(knowledge)) << llvm::toString(knowledge.takeError());
  EXPECT_EQ(knowledge->getDocumentCount(), 2u);
  EXPECT_TRUE(warnings.empty());

  RetrievalSignals signals;
  signals.target = "cpu";
  signals.opKinds = {"reduce"};
  signals.errorText = "reductions";
  auto passages = knowledge->retrieve(signals, 3);
  ASSERT_TRUE(bool(passages)) << llvm::toString(passages.takeError());
  ASSERT_FALSE(passages->empty());
  EXPECT_EQ((*passages)[0].heading, "Row reductions");
  for (const store::KnowledgePassage &passage : *passages)
    EXPECT_EQ(passage.targets, "cpu"); // the GPU document never comes back

  write("cpu.md", "---\ncategory: optimization\ntargets: [cpu]\n---\n# CPU\n"
                  "## Column reductions\nreduce columns\n");
  auto reopened =
      KnowledgeBase::open(**database, {std::string(directory)}, warnings);
  ASSERT_TRUE(bool(reopened));
  passages = reopened->retrieve(signals, 3);
  ASSERT_TRUE(bool(passages));
  ASSERT_EQ(passages->size(), 1u);
  EXPECT_EQ((*passages)[0].heading, "Column reductions");
  llvm::sys::fs::remove_directories(directory);
}
