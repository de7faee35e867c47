//===- HtmlReport.cpp - one self-contained page per search ----------------===//

#include "HtmlReport.h"
#include "LineDiff.h"
#include "SearchViews.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace ke;
using namespace ke::report;
using nlohmann::json;

namespace {
int fail(llvm::Error error) {
  llvm::WithColor::error(llvm::errs(), "ke-report")
      << llvm::toString(std::move(error)) << "\n";
  return 1;
}

std::string escapeHtml(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// A field of a recorded JSON object with the type it must have, else
/// `fallback`: what the database holds is read, never trusted to be right.
std::string stringField(const json &object, const char *key,
                        const std::string &fallback) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>()
                                                      : fallback;
}

double numberField(const json &object, const char *key, double fallback) {
  auto found = object.find(key);
  return found != object.end() && found->is_number() ? found->get<double>()
                                                      : fallback;
}

/// JSON for a <script type="application/json"> block: '<' is escaped so
/// that no "</script>" inside a string can end the block.
std::string embedJson(const json &value) {
  std::string text = value.dump(-1, ' ', false,
                                json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

const char *kStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:12px 24px}
header h1{margin:0;font-size:20px}
p.run code{word-break:break-all}
main{padding:16px 24px}
section.kernel{background:#fff;border:1px solid #d8dce3;border-radius:8px;margin:16px 0;padding:12px 16px}
h2{font-size:18px;margin:4px 0 8px}h3{font-size:15px;margin:16px 0 6px}
.summary td,.summary th{padding:2px 10px 2px 0;text-align:left}
.tree{overflow:auto;max-height:520px;border:1px solid #e3e6eb;border-radius:6px;background:#fbfcfd}
.row{display:flex;gap:16px;align-items:flex-start}
.details{min-width:320px;max-width:480px;border:1px solid #e3e6eb;border-radius:6px;padding:8px;background:#fff;font-size:13px}
.details pre{white-space:pre-wrap;word-break:break-word;max-height:240px;overflow:auto}
.mark{cursor:pointer;stroke:#1d2433;stroke-width:.6}
.mark:hover,.mark.selected{stroke:#000;stroke-width:2.5}
.s-correct{fill:#2e9d57}.s-incorrect{fill:#e59b2c}.s-failed{fill:#d2413a}.s-other{fill:#8a94a6}
.best{stroke:#6a2fd6;stroke-width:3}
.edge{stroke:#b7bfcc;stroke-width:1}
.legend span{display:inline-block;margin-right:14px}
pre.ir{background:#f7f8fa;border:1px solid #e3e6eb;padding:8px;overflow:auto;max-height:480px;font:12px/1.35 ui-monospace,monospace}
.add{background:#dff6e4}.del{background:#fde2e1}
.bar{display:inline-block;height:10px;background:#4a78d0;vertical-align:middle}
details{margin:4px 0}summary{cursor:pointer}
.msg{border-left:3px solid #c8cfdb;padding-left:8px;margin:6px 0}
.role{font-weight:600;color:#4a5568}
)css";

/// Hover and click show a node's record; the data is the kernel's JSON.
const char *kScript = R"js(
(function(){
  var start = performance.now();
  document.querySelectorAll('section.kernel').forEach(function(section){
    var nodes = JSON.parse(section.querySelector('script.nodes').textContent);
    var byId = {};
    nodes.forEach(function(n){ byId[n.id] = n; });
    var panel = section.querySelector('.details');
    var selected = null;
    function fmt(v, d){ return v === null || v === undefined ? '-' : v.toFixed(d); }
    function show(id){
      var n = byId[id]; if (!n) return;
      panel.innerHTML = '';
      function line(label, value){
        var p = document.createElement('div');
        var b = document.createElement('b'); b.textContent = label + ': ';
        p.appendChild(b); p.appendChild(document.createTextNode(value)); panel.appendChild(p);
      }
      line('node', n.id + (n.parent !== null ? ' (parent ' + n.parent + ')' : ' (child of the reference)'));
      line('proposer', n.proposer); line('status', n.status);
      line('time', n.time_us === null ? '-' : fmt(n.time_us, 1) + ' us');
      line('speedup over naive', n.speedup === null ? '-' : fmt(n.speedup, 2) + 'x');
      line('strategy', n.strategy || '-');
      if (n.error) line('error', n.error);
      if (n.llm_call !== null) line('LLM call', '#' + n.llm_call + ' (prompt and reply below)');
      if (n.diagnosis) {
        var pre = document.createElement('pre'); pre.textContent = n.diagnosis; panel.appendChild(pre);
      }
    }
    section.querySelectorAll('svg.tree-svg').forEach(function(svg){
      svg.addEventListener('mouseover', function(e){
        var id = e.target.getAttribute && e.target.getAttribute('data-node');
        if (id && selected === null) show(id);
      });
      svg.addEventListener('click', function(e){
        var id = e.target.getAttribute && e.target.getAttribute('data-node');
        if (!id) return;
        section.querySelectorAll('.mark.selected').forEach(function(m){ m.classList.remove('selected'); });
        e.target.classList.add('selected'); selected = id; show(id);
      });
    });
  });
  document.body.setAttribute('data-script-ms', (performance.now() - start).toFixed(1));
})();
)js";

struct NodeLayout {
  double x = 0, y = 0;
};

/// Where each node sits: depth down, leaves left to right, a parent over
/// the middle of its children. Index 0 is the reference (the root).
std::vector<NodeLayout>
layoutTree(const std::vector<std::vector<size_t>> &children, double xStep,
           double yStep, double margin, double &width, double &height) {
  std::vector<NodeLayout> layout(children.size());
  double nextLeaf = 0;
  size_t maxDepth = 0;
  // Iterative post-order: chains of thousands of nodes must not recurse.
  struct Frame {
    size_t node, depth, next;
  };
  std::vector<Frame> stack{{0, 0, 0}};
  while (!stack.empty()) {
    Frame &frame = stack.back();
    const std::vector<size_t> &kids = children[frame.node];
    if (frame.next < kids.size()) {
      size_t child = kids[frame.next++];
      stack.push_back({child, frame.depth + 1, 0});
      continue;
    }
    NodeLayout &place = layout[frame.node];
    place.y = margin + frame.depth * yStep;
    maxDepth = std::max(maxDepth, frame.depth);
    if (kids.empty())
      place.x = margin + (nextLeaf++) * xStep;
    else
      place.x = (layout[kids.front()].x + layout[kids.back()].x) / 2;
    stack.pop_back();
  }
  width = 2 * margin + std::max(0.0, nextLeaf - 1) * xStep;
  height = 2 * margin + maxDepth * yStep;
  return layout;
}

std::string statusClass(llvm::StringRef status) {
  if (status == "correct" || status == "incorrect" || status == "failed")
    return ("s-" + status).str();
  return "s-other";
}

/// One mark: shape by proposer (library: circle, LLM: square, file:
/// diamond, ke's default lowering: triangle), size by speedup.
void writeMark(llvm::raw_ostream &os, const store::NodeRecord &node,
               NodeLayout at, bool isBest) {
  double speedup = node.status == "correct" ? node.speedup.value_or(0.0) : 0.0;
  double r = 4.0 + 3.0 * std::log2(1.0 + std::max(0.0, speedup));
  r = std::min(r, 16.0);
  std::string cls = "mark " + statusClass(node.status) + (isBest ? " best" : "");
  std::string common = llvm::formatv("class=\"{0}\" data-node=\"{1}\"", cls,
                                     node.id)
                           .str();
  llvm::StringRef proposer = node.proposer;
  if (proposer.starts_with("llm"))
    os << llvm::formatv("<rect {0} x=\"{1:f1}\" y=\"{2:f1}\" width=\"{3:f1}\" "
                        "height=\"{3:f1}\"/>",
                        common, at.x - r, at.y - r, 2 * r);
  else if (proposer == "file")
    os << llvm::formatv("<polygon {0} points=\"{1:f1},{2:f1} {3:f1},{4:f1} "
                        "{1:f1},{5:f1} {6:f1},{4:f1}\"/>",
                        common, at.x, at.y - r * 1.3, at.x + r * 1.3, at.y,
                        at.y + r * 1.3, at.x - r * 1.3);
  else if (proposer == "default")
    os << llvm::formatv("<polygon {0} points=\"{1:f1},{2:f1} {3:f1},{4:f1} "
                        "{5:f1},{4:f1}\"/>",
                        common, at.x, at.y - r * 1.2, at.x + r * 1.2,
                        at.y + r * 0.9, at.x - r * 1.2);
  else
    os << llvm::formatv("<circle {0} cx=\"{1:f1}\" cy=\"{2:f1}\" r=\"{3:f1}\"/>",
                        common, at.x, at.y, r);
  os << "\n";
}

/// The search tree as SVG, marks drawn over the edges.
void writeTree(llvm::raw_ostream &os,
               const std::vector<store::NodeRecord> &nodes,
               const store::NodeRecord *best) {
  // Index 0 is the reference; node i + 1 is nodes[i].
  llvm::DenseMap<int64_t, size_t> indexOf;
  for (auto [i, node] : llvm::enumerate(nodes))
    indexOf[node.id] = i + 1;
  std::vector<std::vector<size_t>> children(nodes.size() + 1);
  std::vector<size_t> parentOf(nodes.size() + 1, 0);
  for (auto [i, node] : llvm::enumerate(nodes)) {
    size_t parent = 0;
    if (node.parent)
      if (auto it = indexOf.find(*node.parent); it != indexOf.end())
        parent = it->second;
    parentOf[i + 1] = parent;
    children[parent].push_back(i + 1);
  }
  double width, height;
  std::vector<NodeLayout> layout =
      layoutTree(children, 26.0, 60.0, 28.0, width, height);
  os << llvm::formatv("<svg class=\"tree-svg\" xmlns=\"http://www.w3.org/2000/"
                      "svg\" width=\"{0:f0}\" height=\"{1:f0}\">\n",
                      std::max(width, 200.0), height);
  for (size_t i = 1; i < layout.size(); ++i)
    os << llvm::formatv("<line class=\"edge\" x1=\"{0:f1}\" y1=\"{1:f1}\" "
                        "x2=\"{2:f1}\" y2=\"{3:f1}\"/>",
                        layout[parentOf[i]].x, layout[parentOf[i]].y,
                        layout[i].x, layout[i].y);
  os << "\n";
  os << llvm::formatv("<circle class=\"reference\" data-reference=\"1\" "
                      "cx=\"{0:f1}\" cy=\"{1:f1}\" r=\"7\" fill=\"#1d2433\"><"
                      "title>the reference (naive)</title></circle>\n",
                      layout[0].x, layout[0].y);
  for (auto [i, node] : llvm::enumerate(nodes))
    writeMark(os, node, layout[i + 1], best && best->id == node.id);
  os << "</svg>\n";
}

/// Best speedup over naive so far, against candidates evaluated.
void writeProgress(llvm::raw_ostream &os,
                   const std::vector<store::NodeRecord> &nodes) {
  std::vector<double> bestSoFar;
  double best = 0.0;
  for (const store::NodeRecord &node : nodes) {
    if (node.status == "correct" && node.speedup)
      best = std::max(best, *node.speedup);
    bestSoFar.push_back(best);
  }
  if (bestSoFar.empty())
    return;
  const double w = 560, h = 180, left = 48, bottom = 28, top = 10;
  double yMax = std::max(1.0, best) * 1.1;
  auto px = [&](size_t i) {
    return left + (bestSoFar.size() == 1
                       ? 0.0
                       : (w - left - 10) * i / (bestSoFar.size() - 1));
  };
  auto py = [&](double v) { return top + (h - top - bottom) * (1 - v / yMax); };
  os << llvm::formatv("<svg class=\"progress\" xmlns=\"http://www.w3.org/2000/"
                      "svg\" width=\"{0:f0}\" height=\"{1:f0}\">",
                      w, h);
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1:f1}\" x2=\"{2}\" y2=\"{1:f1}\" "
                      "stroke=\"#999\"/>",
                      left, h - bottom, w - 10);
  os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2:f1}\" "
                      "stroke=\"#999\"/>",
                      left, top, h - bottom);
  os << "<polyline fill=\"none\" stroke=\"#6a2fd6\" stroke-width=\"2\" "
        "points=\"";
  for (auto [i, value] : llvm::enumerate(bestSoFar))
    os << llvm::formatv("{0:f1},{1:f1} ", px(i), py(value));
  os << "\"/>";
  os << llvm::formatv("<text x=\"4\" y=\"{0:f1}\" font-size=\"11\">{1:f2}x</"
                      "text><text x=\"4\" y=\"{2:f1}\" font-size=\"11\">0</"
                      "text>",
                      py(best) + 4, best, h - bottom);
  os << llvm::formatv("<text x=\"{0:f0}\" y=\"{1:f0}\" font-size=\"11\" "
                      "text-anchor=\"middle\">candidates evaluated ({2})</"
                      "text>",
                      (w + left) / 2, h - 6, bestSoFar.size());
  os << "</svg>\n";
}

void writeDiff(llvm::raw_ostream &os, llvm::StringRef before,
               llvm::StringRef after, llvm::StringRef title) {
  os << "<details><summary>" << escapeHtml(title) << "</summary>";
  std::optional<std::vector<DiffLine>> diff = diffLines(before, after);
  if (!diff) {
    os << "<p>Too many changed lines to diff; the candidate's IR is "
          "above.</p></details>\n";
    return;
  }
  size_t added = 0, removed = 0;
  for (const DiffLine &line : *diff)
    added += line.kind == DiffLine::Added, removed += line.kind == DiffLine::Removed;
  os << llvm::formatv("<p>{0} lines added, {1} removed</p><pre class=\"ir\">",
                      added, removed);
  for (const DiffLine &line : *diff) {
    const char *cls = line.kind == DiffLine::Added     ? "add"
                      : line.kind == DiffLine::Removed ? "del"
                                                       : nullptr;
    char sign = line.kind == DiffLine::Added     ? '+'
                : line.kind == DiffLine::Removed ? '-'
                                                 : ' ';
    if (cls)
      os << "<span class=\"" << cls << "\">";
    os << sign << ' ' << escapeHtml(line.text);
    if (cls)
      os << "</span>";
    os << "\n";
  }
  os << "</pre></details>\n";
}

/// The profile shares ke-run measured for the best node, if it profiled.
void writeProfile(llvm::raw_ostream &os, llvm::StringRef diagnosis) {
  json report = json::parse(diagnosis.str(), nullptr, /*allow_exceptions=*/false);
  if (!report.is_object() || !report.contains("profile") ||
      !report["profile"].is_array() || report["profile"].empty())
    return;
  os << "<h3>Profile of the best candidate</h3><table class=\"summary\">"
        "<tr><th>region</th><th>time (us)</th><th>share</th></tr>";
  for (const json &region : report["profile"]) {
    if (!region.is_object())
      continue;
    double share = numberField(region, "share", 0.0);
    os << llvm::formatv("<tr><td>{0}</td><td>{1:f1}</td><td><span "
                        "class=\"bar\" style=\"width:{2:f0}px\"></span> "
                        "{3:f1}%</td></tr>",
                        escapeHtml(stringField(region, "region", "?")),
                        numberField(region, "time_ns", 0.0) / 1e3, share * 200,
                        share * 100);
  }
  os << "</table>\n";
}

/// The prompt (messages) and reply of the LLM calls behind `nodes`.
void writeLLMCalls(llvm::raw_ostream &os, store::Store &database,
                   const std::vector<store::NodeRecord> &nodes) {
  bool header = false;
  for (const store::NodeRecord &node : nodes) {
    if (!node.llmCall)
      continue;
    auto call = database.getLLMCall(*node.llmCall);
    if (!call || !*call) {
      llvm::consumeError(call.takeError());
      continue;
    }
    if (!header) {
      os << "<h3>LLM calls</h3>\n";
      header = true;
    }
    const store::LLMCallRecord &record = **call;
    os << llvm::formatv("<details data-llm-call=\"{0}\"><summary>node {1}: "
                        "call #{0}, {2} {3}, {4}, {5:f1} s</summary>",
                        record.id, node.id, escapeHtml(record.provider),
                        escapeHtml(record.model), escapeHtml(record.status),
                        record.latencySeconds);
    json request = json::parse(record.request, nullptr, false);
    json messages = request.is_object() && request.contains("messages")
                        ? request["messages"]
                        : request;
    if (messages.is_array()) {
      for (const json &message : messages) {
        if (!message.is_object())
          continue;
        std::string content = stringField(message, "content", "");
        os << "<div class=\"msg\"><span class=\"role\">"
           << escapeHtml(stringField(message, "role", "?"))
           << "</span><pre>" << escapeHtml(redactSecrets(content))
           << "</pre></div>";
      }
    } else {
      os << "<pre>" << escapeHtml(redactSecrets(record.request)) << "</pre>";
    }
    os << "<div class=\"msg\"><span class=\"role\">reply</span><pre>"
       << escapeHtml(redactSecrets(record.response)) << "</pre></div>";
    if (!record.error.empty())
      os << "<p>error: " << escapeHtml(redactSecrets(record.error)) << "</p>";
    os << "</details>\n";
  }
}

std::string formatMicros(std::optional<double> ns) {
  return ns ? llvm::formatv("{0:f1} us", *ns / 1e3).str() : std::string("-");
}

int writeKernel(llvm::raw_ostream &os, store::Store &database,
                const store::RunRecord &run,
                const store::KernelRecord &kernel) {
  auto loaded = database.loadNodes(kernel.id);
  if (!loaded)
    return fail(loaded.takeError());
  const std::vector<store::NodeRecord> &nodes = *loaded;
  const store::NodeRecord *best = store::findBestNode(nodes);
  size_t correct = 0, incorrect = 0, failed = 0;
  for (const store::NodeRecord &node : nodes) {
    correct += node.status == "correct";
    incorrect += node.status == "incorrect";
    failed += node.status == "failed";
  }
  os << llvm::formatv("<section class=\"kernel\" data-run=\"{0}\" "
                      "data-kernel=\"{1}\" data-nodes=\"{2}\">\n",
                      run.id, escapeHtml(kernel.name), nodes.size());
  os << llvm::formatv("<h2>run {0}: {1} <small>({2})</small></h2>\n", run.id,
                      escapeHtml(kernel.name), escapeHtml(kernel.target));
  os << llvm::formatv(
      "<table class=\"summary\"><tr><th>naive</th><td>{0}</td><th>best</th>"
      "<td>{1}</td><th>speedup</th><td>{2}</td></tr><tr><th>evaluated</th>"
      "<td>{3}</td><th>correct</th><td>{4}</td><th>incorrect / "
      "failed</th><td>{5} / {6}</td></tr></table>\n",
      formatMicros(kernel.naiveTimeNs),
      best ? formatMicros(best->timeNs) : std::string("-"),
      best ? llvm::formatv("{0:f2}x", *best->speedup).str() : std::string("-"),
      nodes.size(), correct, incorrect, failed);

  // The nodes' records for the script (hover and click).
  json records = json::array();
  for (const store::NodeRecord &node : nodes) {
    json diagnosis = json::parse(node.diagnosis, nullptr, false);
    records.push_back(
        {{"id", node.id},
         {"parent", node.parent ? json(*node.parent) : json(nullptr)},
         {"proposer", node.proposer},
         {"status", node.status},
         {"strategy", node.strategy},
         {"error", redactSecrets(node.error)},
         {"time_us", node.timeNs ? json(*node.timeNs / 1e3) : json(nullptr)},
         {"speedup", node.speedup && node.status == "correct"
                         ? json(*node.speedup)
                         : json(nullptr)},
         {"llm_call", node.llmCall ? json(*node.llmCall) : json(nullptr)},
         {"diagnosis", diagnosis.is_discarded() ? std::string()
                                                : diagnosis.dump(1)}});
  }
  os << "<script type=\"application/json\" class=\"nodes\">"
     << embedJson(records) << "</script>\n";

  os << "<h3>Search tree</h3><p class=\"legend\"><span>colour: "
        "<b style=\"color:#2e9d57\">correct</b>, <b "
        "style=\"color:#e59b2c\">incorrect</b>, <b "
        "style=\"color:#d2413a\">failed</b></span><span>size: speedup over "
        "naive</span><span>shape: circle library, square LLM, diamond file, "
        "triangle ke's default lowering</span><span>outline: the "
        "best</span></p>\n";
  os << "<div class=\"row\"><div class=\"tree\">";
  writeTree(os, nodes, best);
  os << "</div><div class=\"details\">Hover over or click a node.</div></div>\n";
  os << "<h3>Best speedup over candidates evaluated</h3>\n";
  writeProgress(os, nodes);

  if (best) {
    os << llvm::formatv("<h3>Best candidate: node {0} ({1})</h3><p>{2}</p>\n",
                        best->id, escapeHtml(best->proposer),
                        escapeHtml(best->strategy));
    os << "<pre class=\"ir\">" << escapeHtml(best->payloadIR) << "</pre>\n";
    writeDiff(os, kernel.referenceIR, best->payloadIR,
              "diff against the reference");
    std::string parentIR = kernel.referenceIR;
    std::string parentName = "the reference";
    if (best->parent)
      for (const store::NodeRecord &node : nodes)
        if (node.id == *best->parent) {
          parentIR = node.payloadIR;
          parentName = llvm::formatv("node {0}", node.id).str();
        }
    writeDiff(os, parentIR, best->payloadIR,
              "diff against its parent (" + parentName + ")");
    writeProfile(os, best->diagnosis);
  }
  writeLLMCalls(os, database, nodes);
  os << "</section>\n";
  return 0;
}
} // namespace

std::string ke::report::redactSecrets(llvm::StringRef text) {
  // A value already "[redacted]" starts with '[', which no pattern's value
  // takes: each pattern is applied until it no longer matches.
  static const std::pair<const char *, const char *> patterns[] = {
      {"sk-[A-Za-z0-9_-]{8,}", "[redacted]"},
      {"bearer [A-Za-z0-9._~+/=-]{8,}", "[redacted]"},
      {"(api[_-]?key|x-api-key|authorization)([\"']?[ :=]+[\"']?)"
       "[^][\"' ,}()]{6,}",
       "\\1\\2[redacted]"}};
  std::string result = text.str();
  for (auto [pattern, replacement] : patterns) {
    llvm::Regex regex(pattern, llvm::Regex::IgnoreCase);
    std::string error;
    for (int guard = 0; guard < 1000 && regex.match(result); ++guard)
      result = regex.sub(replacement, result, &error);
  }
  return result;
}

int ke::report::writeHtmlReport(store::Store &database,
                                std::optional<int64_t> run,
                                llvm::raw_ostream &os) {
  std::vector<store::RunRecord> runs;
  if (run) {
    auto resolved = resolveRun(database, run);
    if (!resolved)
      return fail(resolved.takeError());
    runs.push_back(*resolved);
  } else {
    auto all = database.loadRuns();
    if (!all)
      return fail(all.takeError());
    runs = std::move(*all);
  }
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>ke search report</title><style>"
     << kStyle << "</style></head><body>\n";
  os << "<header><h1>ke search report</h1></header><main>\n";
  if (runs.empty())
    os << "<p>The database holds no run.</p>\n";
  for (const store::RunRecord &record : runs) {
    os << llvm::formatv("<p class=\"run\" data-run=\"{0}\"><b>run {0}</b>: "
                        "{1}; options <code>{2}</code></p>\n",
                        record.id, escapeHtml(record.status),
                        escapeHtml(redactSecrets(record.options)));
    auto kernels = database.loadKernels(record.id);
    if (!kernels)
      return fail(kernels.takeError());
    for (const store::KernelRecord &kernel : *kernels)
      if (int status = writeKernel(os, database, record, kernel))
        return status;
  }
  os << "</main><script>" << kScript << "</script></body></html>\n";
  return 0;
}
