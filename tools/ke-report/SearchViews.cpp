//===- SearchViews.cpp - ke-report's views of runs, nodes and bests -------===//

#include "SearchViews.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <ctime>

using namespace ke;
using namespace ke::report;

namespace {
int fail(llvm::Error error) {
  llvm::WithColor::error(llvm::errs(), "ke-report")
      << llvm::toString(std::move(error)) << "\n";
  return 1;
}

/// Seconds since the epoch as "2026-11-24 16:05:03" (UTC).
std::string formatTime(double seconds) {
  std::time_t time = static_cast<std::time_t>(seconds);
  std::tm parts;
  gmtime_r(&time, &parts);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &parts);
  return text;
}

std::string formatMicros(std::optional<double> ns) {
  return ns ? llvm::formatv("{0:f1}", *ns / 1e3).str() : std::string("-");
}

/// A table cell: one line, pipes escaped, at most `limit` characters.
std::string cell(llvm::StringRef text, size_t limit = 80) {
  std::string out;
  for (char c : text.take_front(limit)) {
    if (c == '\n' || c == '\r')
      out += ' ';
    else if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  if (text.size() > limit)
    out += "...";
  return out;
}
} // namespace

llvm::Expected<store::RunRecord>
ke::report::resolveRun(store::Store &database, std::optional<int64_t> run) {
  if (run) {
    auto found = database.getRun(*run);
    if (!found)
      return found.takeError();
    if (!*found)
      return llvm::createStringError(
          llvm::formatv("no run {0} in the database (ke-report runs lists "
                        "them)",
                        *run)
              .str());
    return **found;
  }
  auto runs = database.loadRuns();
  if (!runs)
    return runs.takeError();
  if (runs->empty())
    return llvm::createStringError("the database holds no run");
  return runs->back();
}

int ke::report::showRuns(store::Store &database, llvm::raw_ostream &os) {
  auto runs = database.loadRuns();
  if (!runs)
    return fail(runs.takeError());
  os << "| run | started (UTC) | seconds | status | kernels | nodes | correct "
        "| best speedup | options |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const store::RunRecord &run : *runs) {
    auto kernels = database.loadKernels(run.id);
    if (!kernels)
      return fail(kernels.takeError());
    size_t nodes = 0, correct = 0;
    std::optional<double> best;
    for (const store::KernelRecord &kernel : *kernels) {
      auto loaded = database.loadNodes(kernel.id);
      if (!loaded)
        return fail(loaded.takeError());
      nodes += loaded->size();
      for (const store::NodeRecord &node : *loaded)
        correct += node.status == "correct";
      if (const store::NodeRecord *top = store::findBestNode(*loaded))
        best = std::max(best.value_or(0.0), *top->speedup);
    }
    os << llvm::formatv(
        "| {0} | {1} | {2} | {3} | {4} | {5} | {6} | {7} | {8} |\n", run.id,
        formatTime(run.started),
        run.finished ? llvm::formatv("{0:f0}", *run.finished - run.started).str()
                     : std::string("-"),
        run.status, kernels->size(), nodes, correct,
        best ? llvm::formatv("{0:f2}x", *best).str() : std::string("-"),
        cell(run.options, 120));
  }
  return 0;
}

int ke::report::showNodes(store::Store &database, std::optional<int64_t> run,
                          const std::string &kernel, llvm::raw_ostream &os) {
  auto resolved = resolveRun(database, run);
  if (!resolved)
    return fail(resolved.takeError());
  auto kernels = database.loadKernels(resolved->id);
  if (!kernels)
    return fail(kernels.takeError());
  bool any = false;
  for (const store::KernelRecord &record : *kernels) {
    if (!kernel.empty() && record.name != kernel)
      continue;
    any = true;
    auto nodes = database.loadNodes(record.id);
    if (!nodes)
      return fail(nodes.takeError());
    os << llvm::formatv("run {0}, kernel {1} ({2}): naive {3} us\n\n",
                        resolved->id, record.name, record.target,
                        formatMicros(record.naiveTimeNs));
    os << "| node | parent | proposer | status | time (us) | speedup | "
          "strategy | error |\n|---|---|---|---|---|---|---|---|\n";
    for (const store::NodeRecord &node : *nodes)
      os << llvm::formatv(
          "| {0} | {1} | {2} | {3} | {4} | {5} | {6} | {7} |\n", node.id,
          node.parent ? std::to_string(*node.parent) : std::string("-"),
          node.proposer, node.status, formatMicros(node.timeNs),
          node.speedup && node.status == "correct"
              ? llvm::formatv("{0:f2}x", *node.speedup).str()
              : std::string("-"),
          cell(node.strategy), cell(node.error, 100));
    os << "\n";
  }
  if (!any)
    return fail(llvm::createStringError(
        kernel.empty() ? llvm::formatv("run {0} has no kernel", resolved->id)
                             .str()
                       : llvm::formatv("run {0} has no kernel '{1}'",
                                       resolved->id, kernel)
                             .str()));
  return 0;
}

int ke::report::showBest(store::Store &database, std::optional<int64_t> run,
                         const std::string &kernel, bool withIR,
                         llvm::raw_ostream &os) {
  auto resolved = resolveRun(database, run);
  if (!resolved)
    return fail(resolved.takeError());
  auto kernels = database.loadKernels(resolved->id);
  if (!kernels)
    return fail(kernels.takeError());
  if (!kernel.empty() &&
      llvm::none_of(*kernels, [&](const store::KernelRecord &record) {
        return record.name == kernel;
      }))
    return fail(llvm::createStringError(
        llvm::formatv("run {0} has no kernel '{1}'", resolved->id, kernel)
            .str()));
  os << "| run | kernel | target | naive (us) | best (us) | speedup | node | "
        "proposer | strategy |\n|---|---|---|---|---|---|---|---|---|\n";
  std::vector<std::pair<std::string, std::string>> bodies;
  for (const store::KernelRecord &record : *kernels) {
    if (!kernel.empty() && record.name != kernel)
      continue;
    auto nodes = database.loadNodes(record.id);
    if (!nodes)
      return fail(nodes.takeError());
    const store::NodeRecord *best = store::findBestNode(*nodes);
    if (!best) {
      os << llvm::formatv("| {0} | {1} | {2} | {3} | - | - | - | - | no "
                          "correct candidate |\n",
                          resolved->id, record.name, record.target,
                          formatMicros(record.naiveTimeNs));
      continue;
    }
    os << llvm::formatv(
        "| {0} | {1} | {2} | {3} | {4} | {5:f2}x | {6} | {7} | {8} |\n",
        resolved->id, record.name, record.target,
        formatMicros(record.naiveTimeNs), formatMicros(best->timeNs),
        *best->speedup, best->id, best->proposer, cell(best->strategy, 120));
    if (withIR)
      bodies.emplace_back(
          llvm::formatv("{0} (node {1})", record.name, best->id).str(),
          best->payloadIR);
  }
  for (const auto &[title, ir] : bodies)
    os << "\n// " << title << "\n" << ir << "\n";
  return 0;
}
