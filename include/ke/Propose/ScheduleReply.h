//===- ScheduleReply.h - an LLM's choice of schedule, as JSON ---*- C++ -*-===//
//
// The schedule reply form: instead of writing IR, the model chooses the
// knobs of the transform library's schedule for each op (cache and register
// tiles, vectorization, threads, unrolling, fusion, fast math) as one JSON
// object. The JSON schema lists the valid values of every knob, so servers
// that constrain decoding to it (OpenAI's response_format, vLLM, llama.cpp,
// Ollama) always return a parseable choice; what the schema cannot say
// (a register tile within its cache tile, the vector size limit) is brought
// to the nearest valid value, and said. The schedule is then built through
// the library's own path.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_SCHEDULEREPLY_H
#define KE_PROPOSE_SCHEDULEREPLY_H

#include "ke/Propose/Schedule.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ke::propose {

/// The JSON schema of a reply for these ops (as text).
std::string buildScheduleSchema(llvm::ArrayRef<OpShape> shapes,
                                unsigned threads);

/// For the prompt: each op with its loops, their trip counts and kinds,
/// and every knob's valid values.
std::string describeScheduleSpace(llvm::ArrayRef<OpShape> shapes,
                                  unsigned threads);

/// A literal reply for these ops (ke's default schedule), for the prompt.
std::string renderScheduleSkeleton(llvm::ArrayRef<OpShape> shapes);

/// `schedule` in the reply's JSON form (for the measured history).
std::string scheduleToReplyJSON(const Schedule &schedule);

struct ScheduleReply {
  Schedule schedule;
  std::string explanation;
  /// Values brought to the nearest valid one ("op #1 register[2]: 48 -> 32").
  std::vector<std::string> adjustments;
};

/// Reads a reply: a JSON object, bare or in a fenced block, possibly with
/// text around it. Missing knobs take their neutral value; invalid ones the
/// nearest valid value. Fails only when there is no JSON object with "ops".
llvm::Expected<ScheduleReply> parseScheduleReply(llvm::StringRef text,
                                                 llvm::ArrayRef<OpShape> shapes,
                                                 unsigned threads);

} // namespace ke::propose

#endif // KE_PROPOSE_SCHEDULEREPLY_H
