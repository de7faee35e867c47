//===- KernelJobs.cpp - the kernels of a module to evaluate ---------------===//

#include "ke/Eval/KernelJobs.h"

#include "ke/KeDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ke::eval;

namespace {
/// The function to evaluate for a ke.kernel: the named candidate, else the
/// best correct one (as ke-select-best would choose), else the reference.
FailureOr<std::pair<func::FuncOp, std::string>>
chooseEvaluated(ke::KernelOp kernel, llvm::StringRef candidateName) {
  if (!candidateName.empty()) {
    ke::CandidateOp candidate = kernel.lookupCandidate(candidateName);
    if (!candidate) {
      kernel.emitError() << "kernel '@" << kernel.getSymName()
                         << "' has no candidate '@" << candidateName << "'";
      return failure();
    }
    return std::make_pair(candidate.getPayload(), candidate.getSymName().str());
  }
  if (ke::CandidateOp best = kernel.getBestCandidate())
    return std::make_pair(best.getPayload(), best.getSymName().str());
  return std::make_pair(kernel.getReference(), std::string("reference"));
}

func::FuncOp findReferenceIn(ModuleOp module, llvm::StringRef name) {
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto kernel = dyn_cast<ke::KernelOp>(op))
      if (kernel.getSymName() == name)
        return kernel.getReference();
    if (auto function = dyn_cast<func::FuncOp>(op))
      if (function.getSymName() == name && !function.isExternal())
        return function;
  }
  return {};
}

bool isVectorized(func::FuncOp function) {
  return function
      .walk([](Operation *op) {
        Dialect *dialect = op->getDialect();
        return dialect && dialect->getNamespace() == "vector"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}
} // namespace

FailureOr<llvm::SmallVector<KernelJob>>
ke::eval::collectKernelJobs(ModuleOp module,
                            const KernelSelection &selection) {
  llvm::SmallVector<KernelJob> jobs;
  llvm::SmallVector<std::string> available;
  for (Operation &op : module.getBody()->getOperations()) {
    KernelJob job;
    if (auto kernel = dyn_cast<ke::KernelOp>(op)) {
      job.name = kernel.getSymName().str();
      available.push_back(job.name);
      if (!selection.kernel.empty() && job.name != selection.kernel)
        continue;
      auto chosen = chooseEvaluated(kernel, selection.candidate);
      if (failed(chosen))
        return failure();
      job.evaluated = chosen->first;
      job.candidate = chosen->second;
      job.reference = kernel.getReference();
    } else if (auto function = dyn_cast<func::FuncOp>(op)) {
      if (!function->hasAttr(ke::KeDialect::kKernelAttrName))
        continue;
      job.name = function.getSymName().str();
      available.push_back(job.name);
      if (!selection.kernel.empty() && job.name != selection.kernel)
        continue;
      if (function.isExternal()) {
        function.emitError() << "kernel '@" << job.name << "' has no body";
        return failure();
      }
      job.evaluated = job.reference = function;
      job.candidate = "kernel";
    } else {
      continue;
    }
    if (selection.referenceModule) {
      job.reference = findReferenceIn(selection.referenceModule, job.name);
      if (!job.reference) {
        llvm::errs() << "ke-run: '" << selection.referenceFilename
                     << "' has no function '@" << job.name << "'\n";
        return failure();
      }
    } else if (job.reference == job.evaluated && isVectorized(job.evaluated)) {
      // Already vectorized (a scheduled candidate) and no reference given:
      // it is compared with itself, which proves nothing.
      llvm::errs() << "ke-run: warning: '@" << job.name
                   << "' is vectorized and is its own reference; pass "
                      "--reference with the original to check it\n";
    }
    jobs.push_back(job);
  }
  if (!jobs.empty())
    return jobs;
  if (!selection.kernel.empty())
    llvm::errs() << "ke-run: no kernel '" << selection.kernel << "' in '"
                 << selection.filename << "'; kernels: "
                 << (available.empty() ? std::string("none")
                                       : llvm::join(available, ", "))
                 << "\n";
  else
    llvm::errs() << "ke-run: no kernel in '" << selection.filename
                 << "': tag a func.func with the unit attribute ke.kernel or "
                    "wrap it in a ke.kernel op\n";
  return failure();
}
