//===- KePlugin.cpp - ke as an mlir-opt plugin ----------------------------===//
//
// Upstream mlir-opt loads this one library twice over: as a dialect plugin
// (the ke dialect) and as a pass plugin (ke's passes and pipelines).
//
//===----------------------------------------------------------------------===//

#include "ke/InitKe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ke", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            ke::registerKeDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "ke", LLVM_VERSION_STRING,
          []() { ke::registerAllKePasses(); }};
}
