//===- SlurmEvaluator.cpp - ke-run as Slurm job steps ---------------------===//

#include "ke/Eval/SlurmEvaluator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>
#include <unistd.h>

using namespace ke::eval;

std::string ke::eval::findClusterFailure(llvm::StringRef srunErrors) {
  // What srun and slurmstepd print when the cluster, not the program, ended
  // or refused the job.
  static constexpr llvm::StringLiteral kSigns[] = {
      "CANCELLED",       "DUE TO TIME LIMIT",
      "DUE TO PREEMPTION", "DUE TO NODE FAILURE",
      "NODE_FAIL",       "Unable to allocate resources",
      "has been revoked",
      "Socket timed out", "Unable to contact slurm controller",
      "Communication connection failure", "step creation temporarily disabled",
      "Invalid partition", "Requested node configuration",
      "aborted before step completely launched",
      "Zero Bytes were transmitted"};
  llvm::SmallVector<llvm::StringRef> lines;
  srunErrors.split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines)
    for (llvm::StringRef sign : kSigns)
      if (line.contains(sign))
        return line.trim().str();
  return "";
}

std::string ke::eval::describeClusterJobState(llvm::StringRef stateAndReason) {
  // squeue's "%T|%r" of a job that ended: the states in which the cluster,
  // not the program, ended it.
  static constexpr llvm::StringLiteral kClusterStates[] = {
      "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
      "DEADLINE"};
  auto [state, reason] = stateAndReason.trim().split('|');
  for (llvm::StringRef clusterState : kClusterStates)
    if (state == clusterState)
      return ("job " + state + (reason.empty() || reason == "None"
                                    ? std::string()
                                    : " (" + reason.str() + ")"))
          .str();
  return "";
}

SlurmEvaluator::SlurmEvaluator(SlurmEvaluatorOptions options)
    : options(std::move(options)) {
  llvm::SmallVector<llvm::StringRef> words;
  llvm::StringRef(this->options.slurmArgs).split(words, ' ', -1, false);
  for (llvm::StringRef word : words)
    slurmArguments.push_back(word.str());
  jobPrefix = "ke-" + std::to_string(::getpid());
  // Programs are started by path: resolve the names on PATH once.
  for (std::string *path : {&this->options.srunPath, &this->options.scancelPath,
                            &this->options.squeuePath})
    if (!llvm::StringRef(*path).contains('/'))
      if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(*path))
        *path = *found;
}

std::vector<EvaluationResult>
SlurmEvaluator::evaluate(llvm::ArrayRef<EvaluationRequest> requests) {
  using Clock = std::chrono::steady_clock;
  const SubprocessEvaluatorOptions &run = options.run;
  struct Running {
    size_t request;
    unsigned attempt;
    std::string jobName;
    llvm::sys::ProcessInfo process;
    Clock::time_point started;
    std::string stdoutPath, stderrPath, reportPath;
    bool killed = false;
  };
  std::vector<EvaluationResult> results(requests.size());
  std::vector<Running> running;
  std::vector<std::pair<size_t, unsigned>> queue; // request, attempt
  for (size_t i = 0; i < requests.size(); ++i)
    queue.push_back({i, 0});
  size_t next = 0;
  unsigned workers = std::max(1u, run.workers);
  // srun waits in the queue too: the kill is only for a step that outlives
  // ke-run's own alarm by far (a lost node, a hung srun).
  auto hardLimit = std::chrono::seconds(run.timeoutSeconds + 600);
  auto warn = [&](const std::string &message) {
    if (options.warn)
      options.warn(message);
    else
      llvm::errs() << "ke-evolve: " << message << "\n";
  };
  auto cancel = [&](const std::string &jobName) {
    std::string name = "--name=" + jobName;
    llvm::StringRef arguments[] = {options.scancelPath, name};
    std::optional<llvm::StringRef> redirects[] = {
        llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef("")};
    llvm::sys::ExecuteAndWait(options.scancelPath, arguments, std::nullopt,
                              redirects, /*SecondsToWait=*/30);
  };

  // How Slurm says the job ended ("CANCELLED|None"), while it still
  // remembers it (MinJobAge); empty when it cannot say.
  auto jobState = [&](const std::string &jobName) -> std::string {
    std::string output = run.workDirectory + "/squeue-" + jobName + ".txt";
    std::string name = "--name=" + jobName;
    llvm::StringRef arguments[] = {options.squeuePath, "-h", "-t", "all",
                                   name, "-o", "%T|%r"};
    std::optional<llvm::StringRef> redirects[] = {
        llvm::StringRef(""), llvm::StringRef(output), llvm::StringRef("")};
    llvm::sys::ExecuteAndWait(options.squeuePath, arguments, std::nullopt,
                              redirects, /*SecondsToWait=*/30);
    std::string text = readWholeFile(output);
    llvm::sys::fs::remove(output);
    return llvm::StringRef(text).trim().split('\n').first.str();
  };
  // A cancelled job stays COMPLETING while its step's processes are killed,
  // and srun may exit before slurmstepd's "CANCELLED" line reaches it: wait
  // (briefly) for the state Slurm ends the job with.
  auto finalJobState = [&](const std::string &jobName) -> std::string {
    static constexpr llvm::StringLiteral kTransient[] = {
        "COMPLETING", "RUNNING", "PENDING", "CONFIGURING", "SIGNALING",
        "STAGE_OUT", "SUSPENDED"};
    auto deadline = Clock::now() + std::chrono::seconds(15);
    while (true) {
      std::string state = jobState(jobName);
      llvm::StringRef name = llvm::StringRef(state).split('|').first;
      if (!llvm::is_contained(kTransient, name) || Clock::now() > deadline)
        return state;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  };

  auto launch = [&](size_t index, unsigned attempt) {
    const EvaluationRequest &request = requests[index];
    Running job;
    job.request = index;
    job.attempt = attempt;
    // Numbered across every evaluator of this process: one search's
    // job names never repeat.
    static std::atomic<unsigned> jobCount{0};
    job.jobName = llvm::formatv("{0}-{1}", jobPrefix, jobCount++).str();
    std::string base = llvm::formatv("{0}/slurm-{1}-{2}", run.workDirectory,
                                     request.kernel, index)
                           .str();
    job.stdoutPath = base + ".out";
    job.stderrPath = base + ".err";
    job.reportPath = base + ".report";
    llvm::sys::fs::remove(job.stdoutPath);
    llvm::sys::fs::remove(job.stderrPath);
    llvm::sys::fs::remove(job.reportPath);
    std::vector<std::string> arguments = {
        options.srunPath, "--job-name=" + job.jobName, "--ntasks=1",
        "--cpus-per-task=" + std::to_string(std::max(1u, run.threads)),
        "--kill-on-bad-exit=1"};
    arguments.insert(arguments.end(), slurmArguments.begin(),
                     slurmArguments.end());
    std::vector<std::string> keRun =
        SubprocessEvaluator::buildArguments(run, request, job.reportPath);
    arguments.insert(arguments.end(), keRun.begin(), keRun.end());
    llvm::SmallVector<llvm::StringRef> argumentRefs(arguments.begin(),
                                                    arguments.end());
    std::optional<llvm::StringRef> redirects[] = {
        llvm::StringRef(""), llvm::StringRef(job.stdoutPath),
        llvm::StringRef(job.stderrPath)};
    std::string launchError;
    bool failedToStart = false;
    job.process = llvm::sys::ExecuteNoWait(options.srunPath, argumentRefs,
                                           std::nullopt, redirects, 0,
                                           &launchError, &failedToStart);
    job.started = Clock::now();
    if (failedToStart) {
      results[index].status = "failed";
      results[index].error = "slurm: cannot start " + options.srunPath + ": " +
                             launchError +
                             " (install Slurm's client, or set KE_SRUN)";
      return;
    }
    running.push_back(std::move(job));
  };

  auto stopAll = [&] {
    for (Running &job : running) {
      cancel(job.jobName);
      ::kill(job.process.Pid, SIGTERM);
    }
    for (Running &job : running) {
      std::string ignored;
      llvm::sys::Wait(job.process, /*SecondsToWait=*/30, &ignored);
    }
    running.clear();
    for (EvaluationResult &result : results)
      if (result.status.empty()) {
        result.status = kCancelled;
        result.error = "cancelled: the search was stopped";
      }
  };

  while (next < queue.size() || !running.empty()) {
    if (options.shouldStop && options.shouldStop()) {
      stopAll();
      return results;
    }
    while (next < queue.size() && running.size() < workers) {
      auto [index, attempt] = queue[next++];
      launch(index, attempt);
    }
    bool progressed = false;
    for (size_t i = 0; i < running.size();) {
      Running &job = running[i];
      std::string waitError;
      llvm::sys::ProcessInfo status =
          llvm::sys::Wait(job.process, /*SecondsToWait=*/0, &waitError);
      if (status.Pid == 0) {
        if (!job.killed && Clock::now() - job.started > hardLimit) {
          cancel(job.jobName);
          ::kill(job.process.Pid, SIGKILL);
          job.killed = true;
        }
        ++i;
        continue;
      }
      std::string report = readWholeFile(job.reportPath);
      std::string errors = readWholeFile(job.stderrPath);
      // No verdict: ask Slurm how the job ended, else read srun's errors.
      std::string clusterFailure;
      if (llvm::StringRef(report).trim().empty()) {
        clusterFailure = describeClusterJobState(finalJobState(job.jobName));
        if (clusterFailure.empty())
          clusterFailure = findClusterFailure(errors);
      }
      if (job.killed && llvm::StringRef(report).trim().empty())
        clusterFailure = llvm::formatv("no result after {0} s; job cancelled",
                                       run.timeoutSeconds + 600);
      const EvaluationRequest &request = requests[job.request];
      if (!clusterFailure.empty() && job.attempt < options.retries) {
        warn(llvm::formatv("slurm job {0} ({1}, candidate {2}) ended by the "
                           "cluster ({3}); queued again",
                           job.jobName, request.kernel, job.request,
                           clusterFailure));
        queue.push_back({job.request, job.attempt + 1});
      } else if (!clusterFailure.empty()) {
        results[job.request].status = "failed";
        results[job.request].error =
            llvm::formatv("slurm: job ended by the cluster {0} times: {1}",
                          job.attempt + 1, clusterFailure);
      } else {
        results[job.request] = SubprocessEvaluator::interpret(
            status.ReturnCode, waitError, report, errors,
            readWholeFile(job.stdoutPath));
      }
      running.erase(running.begin() + i);
      progressed = true;
    }
    if (!progressed)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return results;
}
