//===- TuningSpecExport.cpp - a run's best schedules as a tuning spec -----===//

#include "ke/Search/TuningSpecExport.h"

#include "ke/Propose/TuningSpec.h"
#include "ke/Search/SearchSession.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ke;

llvm::Expected<std::string>
ke::search::exportTuningSpec(store::Store &database, int64_t run,
                             MLIRContext *context,
                             std::vector<std::string> &notes) {
  auto kernels = database.loadKernels(run);
  if (!kernels)
    return kernels.takeError();
  // The prepared payloads the entries point into stay alive until rendered.
  std::vector<PreparedKernel> prepared;
  prepared.reserve(kernels->size());
  std::vector<propose::TuningSpecEntry> entries;
  for (const store::KernelRecord &kernel : *kernels) {
    auto nodes = database.loadNodes(kernel.id);
    if (!nodes)
      return nodes.takeError();
    const store::NodeRecord *best = store::findBestNode(*nodes);
    if (!best) {
      notes.push_back(kernel.name + ": no correct candidate");
      continue;
    }
    // Library schedules and LLM schedule replies alike.
    if (best->schedule.empty()) {
      notes.push_back(llvm::formatv("{0}: its best is node {1} ({2}), which "
                                    "has no library schedule to export",
                                    kernel.name, best->id, best->proposer)
                          .str());
      continue;
    }
    llvm::Expected<propose::Schedule> schedule =
        propose::Schedule::parse(best->schedule);
    if (!schedule) {
      notes.push_back(kernel.name + ": node's schedule does not parse: " +
                      llvm::toString(schedule.takeError()));
      continue;
    }
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(kernel.referenceIR, context);
    func::FuncOp reference =
        module ? *module->getOps<func::FuncOp>().begin() : func::FuncOp();
    if (!module || !reference) {
      notes.push_back(kernel.name + ": its recorded reference does not parse");
      continue;
    }
    llvm::Expected<PreparedKernel> kernelPrepared =
        // Library schedules are CPU schedules.
        prepareKernel(reference, kernel.name, propose::PayloadTarget::CPU);
    if (!kernelPrepared) {
      notes.push_back(kernel.name + ": " +
                      llvm::toString(kernelPrepared.takeError()));
      continue;
    }
    if (llvm::Error error =
            propose::verifySchedule(*schedule, kernelPrepared->shapes)) {
      notes.push_back(kernel.name + ": the schedule does not fit the ops: " +
                      llvm::toString(std::move(error)));
      continue;
    }
    prepared.push_back(std::move(*kernelPrepared));
    entries.push_back({kernel.name, prepared.back().base, *schedule});
  }
  return propose::renderTuningSpec(entries, notes);
}
