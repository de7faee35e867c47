//===- PromptSynthesizer.cpp - the universal operator's prompt ------------===//

#include "ke/Propose/PromptSynthesizer.h"

#include "ke/Eval/EvaluationReport.h"
#include "ke/Propose/ScheduleReply.h"
#include "ke/Target/TargetInfo.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

#include <cstdio>

using namespace ke::propose;
using ke::llm::ChatRequest;

namespace {
/// The prompt and its replay-key twin, in which measured numbers (times,
/// rates, speedups) are masked: they differ from run to run, the decisions
/// that produced the prompt do not.
class PromptText {
public:
  void add(llvm::StringRef text) {
    full += text;
    key += text;
  }
  void addMeasured(llvm::StringRef text) {
    full += text;
    key += "<measured>";
  }
  /// Text that may hold paths of the work directory (error messages).
  void addVolatile(llvm::StringRef text) {
    full += text;
    static const llvm::Regex workDirectory("ke-evolve-[A-Za-z0-9]+");
    std::string stable = text.str();
    while (workDirectory.match(stable))
      stable = workDirectory.sub("<work>", stable);
    key += stable;
  }
  void append(const PromptText &other) {
    full += other.full;
    key += other.key;
  }
  /// Retrieved context (knowledge, skills) is left out of the key: the
  /// library grows between a recording and its replay, the question asked
  /// stays the same.
  void appendRetrieved(const PromptText &other) { full += other.full; }
  size_t size() const { return full.size(); }
  std::string full, key;
};

/// Four significant digits, the way people read measurements.
std::string formatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", value);
  return buffer;
}

void addSpeedup(PromptText &text, const NodeView &node) {
  if (node.index == 0) {
    text.add("1x (the reference)");
    return;
  }
  if (!node.correct) {
    text.add(node.status.empty() ? "failed" : node.status);
    return;
  }
  text.addMeasured(formatNumber(node.speedup) + "x");
}

/// What the GPU code of a candidate looks like per compiled kernel: the
/// resources that limit occupancy, and how many launches one call makes.
void addGPUCode(PromptText &text, const ke::eval::EvaluationReport &report) {
  const llvm::json::Object *code =
      report.gpuCode ? report.gpuCode->getAsObject() : nullptr;
  if (!code)
    return;
  if (std::optional<int64_t> launches = code->getInteger("launches_per_call")) {
    text.add("- kernel launches per call: ");
    text.addMeasured(std::to_string(*launches));
    text.add("\n");
  }
  const llvm::json::Array *kernels = code->getArray("kernels");
  if (!kernels || kernels->empty())
    return;
  text.add("- GPU kernels (registers/thread, shared bytes/block, blocks/SM, "
           "spill bytes):");
  for (const llvm::json::Value &value : *kernels) {
    const llvm::json::Object *kernel = value.getAsObject();
    if (!kernel)
      continue;
    text.add(" ");
    text.add(kernel->getString("name").value_or("?").str());
    text.add("=");
    text.addMeasured(
        llvm::formatv("{0}/{1}/{2}/{3}",
                      kernel->getInteger("registers").value_or(-1),
                      kernel->getInteger("shared_bytes").value_or(0),
                      kernel->getInteger("occupancy").value_or(-1),
                      kernel->getInteger("spill_bytes").value_or(0))
            .str());
  }
  text.add("\n");
}

/// The parts of ke-run's JSON a model can act on.
void addDiagnosis(PromptText &text, const NodeView &node) {
  if (node.index == 0 && node.diagnosis.empty()) {
    text.add("- the naive reference (no schedule): the baseline of every "
             "speedup\n");
    return;
  }
  if (!node.error.empty()) {
    text.add("- status: " + node.status + "\n- error: ");
    text.addVolatile(node.error);
    text.add("\n");
  } else if (!node.status.empty()) {
    text.add("- status: " + node.status + "\n");
  }
  llvm::Expected<ke::eval::EvaluationReport> parsed =
      ke::eval::EvaluationReport::parse(node.diagnosis);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return;
  }
  const ke::eval::EvaluationReport &report = *parsed;
  if (std::optional<double> median = report.getMedianNs()) {
    text.add("- time: ");
    text.addMeasured(formatNumber(*median / 1e3) + " us");
    text.add(" (median)\n");
    // A static cost is not a time: no rates from it.
    if (!report.hasStaticCost()) {
      text.add("- compute: ");
      text.addMeasured(formatNumber(report.work.flops / *median) +
                       " GFLOP/s");
      text.add("\n- memory traffic: ");
      text.addMeasured(formatNumber(report.work.bytes / *median) + " GB/s");
      text.add("\n");
    }
  }
  if (!report.bound.empty()) {
    text.add("- bound: ");
    text.addMeasured(report.bound);
    std::optional<double> median = report.getMedianNs();
    if (median && *median > 0 && report.peakGflops && report.peakGbps &&
        !report.hasStaticCost())
      text.addMeasured(llvm::formatv(" ({0:f0}% of the measured FLOP/s peak, "
                                     "{1:f0}% of the measured bandwidth)",
                                     100 * report.work.flops / *median /
                                         *report.peakGflops,
                                     100 * report.work.bytes / *median /
                                         *report.peakGbps)
                           .str());
    text.add("\n");
  }
  addGPUCode(text, report);
  text.add("- max abs error vs reference: ");
  text.addMeasured(formatNumber(report.maxAbsError));
  text.add("\n");
  if (report.counters.count("cycles")) {
    auto counter = [&](llvm::StringRef name) {
      auto found = report.counters.find(name.str());
      return found == report.counters.end() ? 0.0 : found->second;
    };
    double cycles = counter("cycles");
    text.add("- hardware counters per call: ");
    text.addMeasured(
        llvm::formatv("{0:f0} cycles, IPC {1:f2}, {2:f0} cache "
                      "misses",
                      cycles, counter("instructions") / std::max(1.0, cycles),
                      counter("cache_misses"))
            .str());
    text.add("\n");
  }
  if (report.profiled) {
    text.add("- time shares by region:");
    for (const ke::eval::EvaluationReport::Region &region : report.regions) {
      text.add(" ");
      text.add(region.name);
      text.add("=");
      text.addMeasured(formatNumber(region.share * 100) + "%");
    }
    text.add("\n");
  }
}

void addNodeRow(PromptText &text, const NodeView &node) {
  text.add(llvm::formatv("| {0} | {1} | ", node.index,
                         node.index == 0 ? "reference" : node.proposer)
               .str());
  text.add(llvm::StringRef(node.strategy).take_front(160));
  text.add(" | ");
  addSpeedup(text, node);
  text.add(" | ");
  text.addVolatile(llvm::StringRef(node.error).take_front(200));
  text.add(" |\n");
}

llvm::StringRef describeTarget(llvm::StringRef target) {
  if (const ke::TargetInfo *info = ke::lookupTarget(target.str()))
    return llvm::StringRef(info->description.data(), info->description.size());
  return "an unknown target";
}
} // namespace

llvm::StringRef ke::propose::getSystemPrompt() {
  return R"(You are an expert MLIR compiler engineer working inside ke, a tool that
searches for faster implementations of tensor kernels. Every candidate you
propose is compiled, run on seeded inputs, compared element-wise with the
reference (atol/rtol), timed, and fed back to you. Wrong or slower candidates
cost the search time; correct, faster ones are kept.

Answer with a short sentence saying what you change and why, then exactly one
fenced ```mlir block holding ONE of:
(a) a transform script: a module containing
      transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly})
    It is applied with the transform interpreter to the payload shown, with
    %root bound to the payload's func.func. Use transform.structured.match to
    find ops, then tile (tile_using_for / tile_using_forall), fuse, vectorize,
    apply_patterns ... Stay at tensor level: ke bufferizes and lowers afterwards.
(b) a whole new func.func with exactly the kernel's name, argument and result
    types, on tensors with static shapes, using the upstream dialects (linalg,
    tensor, arith, math, scf, vector). It replaces the payload.
Rules: compute the same values as the reference (float reassociation is
fine within tolerance); never return a value that aliases an argument; no
calls to external functions; only ops that lower on the target.)";
}

ChatRequest ke::propose::synthesizePrompt(const PromptInputs &inputs) {
  const ProposalContext &context = *inputs.context;
  const NodeView &parent = context.parent;
  bool restart = inputs.memory == MemoryOperator::Restart;

  PromptText essential;
  essential.add(llvm::formatv("# Kernel\n`@{0}` for target `{1}`: {2}",
                              context.kernelName, context.target,
                              describeTarget(context.target))
                    .str());
  if (context.threads > 1)
    essential.add(
        llvm::formatv("; {0} threads available", context.threads).str());
  essential.add(".\nSignature: " + context.signature +
                "\nOps: " + context.opKinds + "\n\n");
  if (restart)
    essential.add("# Payload to rewrite: the reference (start from a clean "
                  "slate)\n");
  else
    essential.add(
        llvm::formatv("# Payload to rewrite: node {0} ({1})\n", parent.index,
                      parent.index == 0 ? "the reference" : parent.strategy)
            .str());
  essential.add("```mlir\n" + inputs.baseIR + "\n```\n\n");
  essential.add("# Diagnosis of that payload\n");
  if (restart) {
    essential.add("- the naive reference (no schedule): the baseline of "
                  "every speedup\n");
  } else {
    addDiagnosis(essential, parent);
    essential.add("- speedup over the naive reference: ");
    addSpeedup(essential, parent);
    essential.add("\n");
  }
  essential.add("\n");

  PromptText memory;
  std::vector<const NodeView *> rows;
  llvm::StringRef heading;
  switch (inputs.memory) {
  case MemoryOperator::InheritTrajectory:
    heading = "the path from the reference to this payload: refine along it";
    for (const NodeView &node : context.trajectory)
      rows.push_back(&node);
    break;
  case MemoryOperator::CompareSiblings:
    heading = "what was already tried from this payload: do better than "
              "these, and do not repeat their mistakes";
    for (const NodeView &node : context.siblings)
      rows.push_back(&node);
    break;
  case MemoryOperator::Combine:
    heading = "both the path to this payload and the best candidates so "
              "far: combine the ideas of the payload with theirs";
    for (const NodeView &node : context.trajectory)
      rows.push_back(&node);
    for (const NodeView &node : context.elite)
      if (node.index != parent.index &&
          llvm::none_of(context.trajectory, [&](const NodeView &step) {
            return step.index == node.index;
          }))
        rows.push_back(&node);
    break;
  case MemoryOperator::Restart:
    heading = "none: a clean slate, try an approach different from the "
              "search's so far";
    break;
  }
  memory.add(llvm::formatv("# Context (memory: {0}) - {1}\n",
                           getMemoryOperatorName(inputs.memory), heading)
                 .str());
  if (!rows.empty())
    memory.add("| node | by | strategy | speedup | error |\n|---|---|---|---|"
               "---|\n");

  // Whatever the memory, what was already proposed from this payload is
  // listed, so the model does not propose it again.
  if (inputs.memory != MemoryOperator::CompareSiblings &&
      inputs.memory != MemoryOperator::Restart && !context.siblings.empty()) {
    memory.add("Already proposed from this payload (do not repeat): ");
    for (const NodeView &sibling : context.siblings) {
      memory.add(
          "\"" + llvm::StringRef(sibling.strategy).take_front(100).str() +
          "\" (" + (sibling.status.empty() ? "?" : sibling.status) + "); ");
    }
    memory.add("\n");
  }

  PromptText task;
  task.add("# Task\nPropose one rewrite of the payload above that computes "
           "the same result faster on this target. Reply with one sentence, "
           "then one ```mlir block.\n");

  size_t budget = inputs.tokenBudget * 4;
  size_t used =
      getSystemPrompt().size() + essential.size() + task.size() + memory.size();
  // Context rows, newest (most relevant) kept first when space is short.
  std::vector<PromptText> rowTexts;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    PromptText row;
    addNodeRow(row, **it);
    if (used + row.size() > budget)
      break;
    used += row.size();
    rowTexts.insert(rowTexts.begin(), row);
  }
  for (const PromptText &row : rowTexts)
    memory.append(row);
  memory.add("\n");

  PromptText skills;
  for (const store::SkillRecord &skill : inputs.skills) {
    PromptText entry;
    entry.add(llvm::formatv("- on `{0}` ({1}), {2}: ", skill.opKinds,
                            skill.target, skill.proposer)
                  .str());
    entry.addMeasured(formatNumber(skill.gain) + "x over its parent");
    entry.add(". " + skill.change + "\n");
    if (!skill.rewrite.empty())
      entry.add("```mlir\n" +
                llvm::StringRef(skill.rewrite).take_front(1200).str() +
                "\n```\n");
    if (used + entry.size() > budget)
      break;
    used += entry.size();
    skills.append(entry);
  }

  PromptText knowledge;
  for (const store::KnowledgePassage &passage : inputs.passages) {
    PromptText entry;
    entry.add("## " + passage.title + " / " + passage.heading + "\n" +
              passage.body + "\n\n");
    if (used + entry.size() > budget)
      continue; // a shorter passage may still fit
    used += entry.size();
    knowledge.append(entry);
  }

  PromptText user;
  user.append(essential);
  user.append(memory);
  if (skills.size()) {
    PromptText section;
    section.add("# Skills learnt by earlier searches on similar kernels\n");
    section.append(skills);
    section.add("\n");
    user.appendRetrieved(section);
  }
  if (knowledge.size()) {
    PromptText section;
    section.add("# Knowledge\n");
    section.append(knowledge);
    user.appendRetrieved(section);
  }
  user.append(task);

  ChatRequest request;
  request.messages.push_back({"system", getSystemPrompt().str()});
  request.messages.push_back({"user", user.full});
  request.replayKeyText = getSystemPrompt().str() + "\n" + user.key;
  return request;
}

ChatRequest ke::propose::synthesizeLengthRetry(const ChatRequest &original,
                                               unsigned maxTokens) {
  // The cut reply is never sent back: it is long by definition, and a
  // degenerate one would fill the next prompt.
  ChatRequest request = original;
  std::string note = llvm::formatv(
      "\n\n(An earlier answer to this was cut at the limit of {0} tokens. "
      "Answer shorter: {1}.)",
      maxTokens,
      original.responseSchema.empty()
          ? "one sentence and one ```mlir block, no commentary"
          : "only the JSON object, a short explanation");
  request.messages.back().content += note;
  if (!request.replayKeyText.empty())
    request.replayKeyText += note;
  return request;
}

ChatRequest ke::propose::synthesizeRepair(const ChatRequest &original,
                                          llvm::StringRef reply,
                                          llvm::StringRef problem,
                                          llvm::StringRef offendingLine) {
  ChatRequest request = original;
  request.messages.push_back({"assistant", reply.str()});
  std::string message = "Your reply could not be used: " + problem.str();
  if (!offendingLine.empty())
    message += "\nThe offending line: `" + offendingLine.trim().str() + "`";
  message += original.responseSchema.empty()
                 ? "\nFix it. Reply again with one sentence and one ```mlir "
                   "block."
                 : "\nFix it. Reply again with only the JSON object.";
  request.messages.push_back({"user", message});
  if (!request.replayKeyText.empty())
    request.replayKeyText +=
        "\n<assistant>\n" + reply.str() + "\n<user>\n" + message;
  return request;
}

llvm::StringRef ke::propose::getScheduleSystemPrompt() {
  return "You tune kernels for ke, a search-based kernel optimizer. You do "
         "not write code: for each linalg op of the kernel you choose the "
         "knobs of ke's schedule (cache tiles, register tiles, "
         "vectorization, threads, unrolling), ke builds and measures the "
         "result. Reply with one JSON object and nothing else.";
}

namespace {
/// A node's schedule in the reply's form, or its strategy when it has none.
std::string describeNodeSchedule(const NodeView &node) {
  if (!node.schedule.empty()) {
    llvm::Expected<Schedule> schedule = Schedule::parse(node.schedule);
    if (schedule)
      return scheduleToReplyJSON(*schedule);
    llvm::consumeError(schedule.takeError());
  }
  return "(" + llvm::StringRef(node.strategy).take_front(120).str() + ")";
}
} // namespace

ChatRequest ke::propose::synthesizeSchedulePrompt(const PromptInputs &inputs) {
  const ProposalContext &context = *inputs.context;
  PromptText user;
  user.add(llvm::formatv("# Kernel @{0} on {1} ({2}), {3} thread(s)\n",
                         context.kernelName, context.target,
                         describeTarget(context.target), context.threads)
               .str());
  user.add("Its linalg ops, their loops (trip count, kind) and the valid "
           "values of every knob:\n");
  user.add(describeScheduleSpace(context.shapes, context.threads));
  user.add("cache[i] tiles loop i for the caches (0: not tiled); register[i] "
           "tiles it again for registers (0: not tiled), within its cache "
           "tile; with vectorize, the register tile becomes one vector (keep "
           "the product of an op's register tiles at most 1024); parallel "
           "runs the cache tiles of parallel loops on threads; unroll "
           "unrolls the innermost register loop.\n\n");

  user.add("# Measured (speedup over the naive loops; higher is better)\n");
  user.add("- reference (naive loops): 1x\n");
  // The parent's path, its siblings and the best so far, each once.
  std::vector<const NodeView *> shown;
  auto show = [&](const NodeView &node, llvm::StringRef role) {
    if (node.index == 0 ||
        llvm::any_of(shown, [&](const NodeView *seen) {
          return seen->index == node.index;
        }))
      return;
    if (user.size() > inputs.tokenBudget * 4 / 2)
      return; // the history may take half the prompt
    shown.push_back(&node);
    if (node.status == "proposed") {
      user.add("- proposed just now, not measured yet (choose another): " +
               describeNodeSchedule(node) + "\n");
      return;
    }
    user.add("- " + role.str() + " " + std::to_string(node.index) + ": " +
             describeNodeSchedule(node) + " -> ");
    addSpeedup(user, node);
    if (!node.error.empty()) {
      user.add(" (");
      user.addVolatile(llvm::StringRef(node.error).take_front(160));
      user.add(")");
    }
    user.add("\n");
  };
  for (const NodeView &node : context.trajectory)
    show(node, "node");
  show(context.parent, "parent");
  for (const NodeView &node : context.elite)
    show(node, "best");
  for (const NodeView &node : context.siblings)
    show(node, "tried from the parent");
  user.add("\n# Diagnosis of the parent\n");
  addDiagnosis(user, context.parent);

  // Knowledge gets at most a quarter of the budget: the choice is the point.
  PromptText knowledge;
  size_t knowledgeBudget = inputs.tokenBudget * 4 / 4;
  for (const store::KnowledgePassage &passage : inputs.passages) {
    PromptText entry;
    entry.add("## " + passage.title + " / " + passage.heading + "\n" +
              passage.body + "\n\n");
    if (knowledge.size() + entry.size() > knowledgeBudget)
      continue;
    knowledge.append(entry);
  }
  if (knowledge.size()) {
    PromptText section;
    section.add("\n# Knowledge\n");
    section.append(knowledge);
    user.appendRetrieved(section);
  }

  user.add("\n# Reply\nChoose a schedule likely to be faster than the "
           "parent, different from those measured. Reply with exactly one "
           "JSON object of this form (these values are ke's default "
           "schedule):\n");
  user.add(renderScheduleSkeleton(context.shapes));
  user.add("\n");

  ChatRequest request;
  request.messages.push_back({"system", getScheduleSystemPrompt().str()});
  request.messages.push_back({"user", user.full});
  request.replayKeyText = getScheduleSystemPrompt().str() + "\n" + user.key;
  request.responseSchema = buildScheduleSchema(context.shapes, context.threads);
  return request;
}

void ke::propose::offerScheduleForm(ChatRequest &request,
                                    const ProposalContext &context) {
  std::string offer =
      "\n# Or choose a schedule instead\nInstead of IR, you may reply with "
      "only a JSON object choosing ke's schedule for each op:\n" +
      describeScheduleSpace(context.shapes, context.threads) + "Form:\n" +
      renderScheduleSkeleton(context.shapes) + "\n";
  request.messages.back().content += offer;
  if (!request.replayKeyText.empty())
    request.replayKeyText += offer;
}

void ke::propose::moveSystemToUser(ChatRequest &request) {
  std::string system;
  std::vector<llm::Message> kept;
  for (llm::Message &message : request.messages) {
    if (message.role == "system")
      system += (system.empty() ? "" : "\n\n") + message.content;
    else
      kept.push_back(std::move(message));
  }
  if (system.empty())
    return;
  if (!kept.empty() && kept.front().role == "user")
    kept.front().content = system + "\n\n" + kept.front().content;
  else
    kept.insert(kept.begin(), {"user", system});
  request.messages = std::move(kept);
}
