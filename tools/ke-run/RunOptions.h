//===- RunOptions.h - ke-run's command line ---------------------*- C++ -*-===//

#ifndef KE_TOOLS_KERUN_RUNOPTIONS_H
#define KE_TOOLS_KERUN_RUNOPTIONS_H

#include "ke/Eval/EvaluateKernel.h"

#include <optional>
#include <string>

/// What one ke-run invocation asks for.
struct RunCommand {
  std::string inputFilename, referenceFilename;
  std::string kernel, candidate;
  std::string reportPath;
  bool json = false;
  bool calibrateOnly = false;
  unsigned memoryLimitMB = 8192; ///< 0: no limit
  std::string targetName; ///< as given; options.target is null if unknown
  ke::eval::EvaluationOptions evaluation;
};

/// Parses argv (`--threads` taken out first: libLLVM registers a global
/// option of that name); nullopt after a diagnostic.
std::optional<RunCommand> parseRunCommandLine(int argc, char **argv);

#endif // KE_TOOLS_KERUN_RUNOPTIONS_H
