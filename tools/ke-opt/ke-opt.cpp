//===- ke-opt.cpp - the ke optimizer driver -------------------------------===//
//
// mlir-opt with every upstream dialect, extension and pass plus ke's.
//
//===----------------------------------------------------------------------===//

#include "../ToolMains.h"

#include "ke/InitKe.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int keOptMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  ke::registerEverything(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "ke optimizer driver: search-based kernel optimization\n",
      registry));
}
