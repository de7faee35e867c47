//===- InitKe.cpp - registration of ke's dialect and passes ---------------===//
//
// Kept free of the InitAll* headers so the mlir-opt plugin stays small.
//
//===----------------------------------------------------------------------===//

#include "ke/InitKe.h"

#include "ke/KeDialect.h"
#include "ke/Target/CPUPipeline.h"
#include "ke/Target/GPUPipeline.h"
#include "ke/Codegen/Passes.h"
#include "ke/Search/Passes.h"
#include "ke/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void ke::registerKeDialects(mlir::DialectRegistry &registry) {
  registry.insert<ke::KeDialect, mlir::func::FuncDialect>();
}

void ke::registerAllKePasses() {
  ke::registerKeTransformsPasses();
  ke::registerKeCodegenPasses();
  ke::registerKeSearchPasses();
  ke::registerLowerCPUPipeline();
  ke::registerLowerRISCVPipeline();
  ke::registerLowerGPUPipelines();
}
