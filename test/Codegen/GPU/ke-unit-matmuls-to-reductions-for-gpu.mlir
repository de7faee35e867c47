// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-unit-matmuls-to-reductions-for-gpu))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-unit-matmuls-to-reductions-for-gpu,linalg-fold-unit-extent-dims,canonicalize))' | FileCheck %s --check-prefix=FOLDED
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-unit-matmuls-to-reductions-for-gpu{least-steps=4096}))' | FileCheck %s --check-prefix=LONG

// A Linear layer at batch 1, its weight read in place as [N][K] (the maps
// ke-fold-transposes-into-thin-matmuls writes): a generic, whose unit row
// loop then folds away, leaving rows of W reduced along K against x.
// CHECK-LABEL: func.func @linear_at_batch_1
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf
// FOLDED-LABEL: func.func @linear_at_batch_1
// FOLDED:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2048xf32>, tensor<1024x2048xf32>) outs(%{{.*}} : tensor<1024xf32>)
// LONG-LABEL: func.func @linear_at_batch_1
// LONG:         linalg.matmul
func.func @linear_at_batch_1(%x: tensor<1x2048xf32>, %w: tensor<1024x2048xf32>) -> tensor<1x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<1x2048xf32>, tensor<1024x2048xf32>) outs(%c : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %r : tensor<1x1024xf32>
}

// -----

// A matrix times a vector (one column) likewise.
// LONG-LABEL: func.func @matrix_vector
// LONG-NOT:     linalg.generic
// LONG:         linalg.matmul
// CHECK-LABEL: func.func @matrix_vector
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic
// FOLDED-LABEL: func.func @matrix_vector
// FOLDED:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<512x1024xf32>, tensor<1024xf32>) outs(%{{.*}} : tensor<512xf32>)
func.func @matrix_vector(%a: tensor<512x1024xf32>, %v: tensor<1024x1xf32>, %c: tensor<512x1xf32>) -> tensor<512x1xf32> {
  %r = linalg.matmul ins(%a, %v : tensor<512x1024xf32>, tensor<1024x1xf32>) outs(%c : tensor<512x1xf32>) -> tensor<512x1xf32>
  return %r : tensor<512x1xf32>
}

// -----

// Several rows and columns (a GEMM's tiles pay), and a short reduction
// (too little work per output for a block of threads), stay matmuls.
// CHECK-LABEL: func.func @two_rows
// CHECK:         linalg.matmul
// CHECK-LABEL: func.func @short_reduction
// CHECK:         linalg.matmul
func.func @two_rows(%x: tensor<2x2048xf32>, %w: tensor<2048x1024xf32>, %c: tensor<2x1024xf32>) -> tensor<2x1024xf32> {
  %r = linalg.matmul ins(%x, %w : tensor<2x2048xf32>, tensor<2048x1024xf32>) outs(%c : tensor<2x1024xf32>) -> tensor<2x1024xf32>
  return %r : tensor<2x1024xf32>
}
func.func @short_reduction(%x: tensor<1x64xf32>, %w: tensor<64x1024xf32>, %c: tensor<1x1024xf32>) -> tensor<1x1024xf32> {
  %r = linalg.matmul ins(%x, %w : tensor<1x64xf32>, tensor<64x1024xf32>) outs(%c : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %r : tensor<1x1024xf32>
}
