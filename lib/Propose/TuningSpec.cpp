//===- TuningSpec.cpp - schedules as a transform-dialect tuning spec ------===//

#include "ke/Propose/TuningSpec.h"
#include "ScheduleDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ke::propose;

namespace {
/// Whether the body is `yield(add(out, mul(a, b)))` on floats: the
/// contraction upstream's body matcher recognizes.
bool hasFloatMultiplyAddBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getOperations().size() != 3)
    return false;
  auto it = body->begin();
  return isa<arith::MulFOp>(*it++) && isa<arith::AddFOp>(*it++);
}

/// An entry that changes nothing: no tiles, no vectorization.
bool isNeutral(const OpSchedule &entry) {
  auto none = [](llvm::ArrayRef<int64_t> sizes) {
    return llvm::all_of(sizes, [](int64_t s) { return s == 0; });
  };
  return none(entry.cacheTiles) && none(entry.registerTiles) &&
         !entry.vectorize && !entry.hasSplitReduction();
}

/// `@name` made of the kernel's name and the op's index, as a symbol.
std::string symbolFor(llvm::StringRef prefix, llvm::StringRef kernel,
                      size_t index) {
  std::string name = (prefix + "_" + kernel).str();
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return llvm::formatv("{0}_op{1}", name, index).str();
}

/// `%<name> == value` inside a structured matcher.
void renderParamCheck(llvm::raw_ostream &os, llvm::StringRef name,
                      llvm::StringRef producer, int64_t value) {
  os << "      %" << name << " = " << producer
     << " : (!transform.any_op) -> !transform.param<i64>\n"
     << "      %" << name << "_expected = transform.param.constant " << value
     << " : i64 -> !transform.param<i64>\n"
     << "      transform.match.param.cmpi eq %" << name << ", %" << name
     << "_expected : !transform.param<i64>\n";
}

/// The bit width of an operand's elements (i1 counts as 1).
int64_t elementBits(Value value) {
  return getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
}

void renderMatcher(llvm::raw_ostream &os, llvm::StringRef symbol,
                   linalg::LinalgOp op) {
  os << "  // " << op->getName() << " with loops [";
  llvm::interleaveComma(op.getStaticLoopRanges(), os);
  os << "]\n";
  os << "  transform.named_sequence @" << symbol
     << "(%op: !transform.any_op {transform.readonly}) -> !transform.any_op "
        "{\n"
     << "    transform.match.operation_name %op [\"" << op->getName()
     << "\"] : !transform.any_op\n"
     << "    transform.match.structured %op : !transform.any_op {\n"
     << "    ^bb0(%s: !transform.any_op):\n";
  renderParamCheck(os, "rank", "transform.match.structured.rank %s",
                   op.getNumLoops());
  for (auto [loop, bound] : llvm::enumerate(op.getStaticLoopRanges()))
    renderParamCheck(os, llvm::formatv("dim{0}", loop).str(),
                     llvm::formatv("transform.match.structured.dim %s[{0}]",
                                   loop)
                         .str(),
                     bound);
  renderParamCheck(os, "inputs", "transform.match.structured.num_inputs %s",
                   op.getNumDpsInputs());
  renderParamCheck(os, "inits", "transform.match.structured.num_inits %s",
                   op.getNumDpsInits());
  auto renderOperand = [&](llvm::StringRef kind, int64_t index, Value value) {
    std::string name = llvm::formatv("{0}{1}", kind, index).str();
    os << "      %" << name << " = transform.match.structured." << kind
       << " %s[" << index
       << "] : (!transform.any_op) -> !transform.any_value\n"
       << "      %" << name
       << "_bits = transform.match.structured.elemental_bitwidth %" << name
       << " : (!transform.any_value) -> !transform.param<i64>\n"
       << "      %" << name << "_bits_expected = transform.param.constant "
       << elementBits(value) << " : i64 -> !transform.param<i64>\n"
       << "      transform.match.param.cmpi eq %" << name << "_bits, %" << name
       << "_bits_expected : !transform.param<i64>\n";
  };
  // Operands are numbered within their kind, as the matchers take them.
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands()))
    renderOperand("input", index, input->get());
  for (auto [index, init] : llvm::enumerate(op.getDpsInitsMutable()))
    renderOperand("init", index, init.get());
  if (hasFloatMultiplyAddBody(op))
    os << "      transform.match.structured.body %s {contraction = "
          "[\"arith.mulf\", \"arith.addf\"]} : !transform.any_op\n";
  os << "      transform.match.structured.yield\n"
     << "    }\n"
     << "    transform.yield %op : !transform.any_op\n"
     << "  }\n";
}

void renderAction(llvm::raw_ostream &os, llvm::StringRef symbol,
                  const OpSchedule &entry, const OpShape &shape) {
  os << "  transform.named_sequence @" << symbol
     << "(%op: !transform.any_op {transform.readonly}) -> !transform.any_op "
        "{\n"
     << "    %func = transform.get_parent_op %op {isolated_from_above} : "
        "(!transform.any_op) -> !transform.any_op\n"
     // The steps consume a handle to the op, not the matcher's argument
     // (which foreach_match hands over read-only).
     << "    %target = transform.cast %op : !transform.any_op to "
        "!transform.any_op\n";
  ke::propose::detail::renderOpSteps(os, entry, &shape, "%target", 0);
  os << "    transform.yield %func : !transform.any_op\n"
     << "  }\n";
}
} // namespace

std::string
ke::propose::renderTuningSpec(llvm::ArrayRef<TuningSpecEntry> entries,
                              std::vector<std::string> &notes) {
  std::string body;
  llvm::raw_string_ostream os(body);
  llvm::SmallVector<std::pair<std::string, std::string>> pairs;
  for (const TuningSpecEntry &entry : entries) {
    const Schedule &schedule = entry.schedule;
    if (schedule.fuseRows)
      notes.push_back(entry.kernel + ": tile-and-fuse (fuse=" +
                      std::to_string(schedule.fuseRows) +
                      ") left out: each op gets its own entry");
    if (schedule.approximateMath)
      notes.push_back(entry.kernel +
                      ": polynomial math left out (ke-approximate-math is a "
                      "ke pass, not upstream)");
    func::FuncOp payload = entry.payload;
    llvm::SmallVector<linalg::LinalgOp> ops;
    payload.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    std::vector<OpShape> shapes = describeOps(payload);
    for (auto [index, op] : llvm::enumerate(ops)) {
      if (index >= schedule.ops.size() || index >= shapes.size())
        break;
      const OpSchedule &opEntry = schedule.ops[index];
      if (!opEntry.layouts.empty())
        notes.push_back(llvm::formatv("{0}: op #{1} ({2}): its inputs' "
                                      "relayout left out, its tiling kept",
                                      entry.kernel, index, shapes[index].name)
                            .str());
      if (isNeutral(opEntry))
        continue;
      std::string matcher = symbolFor("ke_match", entry.kernel, index);
      std::string action = symbolFor("ke_apply", entry.kernel, index);
      os << "  // " << entry.kernel << ", op #" << index << ": "
         << schedule.toString() << "\n";
      renderMatcher(os, matcher, op);
      renderAction(os, action, opEntry, shapes[index]);
      pairs.emplace_back(matcher, action);
    }
  }

  std::string text;
  llvm::raw_string_ostream out(text);
  out << "// A ke tuning spec: the best schedules of a search, applied by\n"
         "//   mlir-opt --transform-preload-library=transform-library-paths="
         "<this file> \\\n"
         "//            --transform-interpreter=entry-point=__kernel_config\n"
         "// to every linalg op of the same name, loops, trip counts and "
         "operand widths.\n";
  for (const std::string &note : notes)
    out << "// note: " << note << "\n";
  out << "module attributes {transform.with_named_sequence} {\n" << body;
  out << "  transform.named_sequence @__kernel_config(%root: "
         "!transform.any_op {transform.consumed}) -> !transform.any_op {\n";
  if (pairs.empty()) {
    out << "    transform.yield %root : !transform.any_op\n  }\n}\n";
    return text;
  }
  out << "    %updated, %funcs = transform.foreach_match in %root\n";
  for (auto [i, pair] : llvm::enumerate(pairs))
    out << "        @" << pair.first << " -> @" << pair.second
        << (i + 1 < pairs.size() ? ",\n" : "\n");
  out << "      : (!transform.any_op) -> (!transform.any_op, "
         "!transform.any_op)\n"
      << "    %func = transform.merge_handles %funcs {deduplicate} : "
         "!transform.any_op\n";
  ke::propose::detail::renderFunctionCleanup(out, "%func");
  out << "    transform.yield %updated : !transform.any_op\n  }\n}\n";
  return text;
}
