//===- LLMCalls.cpp - recorded language-model calls -----------------------===//
//
// Every call is kept: the request (messages only, never a credential), the
// reply, its usage and latency. Replay answers from here.
//
//===----------------------------------------------------------------------===//

#include "Statement.h"
#include "ke/Store/Store.h"

using namespace ke::store;
using detail::Statement;

namespace {
LLMCallRecord readCall(Statement &select) {
  LLMCallRecord call;
  call.id = select.getInt(0);
  if (!select.isNull(1))
    call.run = select.getInt(1);
  call.key = select.getText(2);
  call.provider = select.getText(3);
  call.model = select.getText(4);
  call.request = select.getText(5);
  call.response = select.getText(6);
  call.status = select.getText(7);
  call.error = select.getText(8);
  if (!select.isNull(9))
    call.promptTokens = select.getInt(9);
  if (!select.isNull(10))
    call.completionTokens = select.getInt(10);
  call.latencySeconds = select.getDouble(11);
  call.attempts = static_cast<int>(select.getInt(12));
  call.created = select.getDouble(13);
  call.finishReason = select.getText(14);
  return call;
}

/// Every row `select` yields.
std::optional<std::vector<LLMCallRecord>> readAllCalls(Statement &select) {
  std::vector<LLMCallRecord> calls;
  int status;
  while ((status = select.step()) == SQLITE_ROW)
    calls.push_back(readCall(select));
  if (status != SQLITE_DONE)
    return std::nullopt;
  return calls;
}

constexpr const char *kCallColumns =
    "id, run, key, provider, model, request, response, status, error, "
    "prompt_tokens, completion_tokens, latency_s, attempts, created, "
    "finish_reason";
} // namespace

llvm::Expected<int64_t> Store::addLLMCall(const LLMCallRecord &call) {
  Statement insert(database,
                   "INSERT INTO llm_calls(run, key, provider, model, request, "
                   "response, status, error, prompt_tokens, completion_tokens, "
                   "latency_s, attempts, created, finish_reason) VALUES "
                   "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  insert.bind(1, call.run);
  insert.bind(2, call.key);
  insert.bind(3, call.provider);
  insert.bind(4, call.model);
  insert.bind(5, call.request);
  insert.bind(6, call.response);
  insert.bind(7, call.status);
  insert.bind(8, call.error);
  insert.bind(9, call.promptTokens);
  insert.bind(10, call.completionTokens);
  insert.bind(11, call.latencySeconds);
  insert.bind(12, static_cast<int64_t>(call.attempts));
  insert.bind(13, call.created > 0 ? call.created : detail::now());
  insert.bind(14, call.finishReason);
  if (!insert.ok() || insert.step() != SQLITE_DONE)
    return fail("cannot record an LLM call");
  return sqlite3_last_insert_rowid(database);
}

llvm::Expected<std::vector<LLMCallRecord>>
Store::findLLMCalls(llvm::StringRef key, bool withErrors) {
  Statement select(database, std::string("SELECT ") + kCallColumns +
                                 " FROM llm_calls WHERE key = ?" +
                                 (withErrors ? "" : " AND status = 'ok'") +
                                 " ORDER BY id");
  select.bind(1, key);
  std::optional<std::vector<LLMCallRecord>> calls;
  if (!select.ok() || !(calls = readAllCalls(select)))
    return fail("cannot read LLM calls");
  return std::move(*calls);
}

llvm::Expected<std::optional<LLMCallRecord>> Store::getLLMCall(int64_t id) {
  Statement select(database, std::string("SELECT ") + kCallColumns +
                                 " FROM llm_calls WHERE id = ?");
  select.bind(1, id);
  if (!select.ok())
    return fail("cannot read LLM calls");
  int status = select.step();
  if (status == SQLITE_ROW)
    return std::optional<LLMCallRecord>(readCall(select));
  if (status != SQLITE_DONE)
    return fail("cannot read LLM calls");
  return std::optional<LLMCallRecord>();
}

llvm::Expected<std::vector<LLMCallRecord>> Store::loadLLMCalls() {
  Statement select(database, std::string("SELECT ") + kCallColumns +
                                 " FROM llm_calls ORDER BY id");
  std::optional<std::vector<LLMCallRecord>> calls;
  if (!select.ok() || !(calls = readAllCalls(select)))
    return fail("cannot read LLM calls");
  return std::move(*calls);
}
