// Upstream mlir-opt loads ke as a dialect plugin and a pass plugin. (An
// uninstrumented mlir-opt cannot load a sanitized plugin.)
// UNSUPPORTED: asan
// RUN: %mlir_opt --load-dialect-plugin=%ke_plugin --load-pass-plugin=%ke_plugin --help | FileCheck %s --check-prefix=HELP
// Plugin passes are run through --pass-pipeline (mlir-opt parses its pass
// flags before it loads plugins).
// RUN: %mlir_opt --load-dialect-plugin=%ke_plugin --load-pass-plugin=%ke_plugin %s --pass-pipeline='builtin.module(ke-outline-kernels)' | FileCheck %s
// Without the plugin, upstream knows neither the passes nor the dialect.
// RUN: not %mlir_opt %s --pass-pipeline='builtin.module(ke-outline-kernels)' 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// HELP-DAG: --ke-outline-kernels
// HELP-DAG: --ke-select-best
// HELP-DAG: --ke-tile-and-vectorize
// HELP-DAG: --ke-lower-cpu
// NOPLUGIN: 'ke-outline-kernels' does not refer to a registered pass or pass pipeline

// CHECK: ke.kernel @double target("cpu")
func.func @double(%x: tensor<8xf32>) -> tensor<8xf32> attributes {ke.kernel} {
  %0 = arith.addf %x, %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
