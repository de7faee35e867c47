//===- TuningSpecExport.h - a run's best schedules as a tuning spec -*- C++ -*-===//
//
// What `ke-evolve spec=FILE` and `ke-report spec` write: per kernel of a
// run, the schedule of its best correct node, when that node is a library
// schedule and the kernel's best, as a transform-dialect tuning spec
// (ke/Propose/TuningSpec.h). Read from the database, so a finished run can
// be exported at any time.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_TUNINGSPECEXPORT_H
#define KE_SEARCH_TUNINGSPECEXPORT_H

#include "ke/Store/Store.h"

#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace ke::search {

/// The spec of `run`; kernels without an exportable schedule are in `notes`
/// (so is what a spec cannot carry).
llvm::Expected<std::string> exportTuningSpec(store::Store &database,
                                             int64_t run,
                                             mlir::MLIRContext *context,
                                             std::vector<std::string> &notes);

} // namespace ke::search

#endif // KE_SEARCH_TUNINGSPECEXPORT_H
