//===- DiagnosticCollector.h - MLIR diagnostics into a message --*- C++ -*-===//
//
// While alive, collects every diagnostic of a context (with its location)
// into one string instead of printing it, so a failure of an internal pass
// pipeline can be reported as a message: in ke-run's JSON, in the database.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SUPPORT_DIAGNOSTICCOLLECTOR_H
#define KE_SUPPORT_DIAGNOSTICCOLLECTOR_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ke {

class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext *context)
      : handler(context, [this](mlir::Diagnostic &diagnostic) {
          llvm::raw_string_ostream os(messages);
          if (!messages.empty())
            os << "; ";
          os << diagnostic.getLocation() << ": " << diagnostic;
          return mlir::success();
        }) {}
  const std::string &str() const { return messages; }

private:
  std::string messages;
  mlir::ScopedDiagnosticHandler handler;
};

} // namespace ke

#endif // KE_SUPPORT_DIAGNOSTICCOLLECTOR_H
