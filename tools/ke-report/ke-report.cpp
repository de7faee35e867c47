//===- ke-report.cpp - what a ke database holds ---------------------------===//
//
//   ke-report trajectories --db ke.db -o calls.jsonl
//       one chat-format record per LLM call with its measured reward, for
//       post-training smaller models
//   ke-report skills --db ke.db [--target cpu]
//       the distilled skill library
//   ke-report recover --db damaged.db -o salvaged.db
//       the rows SQLite can still read of a damaged database, in a new one
//   ke-report runs --db ke.db
//       one line per search run
//   ke-report nodes --db ke.db [--run N] [--kernel K]
//       every evaluated node of a run (default: the latest)
//   ke-report best --db ke.db [--run N] [--kernel K] [--ir]
//       each kernel's best correct node (and its IR)
//   ke-report html --db ke.db [--run N] -o report.html
//       one self-contained page: trees, progress, best IR and diffs, LLM calls
//   ke-report spec --db ke.db [--run N] -o spec.mlir
//       the run's best schedules as a transform-dialect tuning spec
//   ke-report kb --db ke.db --target cpu --ops matmul,generic [--bound ...]
//       [--error "..."] [--kb dir,...]
//       the knowledge passages a prompt with these signals would get
//
//===----------------------------------------------------------------------===//

#include "../ToolMains.h"
#include "HtmlReport.h"
#include "SearchViews.h"
#include "ke/InitKe.h"
#include "ke/KB/KnowledgeBase.h"
#include "ke/Search/TuningSpecExport.h"
#include "ke/Store/Store.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <nlohmann/json.hpp>

using namespace ke;
using nlohmann::json;

namespace {
/// The command line, registered when a ke-report main runs (not at load
/// time: the release binary holds ke-opt's options too).
struct ReportOptions {
  llvm::cl::SubCommand trajectories{
      "trajectories", "Export LLM calls with their rewards (JSONL)"};
  llvm::cl::SubCommand skills{"skills", "List the skill library"};
  llvm::cl::SubCommand knowledge{"kb", "Show the passages retrieved for signals"};
  llvm::cl::SubCommand recovery{
      "recover", "Copy what can still be read of a damaged database into a "
                 "new one (-o)"};

  llvm::cl::SubCommand runs{"runs", "One line per search run"};
  llvm::cl::SubCommand nodes{
      "nodes", "Every evaluated node of a run (default: the latest)"};
  llvm::cl::SubCommand best{
      "best", "Each kernel's best correct node of a run (default: the latest)"};
  llvm::cl::SubCommand spec{
      "spec", "A run's best schedules as a transform-dialect tuning spec "
              "(default: the latest run)"};
  llvm::cl::SubCommand html{
      "html", "One self-contained HTML page of the search (every run, or "
              "--run)"};

  llvm::cl::opt<std::string> databasePath{
      "db",
      llvm::cl::desc("The database"),
      llvm::cl::init("ke.db"),
      llvm::cl::sub(trajectories),
      llvm::cl::sub(skills),
      llvm::cl::sub(knowledge),
      llvm::cl::sub(recovery),
      llvm::cl::sub(runs),
      llvm::cl::sub(nodes),
      llvm::cl::sub(best),
      llvm::cl::sub(html),
      llvm::cl::sub(spec)};
  llvm::cl::opt<int64_t> runId{"run",
                               llvm::cl::desc("The run (default: the latest; "
                                              "html: every run)"),
                               llvm::cl::init(0), llvm::cl::sub(nodes),
                               llvm::cl::sub(best), llvm::cl::sub(html),
                               llvm::cl::sub(spec)};
  llvm::cl::opt<std::string> kernelName{
      "kernel", llvm::cl::desc("Only this kernel"), llvm::cl::sub(nodes),
      llvm::cl::sub(best)};
  llvm::cl::opt<bool> withIR{"ir",
                             llvm::cl::desc("Print each best node's IR too"),
                             llvm::cl::sub(best)};
  llvm::cl::opt<std::string> outputPath{"o", llvm::cl::desc("Output file"),
                                        llvm::cl::init("-"),
                                        llvm::cl::sub(trajectories),
                                        llvm::cl::sub(recovery),
                                        llvm::cl::sub(html),
                                        llvm::cl::sub(spec)};
  llvm::cl::opt<std::string> targetName{
      "target", llvm::cl::desc("Target"), llvm::cl::init(""),
      llvm::cl::sub(skills), llvm::cl::sub(knowledge)};
  llvm::cl::opt<std::string> opKinds{
      "ops", llvm::cl::desc("Op kinds, comma-separated"),
      llvm::cl::sub(knowledge)};
  llvm::cl::opt<std::string> bound{"bound",
                                   llvm::cl::desc("compute|memory|latency"),
                                   llvm::cl::sub(knowledge)};
  llvm::cl::opt<std::string> errorText{"error", llvm::cl::desc("Error text"),
                                       llvm::cl::sub(knowledge)};
  llvm::cl::opt<std::string> extraKnowledge{
      "kb", llvm::cl::desc("Extra knowledge directories, comma-separated"),
      llvm::cl::sub(knowledge)};
  llvm::cl::opt<unsigned> passageCount{"n", llvm::cl::desc("Passages"),
                                       llvm::cl::init(4),
                                       llvm::cl::sub(knowledge)};
};

int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "ke-report") << message << "\n";
  return 1;
}

/// The reward of a call: the speedup of its candidate over the candidate's
/// parent when correct, 0 when it computed a wrong result, -1 when no
/// candidate could be built or run from it.
/// Salvages a damaged database: the rows SQLite can read, into a new file.
int recoverDatabase(const ReportOptions &options) {
  if (options.outputPath == "-")
    return fail("recover writes a new database: give it with -o FILE");
  auto tables =
      store::Store::recover(options.databasePath, options.outputPath);
  if (!tables)
    return fail(llvm::toString(tables.takeError()));
  int64_t copied = 0, lost = 0;
  llvm::outs() << "| table | rows copied | rows lost |\n|---|---|---|\n";
  for (const store::Store::RecoveredTable &table : *tables) {
    llvm::outs() << "| " << table.name << " | " << table.copied << " | "
                 << (table.lost < 0 ? std::string("unreadable")
                                    : std::to_string(table.lost))
                 << " |\n";
    copied += table.copied;
    lost += std::max<int64_t>(0, table.lost);
  }
  llvm::errs() << llvm::formatv("ke-report: {0} rows recovered into '{1}', "
                                "{2} lost\n",
                                copied, options.outputPath, lost);
  return 0;
}

int exportTrajectories(store::Store &database, const ReportOptions &options) {
  auto calls = database.loadLLMCalls();
  if (!calls)
    return fail(llvm::toString(calls.takeError()));
  auto nodes = database.loadLLMNodes();
  if (!nodes)
    return fail(llvm::toString(nodes.takeError()));
  std::map<int64_t, store::NodeRecord> nodeOfCall;
  for (store::NodeRecord &node : *nodes)
    nodeOfCall.emplace(*node.llmCall, std::move(node));

  std::error_code ec;
  llvm::ToolOutputFile output(options.outputPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write '" + options.outputPath + "': " + ec.message());
  size_t written = 0;
  for (const store::LLMCallRecord &call : *calls) {
    if (call.status != "ok")
      continue;
    json request = json::parse(call.request, nullptr, false);
    if (request.is_discarded() || !request.contains("messages"))
      continue;
    json messages = request["messages"];
    messages.push_back({{"role", "assistant"}, {"content", call.response}});
    json record = {{"messages", messages},
                   {"model", call.provider + ":" + call.model},
                   {"call", call.id}};
    auto found = nodeOfCall.find(call.id);
    if (found == nodeOfCall.end()) {
      record["outcome"] = "no candidate (the reply was repaired or dropped)";
      record["reward"] = -1.0;
    } else {
      const store::NodeRecord &node = found->second;
      record["node"] = node.id;
      record["run"] = node.run;
      record["outcome"] = node.status;
      double reward = node.status == "incorrect" ? 0.0 : -1.0;
      if (node.status == "correct" && node.timeNs && *node.timeNs > 0) {
        std::optional<double> parentNs;
        if (node.parent) {
          auto parent = database.getNode(*node.parent);
          if (parent && *parent)
            parentNs = (*parent)->timeNs;
          else if (!parent)
            llvm::consumeError(parent.takeError());
        } else {
          auto kernel = database.getKernel(node.kernel);
          if (kernel && *kernel)
            parentNs = (*kernel)->naiveTimeNs;
          else if (!kernel)
            llvm::consumeError(kernel.takeError());
        }
        reward = parentNs ? *parentNs / *node.timeNs : 1.0;
        record["speedup"] = node.speedup.value_or(0.0);
      }
      if (!node.error.empty())
        record["error"] = node.error;
      record["reward"] = reward;
    }
    output.os() << record.dump() << "\n";
    ++written;
  }
  output.keep();
  llvm::errs() << llvm::formatv("ke-report: {0} trajectories written\n",
                                written);
  return 0;
}

int listSkills(store::Store &database, const ReportOptions &options) {
  auto all = database.loadSkills();
  if (!all)
    return fail(llvm::toString(all.takeError()));
  llvm::outs() << "| id | target | op kinds | by | gain | speedup | change |\n"
                  "|---|---|---|---|---|---|---|\n";
  for (const store::SkillRecord &skill : *all)
    if (options.targetName.empty() || skill.target == options.targetName)
      llvm::outs() << llvm::formatv("| {0} | {1} | {2} | {3} | {4:f2}x | "
                                    "{5:f2}x | {6} |\n",
                                    skill.id, skill.target, skill.opKinds,
                                    skill.proposer, skill.gain, skill.speedup,
                                    skill.change);
  return 0;
}

int showKnowledge(store::Store &database, const ReportOptions &options) {
  std::vector<std::string> directories = {
      kb::KnowledgeBase::getDefaultDirectory()};
  llvm::SmallVector<llvm::StringRef> extra;
  llvm::StringRef(options.extraKnowledge).split(extra, ',', -1, false);
  for (llvm::StringRef directory : extra)
    directories.push_back(directory.str());
  std::vector<std::string> warnings;
  auto opened = kb::KnowledgeBase::open(database, directories, warnings);
  for (const std::string &warning : warnings)
    llvm::WithColor::warning(llvm::errs(), "ke-report") << warning << "\n";
  if (!opened)
    return fail(llvm::toString(opened.takeError()));
  kb::RetrievalSignals signals;
  signals.target = options.targetName;
  llvm::SmallVector<llvm::StringRef> kinds;
  llvm::StringRef(options.opKinds).split(kinds, ',', -1, false);
  for (llvm::StringRef kind : kinds)
    signals.opKinds.push_back(kind.str());
  signals.bound = options.bound;
  signals.errorText = options.errorText;
  llvm::outs() << "query: " << kb::KnowledgeBase::buildQuery(signals) << "\n";
  auto passages = opened->retrieve(signals, options.passageCount);
  if (!passages)
    return fail(llvm::toString(passages.takeError()));
  for (const store::KnowledgePassage &passage : *passages)
    llvm::outs() << llvm::formatv("{0:f2}  [{4}] {1} / {2}  ({3})\n",
                                  passage.score, passage.title, passage.heading,
                                  passage.path, passage.category);
  return 0;
}
/// The run's tuning spec, parsed and prepared with ke's dialects.
int writeSpec(store::Store &database, std::optional<int64_t> run,
              llvm::StringRef outputPath) {
  auto resolved = report::resolveRun(database, run);
  if (!resolved)
    return fail(llvm::toString(resolved.takeError()));
  mlir::DialectRegistry registry;
  ke::registerEverything(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::vector<std::string> notes;
  llvm::Expected<std::string> text =
      search::exportTuningSpec(database, resolved->id, &context, notes);
  if (!text)
    return fail(llvm::toString(text.takeError()));
  std::error_code ec;
  llvm::ToolOutputFile output(outputPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write '" + outputPath + "': " + ec.message());
  output.os() << *text;
  output.keep();
  for (const std::string &note : notes)
    llvm::errs() << "ke-report: note: " << note << "\n";
  return 0;
}
} // namespace

int keReportMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  ReportOptions options;
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "ke-report: what a ke database holds\n");
  if (!options.knowledge && !llvm::sys::fs::exists(options.databasePath))
    return fail("no database at '" + options.databasePath + "'");
  if (options.recovery)
    return recoverDatabase(options);
  auto database = store::Store::open(options.databasePath);
  if (!database)
    return fail(llvm::toString(database.takeError()));
  if (options.trajectories)
    return exportTrajectories(**database, options);
  if (options.skills)
    return listSkills(**database, options);
  if (options.knowledge)
    return showKnowledge(**database, options);
  std::optional<int64_t> run;
  if (options.runId > 0)
    run = options.runId;
  if (options.runs)
    return report::showRuns(**database, llvm::outs());
  if (options.nodes)
    return report::showNodes(**database, run, options.kernelName,
                             llvm::outs());
  if (options.best)
    return report::showBest(**database, run, options.kernelName,
                            options.withIR, llvm::outs());
  if (options.spec)
    return writeSpec(**database, run, options.outputPath);
  if (options.html) {
    std::error_code ec;
    llvm::ToolOutputFile output(options.outputPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + options.outputPath + "': " + ec.message());
    if (int status = report::writeHtmlReport(**database, run, output.os()))
      return status;
    output.keep();
    return 0;
  }
  return fail("expected a subcommand: runs, nodes, best, html, spec, "
              "trajectories, "
              "skills, kb or recover (see --help)");
}
