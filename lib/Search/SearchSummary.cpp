//===- SearchSummary.cpp - progress lines and the run's table -------------===//

#include "ke/Search/SearchSummary.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace ke::search;

void KernelSummary::account(llvm::StringRef status) {
  ++evaluated;
  if (status == "correct")
    ++correct;
  else if (status == "incorrect")
    ++incorrect;
  else
    ++failed;
}

void ke::search::reportProgress(const KernelSummary &summary, int budget,
                                double best, double elapsedSeconds,
                                bool final) {
  std::string line = llvm::formatv(
      "ke-evolve: {0}: evaluated {1}/{2}, correct {3}, best {4:f2}x, "
      "{5:f0} s",
      summary.name, summary.evaluated, budget, summary.correct, best,
      elapsedSeconds);
  if (budget > 0 && summary.evaluated > 0 && !final) {
    double eta = elapsedSeconds / summary.evaluated *
                 std::max(0, budget - summary.evaluated);
    line += llvm::formatv(", ETA {0:f0} s", eta).str();
  }
  if (llvm::errs().is_displayed()) {
    llvm::errs() << "\r\x1b[K" << line;
    if (final)
      llvm::errs() << "\n";
  } else {
    llvm::errs() << line << "\n";
  }
}

void ke::search::printSummaryTable(int64_t run, llvm::StringRef database,
                                   llvm::ArrayRef<KernelSummary> summaries) {
  llvm::errs() << llvm::formatv("\nke-evolve: run {0} in '{1}'\n", run,
                                database);
  llvm::errs() << "| kernel | naive (us) | best (us) | speedup | evaluated | "
                  "correct | incorrect | failed | duplicates | stopped | best "
                  "strategy | default (us) |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const KernelSummary &s : summaries)
    llvm::errs() << llvm::formatv(
        "| {0} | {1:f1} | {2:f1} | {3:f2}x | {4} | {5} | {6} | {7} | {8} | "
        "{9} | {10} | {11} |\n",
        s.name, s.naiveNs / 1e3, s.bestNs / 1e3, s.speedup, s.evaluated,
        s.correct, s.incorrect, s.failed, s.duplicates, s.stopReason,
        s.strategy,
        s.defaultNs ? llvm::formatv("{0:f1}", *s.defaultNs / 1e3).str()
                    : std::string("-"));
  for (const KernelSummary &s : summaries)
    if (!s.notes.empty())
      llvm::errs() << "note: " << s.name << ": " << s.notes << "\n";
}
