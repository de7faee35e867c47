//===- ScheduleReply.cpp - an LLM's choice of schedule, as JSON -----------===//

#include "ke/Propose/ScheduleReply.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace ke::propose;
namespace json = llvm::json;

namespace {
/// Cache tiles of a loop of `bound` iterations: none (0) or a proper
/// divisor, at most 12 of them (powers of two first, then the largest).
llvm::SmallVector<int64_t> cacheChoices(int64_t bound) {
  llvm::SmallVector<int64_t> divisors;
  for (int64_t d = 2; d < bound; ++d)
    if (bound % d == 0)
      divisors.push_back(d);
  llvm::SmallVector<int64_t> chosen;
  for (int64_t d : divisors)
    if (llvm::isPowerOf2_64(d) && chosen.size() < 9)
      chosen.push_back(d);
  for (auto it = divisors.rbegin(); it != divisors.rend() && chosen.size() < 12;
       ++it)
    if (!llvm::is_contained(chosen, *it))
      chosen.push_back(*it);
  llvm::sort(chosen);
  chosen.insert(chosen.begin(), 0);
  return chosen;
}

/// Register tiles: none (0), 1, or a power of two up to 64 dividing `bound`.
llvm::SmallVector<int64_t> registerChoices(int64_t bound) {
  llvm::SmallVector<int64_t> choices = {0, 1};
  for (int64_t d = 2; d <= 64 && d <= bound; d *= 2)
    if (bound % d == 0)
      choices.push_back(d);
  return choices;
}

/// Fusion: none, or rows of the last op's first (parallel) loop.
llvm::SmallVector<int64_t> fuseChoices(llvm::ArrayRef<OpShape> shapes) {
  llvm::SmallVector<int64_t> choices = {0};
  if (shapes.size() < 2 || shapes.back().bounds.empty() ||
      shapes.back().isReduction[0])
    return choices;
  for (int64_t d : cacheChoices(shapes.back().bounds[0]))
    if (d)
      choices.push_back(d);
  return choices;
}

bool canRunOnThreads(const OpShape &shape, unsigned threads) {
  return threads > 1 && shape.hasParallelLoops();
}

bool hasMath(llvm::ArrayRef<OpShape> shapes) {
  return llvm::any_of(shapes, [](const OpShape &s) { return s.hasMath; });
}

/// The valid value nearest to `value` (ties: the smaller).
int64_t nearest(llvm::ArrayRef<int64_t> choices, int64_t value) {
  int64_t best = choices.front();
  for (int64_t choice : choices)
    if (std::llabs(choice - value) < std::llabs(best - value))
      best = choice;
  return best;
}

json::Array enumOf(llvm::ArrayRef<int64_t> values) {
  json::Array list;
  for (int64_t v : values)
    list.push_back(v);
  return list;
}

/// A fixed-length array whose item i is one of `choices(i)`.
json::Object tupleSchema(size_t length,
                         llvm::function_ref<json::Array(size_t)> choices) {
  json::Array items;
  for (size_t i = 0; i < length; ++i)
    items.push_back(json::Object{{"enum", choices(i)}});
  return json::Object{{"type", "array"},
                      {"minItems", static_cast<int64_t>(length)},
                      {"maxItems", static_cast<int64_t>(length)},
                      {"prefixItems", std::move(items)},
                      {"items", false}};
}

/// The loop the default schedule vectorizes along.
std::optional<unsigned> findVectorLoop(const OpShape &shape) {
  for (unsigned loop : shape.contiguousLoops)
    if (shape.bounds[loop] % 8 == 0)
      return loop;
  return std::nullopt;
}

std::string joinValues(llvm::ArrayRef<int64_t> values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(values, os, ", ");
  return text;
}
} // namespace

std::string ke::propose::buildScheduleSchema(llvm::ArrayRef<OpShape> shapes,
                                             unsigned threads) {
  json::Array ops;
  for (const OpShape &shape : shapes) {
    size_t loops = shape.bounds.size();
    bool vector = canVectorize(shape);
    ops.push_back(json::Object{
        {"type", "object"},
        {"properties",
         json::Object{
             {"cache", tupleSchema(loops,
                                   [&](size_t loop) {
                                     return enumOf(
                                         cacheChoices(shape.bounds[loop]));
                                   })},
             {"register", tupleSchema(loops,
                                      [&](size_t loop) {
                                        return enumOf(registerChoices(
                                            shape.bounds[loop]));
                                      })},
             {"vectorize", vector ? json::Object{{"type", "boolean"}}
                                  : json::Object{{"enum", json::Array{false}}}},
             {"parallel", canRunOnThreads(shape, threads)
                              ? json::Object{{"type", "boolean"}}
                              : json::Object{{"enum", json::Array{false}}}},
             {"unroll", json::Object{{"enum", json::Array{1, 2, 4, 8}}}}}},
        {"required",
         json::Array{"cache", "register", "vectorize", "parallel", "unroll"}},
        {"additionalProperties", false}});
  }
  json::Array math{"exact"};
  if (hasMath(shapes))
    math.push_back("approx");
  json::Object schema{
      {"type", "object"},
      {"properties",
       json::Object{
           {"explanation",
            json::Object{{"type", "string"}, {"maxLength", 200}}},
           {"ops", json::Object{{"type", "array"},
                                {"minItems", static_cast<int64_t>(shapes.size())},
                                {"maxItems", static_cast<int64_t>(shapes.size())},
                                {"prefixItems", std::move(ops)},
                                {"items", false}}},
           {"fuse", json::Object{{"enum", enumOf(fuseChoices(shapes))}}},
           {"math", json::Object{{"enum", std::move(math)}}}}},
      {"required", json::Array{"explanation", "ops", "fuse", "math"}},
      {"additionalProperties", false}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(schema));
  return text;
}

std::string ke::propose::describeScheduleSpace(llvm::ArrayRef<OpShape> shapes,
                                               unsigned threads) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (auto [index, shape] : llvm::enumerate(shapes)) {
    os << llvm::formatv("- ops[{0}]: {1}, loops", index, shape.name);
    for (auto [loop, bound] : llvm::enumerate(shape.bounds))
      os << llvm::formatv(" d{0}={1} ({2})", loop, bound,
                          shape.isReduction[loop] ? "reduction" : "parallel");
    os << "\n";
    for (auto [loop, bound] : llvm::enumerate(shape.bounds))
      os << llvm::formatv("  cache[{0}] in {{{1}}; register[{0}] in {{{2}}\n",
                          loop, joinValues(cacheChoices(bound)),
                          joinValues(registerChoices(bound)));
    os << "  vectorize: "
       << (canVectorize(shape) ? "true or false" : "false (not vectorizable)")
       << "; parallel: "
       << (canRunOnThreads(shape, threads) ? "true or false" : "false")
       << "; unroll in {1, 2, 4, 8}\n";
  }
  os << "- fuse in {" << joinValues(fuseChoices(shapes))
     << "}: rows of the last op's first loop, its producers fused in\n";
  os << "- math in {" << (hasMath(shapes) ? "exact, approx" : "exact")
     << "}: approx uses polynomial exp/tanh (they vectorize)\n";
  return text;
}

std::string ke::propose::scheduleToReplyJSON(const Schedule &schedule) {
  json::Array ops;
  for (const OpSchedule &op : schedule.ops) {
    json::Array cache, reg;
    for (int64_t v : op.cacheTiles)
      cache.push_back(v);
    for (int64_t v : op.registerTiles)
      reg.push_back(v);
    ops.push_back(json::Object{{"cache", std::move(cache)},
                               {"register", std::move(reg)},
                               {"vectorize", op.vectorize},
                               {"parallel", op.parallel},
                               {"unroll", op.unroll}});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(json::Object{
      {"ops", std::move(ops)},
      {"fuse", schedule.fuseRows},
      {"math", schedule.approximateMath ? "approx" : "exact"}});
  return text;
}

std::string ke::propose::renderScheduleSkeleton(llvm::ArrayRef<OpShape> shapes) {
  json::Array ops;
  for (const OpShape &shape : shapes) {
    size_t loops = shape.bounds.size();
    std::optional<unsigned> vectorLoop = findVectorLoop(shape);
    bool vector = vectorLoop && canVectorize(shape);
    json::Array cache, reg;
    for (size_t loop = 0; loop < loops; ++loop) {
      cache.push_back(0);
      reg.push_back(vector ? (loop == *vectorLoop ? 8 : 1) : 0);
    }
    ops.push_back(json::Object{{"cache", std::move(cache)},
                               {"register", std::move(reg)},
                               {"vectorize", vector},
                               {"parallel", false},
                               {"unroll", 1}});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(json::Object{
      {"explanation", "why this schedule, in one sentence"},
      {"ops", std::move(ops)},
      {"fuse", 0},
      {"math", "exact"}});
  return text;
}

namespace {
/// The first balanced {...} of `text` that parses as JSON.
std::optional<json::Value> findJsonObject(llvm::StringRef text) {
  for (size_t start = text.find('{'); start != llvm::StringRef::npos;
       start = text.find('{', start + 1)) {
    int depth = 0;
    bool inString = false, escaped = false;
    for (size_t i = start; i < text.size(); ++i) {
      char c = text[i];
      if (inString) {
        if (escaped)
          escaped = false;
        else if (c == '\\')
          escaped = true;
        else if (c == '"')
          inString = false;
        continue;
      }
      if (c == '"')
        inString = true;
      else if (c == '{')
        ++depth;
      else if (c == '}' && --depth == 0) {
        llvm::Expected<json::Value> value =
            json::parse(text.slice(start, i + 1));
        if (value && value->getAsObject())
          return std::move(*value);
        llvm::consumeError(value.takeError());
        break;
      }
    }
  }
  return std::nullopt;
}

int64_t readInteger(const json::Value *value, int64_t fallback) {
  if (!value)
    return fallback;
  if (std::optional<int64_t> integer = value->getAsInteger())
    return *integer;
  if (std::optional<double> number = value->getAsNumber())
    return static_cast<int64_t>(*number);
  return fallback;
}

/// Whether op `index` of `schedule` passes the verifier on its own.
bool verifiesAlone(const Schedule &schedule, llvm::ArrayRef<OpShape> shapes,
                   size_t index, std::string &problem) {
  Schedule alone;
  alone.fuseRows = schedule.fuseRows;
  for (size_t i = 0; i < shapes.size(); ++i)
    alone.ops.push_back(i == index ? schedule.ops[i] : OpSchedule());
  if (llvm::Error error = verifySchedule(alone, shapes)) {
    problem = llvm::toString(std::move(error));
    return false;
  }
  return true;
}
} // namespace

llvm::Expected<ScheduleReply>
ke::propose::parseScheduleReply(llvm::StringRef text,
                                llvm::ArrayRef<OpShape> shapes,
                                unsigned threads) {
  std::optional<json::Value> value = findJsonObject(text);
  const json::Object *object = value ? value->getAsObject() : nullptr;
  const json::Array *ops = object ? object->getArray("ops") : nullptr;
  if (!ops)
    return llvm::createStringError(
        "the reply has no JSON object with \"ops\" (one entry per op)");
  ScheduleReply reply;
  if (std::optional<llvm::StringRef> explanation =
          object->getString("explanation"))
    reply.explanation = explanation->str();
  auto adjust = [&](const llvm::Twine &what) {
    reply.adjustments.push_back(what.str());
  };
  if (ops->size() != shapes.size())
    adjust(llvm::formatv("{0} ops given for {1}: missing ones get none, extra "
                         "ones are dropped",
                         ops->size(), shapes.size()));
  Schedule &schedule = reply.schedule;
  for (auto [index, shape] : llvm::enumerate(shapes)) {
    OpSchedule op;
    const json::Object *entry =
        index < ops->size() ? (*ops)[index].getAsObject() : nullptr;
    size_t loops = shape.bounds.size();
    auto readTiles = [&](llvm::StringRef key,
                         llvm::function_ref<llvm::SmallVector<int64_t>(
                             int64_t bound, size_t loop)>
                             choices) {
      llvm::SmallVector<int64_t> tiles(loops, 0);
      const json::Array *given = entry ? entry->getArray(key) : nullptr;
      for (size_t loop = 0; loop < loops; ++loop) {
        int64_t wanted =
            given && loop < given->size() ? readInteger(&(*given)[loop], 0) : 0;
        int64_t valid = nearest(choices(shape.bounds[loop], loop), wanted);
        if (valid != wanted)
          adjust(llvm::formatv("ops[{0}].{1}[{2}]: {3} -> {4}", index, key,
                               loop, wanted, valid));
        tiles[loop] = valid;
      }
      return tiles;
    };
    op.cacheTiles = readTiles(
        "cache", [](int64_t bound, size_t) { return cacheChoices(bound); });
    // A register tile divides what its loop has left: the cache tile, else
    // the whole loop.
    op.registerTiles = readTiles("register", [&](int64_t bound, size_t loop) {
      int64_t outer = op.cacheTiles[loop] ? op.cacheTiles[loop] : bound;
      return registerChoices(outer);
    });
    if (llvm::all_of(op.cacheTiles, [](int64_t s) { return s == 0; }))
      op.cacheTiles.clear();
    if (llvm::all_of(op.registerTiles, [](int64_t s) { return s == 0; }))
      op.registerTiles.clear();
    std::optional<bool> vectorize =
        entry ? entry->getBoolean("vectorize") : std::nullopt;
    op.vectorize = vectorize.value_or(false) && canVectorize(shape);
    if (vectorize.value_or(false) && !op.vectorize)
      adjust(llvm::formatv("ops[{0}].vectorize: {1} is not vectorized", index,
                           shape.name));
    if (op.vectorize && op.registerTiles.empty()) {
      // The whole op as one vector is never what is meant: ke's default
      // register tile instead.
      if (std::optional<unsigned> loop = findVectorLoop(shape)) {
        for (size_t l = 0; l < loops; ++l)
          op.registerTiles.push_back(l == *loop ? 8 : 1);
        adjust(llvm::formatv("ops[{0}].register: none -> ke's default to "
                             "vectorize",
                             index));
      }
    }
    std::optional<bool> parallel =
        entry ? entry->getBoolean("parallel") : std::nullopt;
    op.parallel = parallel.value_or(false) &&
                  canRunOnThreads(shape, threads) && !op.cacheTiles.empty();
    int64_t unroll = readInteger(entry ? entry->get("unroll") : nullptr, 1);
    op.unroll = nearest({1, 2, 4, 8}, unroll);
    if (op.registerTiles.empty())
      op.unroll = 1;
    schedule.ops.push_back(std::move(op));
  }
  int64_t fuse = readInteger(object->get("fuse"), 0);
  schedule.fuseRows = nearest(fuseChoices(shapes), fuse);
  if (schedule.fuseRows &&
      llvm::any_of(schedule.ops,
                   [](const OpSchedule &op) { return !op.cacheTiles.empty(); })) {
    adjust("fuse dropped: the ops have cache tiles of their own");
    schedule.fuseRows = 0;
  }
  std::optional<llvm::StringRef> math = object->getString("math");
  schedule.approximateMath = math && *math == "approx" && hasMath(shapes);

  // What the schema cannot say (vector sizes, convolution windows): each op
  // is checked alone; register tiles are halved until it verifies, or the
  // op gets no schedule.
  for (size_t index = 0; index < shapes.size(); ++index) {
    OpSchedule &op = schedule.ops[index];
    std::string problem;
    for (int round = 0; round < 12 && !verifiesAlone(schedule, shapes, index,
                                                     problem);
         ++round) {
      auto largest = llvm::max_element(op.registerTiles);
      if (op.registerTiles.empty() || *largest <= 1) {
        adjust(llvm::formatv("ops[{0}]: no schedule ({1})", index, problem));
        op = OpSchedule();
        break;
      }
      *largest /= 2;
      adjust(llvm::formatv("ops[{0}].register halved ({1})", index, problem));
    }
    if (!verifiesAlone(schedule, shapes, index, problem)) {
      adjust(llvm::formatv("ops[{0}]: no schedule ({1})", index, problem));
      op = OpSchedule();
    }
  }
  if (llvm::Error error = verifySchedule(schedule, shapes)) {
    adjust("fuse dropped: " + llvm::toString(std::move(error)));
    schedule.fuseRows = 0;
  }
  return reply;
}
