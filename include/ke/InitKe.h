//===- InitKe.h - registration of everything ke provides --------*- C++ -*-===//

#ifndef KE_INITKE_H
#define KE_INITKE_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ke {

/// Registers the ke dialect (and what its passes depend on).
void registerKeDialects(mlir::DialectRegistry &registry);

/// Registers ke's passes and named pipelines with the global registry.
void registerAllKePasses();

/// Registers every upstream dialect, extension and pass, and ke's, as
/// `mlir-opt` does: the tools accept any upstream IR and pipeline.
void registerEverything(mlir::DialectRegistry &registry);

} // namespace ke

#endif // KE_INITKE_H
