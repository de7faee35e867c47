//===- SubprocessEvaluator.cpp - ke-run processes, isolated ---------------===//

#include "ke/Eval/Evaluator.h"

#include "ke/Eval/EvaluationReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <chrono>
#include <csignal>
#include <thread>

using namespace ke::eval;

Evaluator::~Evaluator() = default;

std::optional<std::string> ke::eval::findKeRun(const char *argv0) {
  if (const char *explicitPath = std::getenv("KE_RUN"))
    return std::string(explicitPath);
  static int anchor;
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0 ? argv0 : "ke-opt", reinterpret_cast<void *>(&anchor));
  if (!self.empty()) {
    llvm::SmallString<256> sibling(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(sibling, "ke-run");
    if (llvm::sys::fs::can_execute(sibling))
      return std::string(sibling);
  }
  if (auto onPath = llvm::sys::findProgramByName("ke-run"))
    return *onPath;
  return std::nullopt;
}

std::string ke::eval::readWholeFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

EvaluationResult SubprocessEvaluator::interpret(int exitCode,
                                                const std::string &waitError,
                                                const std::string &report,
                                                const std::string &errors,
                                                const std::string &output) {
  EvaluationResult result;
  // ke-run writes exactly one JSON line for the one kernel asked for.
  llvm::StringRef line = llvm::StringRef(report).trim().split('\n').first;
  if (!line.empty()) {
    result.json = line.str();
    llvm::Expected<EvaluationReport> parsed = EvaluationReport::parse(line);
    if (parsed) {
      if (parsed->correct && !parsed->implausibleTiming.empty()) {
        // Correct results, but a time no real run of the kernel gives: it
        // must not become the best.
        result.status = "failed";
        result.error = "timing: " + parsed->implausibleTiming;
        return result;
      }
      if (parsed->correct) {
        result.status = "correct";
        result.timeNs = parsed->getMedianNs();
        return result;
      }
      result.error = parsed->error.empty() ? "not correct" : parsed->error;
      result.status = llvm::StringRef(result.error).starts_with("compare:")
                          ? "incorrect"
                          : "failed";
      return result;
    }
    llvm::consumeError(parsed.takeError());
  }
  // No usable JSON: the process died or was killed. What it printed is kept
  // (truncated) as the diagnosis.
  result.status = "failed";
  std::string tail = llvm::StringRef(errors).trim().take_back(400).str();
  if (tail.empty())
    tail = llvm::StringRef(output).trim().take_back(400).str();
  if (!waitError.empty())
    result.error = "ke-run: " + waitError;
  else
    result.error = llvm::formatv("ke-run exited with status {0}", exitCode);
  if (!tail.empty())
    result.error += ": " + tail;
  return result;
}

std::vector<std::string> SubprocessEvaluator::buildArguments(
    const SubprocessEvaluatorOptions &options,
    const EvaluationRequest &request, llvm::StringRef reportPath) {
  std::vector<std::string> arguments = {
      options.keRunPath,
      request.candidatePath,
      "--reference=" + request.referencePath,
      "--kernel=" + request.kernel,
      "--target=" + options.target,
      "--report=" + reportPath.str(),
      "--threads=" + std::to_string(options.threads),
      "--seed=" + std::to_string(options.seed),
      "--seeds=" + std::to_string(options.seeds),
      llvm::formatv("--min-time={0}", options.minTimeSeconds).str(),
      "--timeout=" + std::to_string(options.timeoutSeconds),
      // ke-run bounds its own memory once loaded, and reports running
      // out of it; a limit set at exec would stop the loader instead.
      "--memory-limit=" + std::to_string(options.memoryLimitMB)};
  if (request.naive)
    arguments.push_back("--naive");
  if (options.profile)
    arguments.push_back("--profile");
  if (!options.referenceCache.empty())
    arguments.push_back("--reference-cache=" + options.referenceCache);
  if (!options.expectedFile.empty())
    arguments.push_back("--expected=" + options.expectedFile);
  return arguments;
}

std::vector<EvaluationResult>
SubprocessEvaluator::evaluate(llvm::ArrayRef<EvaluationRequest> requests) {
  using Clock = std::chrono::steady_clock;
  struct Running {
    size_t request;
    llvm::sys::ProcessInfo process;
    Clock::time_point started;
    std::string stdoutPath, stderrPath, reportPath;
    bool killed = false;
  };
  std::vector<EvaluationResult> results(requests.size());
  std::vector<Running> running;
  size_t next = 0;
  unsigned workers = std::max(1u, options.workers);
  // The process gets a margin over ke-run's own per-kernel alarm, which
  // normally reports a hang itself; the kill is for what the alarm misses.
  auto hardLimit = std::chrono::seconds(options.timeoutSeconds + 30);

  auto launch = [&](size_t index) {
    const EvaluationRequest &request = requests[index];
    Running job;
    job.request = index;
    job.stdoutPath =
        llvm::formatv("{0}/eval-{1}.out", options.workDirectory,
                      request.kernel + "-" + std::to_string(index));
    job.stderrPath =
        llvm::formatv("{0}/eval-{1}.err", options.workDirectory,
                      request.kernel + "-" + std::to_string(index));
    // The verdict comes from a file only ke-run writes: the candidate's own
    // stdout (vector.print, printf) can hold anything, JSON included.
    job.reportPath =
        llvm::formatv("{0}/eval-{1}.report", options.workDirectory,
                      request.kernel + "-" + std::to_string(index));
    // Redirection opens without truncating: a shorter output would leave
    // the tail of an earlier evaluation's behind it.
    llvm::sys::fs::remove(job.stdoutPath);
    llvm::sys::fs::remove(job.stderrPath);
    llvm::sys::fs::remove(job.reportPath);
    std::vector<std::string> arguments =
        buildArguments(options, request, job.reportPath);
    llvm::SmallVector<llvm::StringRef> argumentRefs(arguments.begin(),
                                                    arguments.end());
    std::optional<llvm::StringRef> redirects[] = {
        llvm::StringRef(""), llvm::StringRef(job.stdoutPath),
        llvm::StringRef(job.stderrPath)};
    std::string launchError;
    bool failedToStart = false;
    job.process = llvm::sys::ExecuteNoWait(
        options.keRunPath, argumentRefs, std::nullopt, redirects,
        /*MemoryLimit=*/0, &launchError, &failedToStart);
    job.started = Clock::now();
    if (failedToStart) {
      results[index].status = "failed";
      results[index].error = "cannot start ke-run: " + launchError;
      return;
    }
    running.push_back(std::move(job));
  };

  while (next < requests.size() || !running.empty()) {
    while (next < requests.size() && running.size() < workers)
      launch(next++);
    bool progressed = false;
    for (size_t i = 0; i < running.size();) {
      Running &job = running[i];
      std::string waitError;
      llvm::sys::ProcessInfo status =
          llvm::sys::Wait(job.process, /*SecondsToWait=*/0, &waitError);
      if (status.Pid == 0) {
        if (!job.killed && Clock::now() - job.started > hardLimit) {
          ::kill(job.process.Pid, SIGKILL);
          job.killed = true;
        }
        ++i;
        continue;
      }
      if (job.killed)
        waitError = llvm::formatv("killed after {0} s (hung)",
                                  options.timeoutSeconds + 30);
      results[job.request] =
          interpret(status.ReturnCode, waitError, readWholeFile(job.reportPath),
                    readWholeFile(job.stderrPath), readWholeFile(job.stdoutPath));
      running.erase(running.begin() + i);
      progressed = true;
    }
    if (!progressed)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return results;
}
