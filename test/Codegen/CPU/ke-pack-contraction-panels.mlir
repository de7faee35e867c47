// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-pack-contraction-panels{panel-width=32 min-rows=64}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-pack-contraction-panels{panel-width=32 min-rows=64},ke-tile-and-vectorize{vector-width=8}))' | FileCheck %s --check-prefix=TILED
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-pack-contraction-panels{panel-width=0}))' 2>&1 | FileCheck %s --check-prefix=BADWIDTH

// BADWIDTH: ke-pack-contraction-panels: panel-width and min-rows must be positive, found 0 and 64

// B (64 x 128) becomes 4 panels of 64 x 32 (B split as 64 x 4 x 32 by a
// free reshape, then permuted); the matmul runs on them as a linalg.contract
// with its output viewed as 256 x 4 x 32.
// CHECK-DAG: #[[PERM:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
// CHECK-DAG: #[[BP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[AA:.*]]: tensor<256x64xf32>, %[[B:.*]]: tensor<64x128xf32>, %[[CC:.*]]: tensor<256x128xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<4x64x32xf32>
// CHECK:         %[[BSPLIT:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0], [1, 2]] output_shape [64, 4, 32]
// CHECK:         %[[PANELS:.*]] = linalg.generic {indexing_maps = [#[[PERM]], #[[ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[BSPLIT]] : tensor<64x4x32xf32>) outs(%[[EMPTY]] : tensor<4x64x32xf32>)
// CHECK:         %[[SPLIT:.*]] = tensor.expand_shape %[[CC]] {{\[\[}}0], [1, 2]] output_shape [256, 4, 32]
// CHECK:         %[[R:.*]] = linalg.contract indexing_maps = [#[[A]], #[[BP]], #[[C]]]
// CHECK-SAME:        ins(%[[AA]], %[[PANELS]] : tensor<256x64xf32>, tensor<4x64x32xf32>) outs(%[[SPLIT]] : tensor<256x4x32xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2]] : tensor<256x4x32xf32> into tensor<256x128xf32>
// CHECK-NOT:     linalg.matmul
// The packed contraction is register-blocked as before: 8 rows by one
// 32-column panel, panels swept down each thread's rows; the threads take a
// grid of 32-row by 2-panel chunks.
// TILED-LABEL: func.func @matmul
// TILED:         scf.forall ({{.*}}) = (0, 0) to (256, 4) step (32, 2)
// TILED:           scf.for {{.*}} to %c2{{.*}} step %c1
// TILED:             scf.for {{.*}} to %c32{{.*}} step %c8
// TILED:               scf.for {{.*}} -> ({{.*}}vector<8x1x32xf32>)
// TILED-COUNT-8:         vector.fma {{.*}} : vector<32xf32>
func.func @matmul(%a: tensor<256x64xf32>, %b: tensor<64x128xf32>, %c: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// -----

// A transposed B (each column a row of B) is packed too: its panels are the
// transpose, and the contraction on them is register-blocked like any other.
// CHECK-DAG: #[[TPERM:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [4, 32, 64] : tensor<128x64xf32> into tensor<4x32x64xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[TPERM]], {{.*}}]{{.*}} ins(%{{.*}} : tensor<4x32x64xf32>) outs(%{{.*}} : tensor<4x64x32xf32>)
// CHECK:         linalg.contract
// TILED-LABEL: func.func @matmul_transpose_b
// TILED:         vector.fma {{.*}} : vector<32xf32>
// TILED-NOT:     vector.multi_reduction
#ta = affine_map<(d0, d1, d2) -> (d0, d2)>
#tb = affine_map<(d0, d1, d2) -> (d1, d2)>
#tc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_transpose_b(%a: tensor<64x64xf32>, %b: tensor<128x64xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x64xf32>, tensor<128x64xf32>) outs(%c : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// torch-mlir's Linear: the weight transposed, then a matmul. The panels are
// packed from the weight itself; the transpose goes.
// CHECK-DAG: #[[WPERM:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-LABEL: func.func @linear
// CHECK-SAME:    %[[W:[^:]*]]: tensor<128x64xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[WSPLIT:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2]] output_shape [4, 32, 64]
// CHECK:         linalg.generic {indexing_maps = [#[[WPERM]], {{.*}}]{{.*}} ins(%[[WSPLIT]] : tensor<4x32x64xf32>) outs(%{{.*}} : tensor<4x64x32xf32>)
// CHECK-NOT:     linalg.transpose
// TILED-LABEL: func.func @linear
func.func @linear(%x: tensor<64x64xf32>, %w: tensor<128x64xf32>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %t = linalg.transpose ins(%w : tensor<128x64xf32>) outs(%e : tensor<64x128xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%x, %t : tensor<64x64xf32>, tensor<64x128xf32>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// -----

// Batches stay outermost in the panels: [batch, N / P, K, P].
// CHECK-LABEL: func.func @batch_matmul
// CHECK:         tensor.empty() : tensor<2x2x16x32xf32>
// CHECK:         tensor.expand_shape {{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [2, 64, 2, 32]
// CHECK:         linalg.contract {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x64x16xf32>, tensor<2x2x16x32xf32>) outs(%{{.*}} : tensor<2x64x2x32xf32>)
func.func @batch_matmul(%a: tensor<2x64x16xf32>, %b: tensor<2x16x64xf32>, %c: tensor<2x64x64xf32>) -> tensor<2x64x64xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x64x16xf32>, tensor<2x16x64xf32>) outs(%c : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %r : tensor<2x64x64xf32>
}

// -----

// Left alone: too few rows to pay for the copy, columns the panel does not
// divide, B already one panel wide, mixed element types.
// CHECK-LABEL: func.func @not_packed
// CHECK-NOT:     tensor.expand_shape
// CHECK-COUNT-4: linalg.matmul
func.func @not_packed(%a: tensor<32x64xf32>, %b: tensor<64x128xf32>, %c: tensor<32x128xf32>,
                      %a2: tensor<128x64xf32>, %b2: tensor<64x48xf32>, %c2: tensor<128x48xf32>,
                      %b3: tensor<64x32xf32>, %c3: tensor<128x32xf32>,
                      %a4: tensor<128x64xf16>, %b4: tensor<64x128xf16>, %c4: tensor<128x128xf32>)
    -> (tensor<32x128xf32>, tensor<128x48xf32>, tensor<128x32xf32>, tensor<128x128xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x128xf32>) outs(%c : tensor<32x128xf32>) -> tensor<32x128xf32>
  %r2 = linalg.matmul ins(%a2, %b2 : tensor<128x64xf32>, tensor<64x48xf32>) outs(%c2 : tensor<128x48xf32>) -> tensor<128x48xf32>
  %r3 = linalg.matmul ins(%a2, %b3 : tensor<128x64xf32>, tensor<64x32xf32>) outs(%c3 : tensor<128x32xf32>) -> tensor<128x32xf32>
  %r4 = linalg.matmul ins(%a4, %b4 : tensor<128x64xf16>, tensor<64x128xf16>) outs(%c4 : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r, %r2, %r3, %r4 : tensor<32x128xf32>, tensor<128x48xf32>, tensor<128x32xf32>, tensor<128x128xf32>
}

// -----

// Inside chunks of 32 rows (a fused row chain's scf.forall) that all read
// the same B: B is packed once before the loop, and the rows that reuse
// its panels are counted over the 4 chunks (128, not 32). A B computed in
// each chunk is packed there, where its chunk's 32 rows are too few.
// CHECK-LABEL: func.func @chunks
// CHECK:         %[[PANELS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x64x32xf32>)
// CHECK:         scf.forall
// CHECK:           linalg.contract {{.*}} ins(%{{.*}}, %[[PANELS]] : tensor<32x64xf32>, tensor<2x64x32xf32>)
// CHECK:           linalg.matmul
// CHECK-NOT:       linalg.contract
// CHECK:           tensor.parallel_insert_slice
func.func @chunks(%a: tensor<128x64xf32>, %b: tensor<64x64xf32>) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %r:2 = scf.forall (%i) = (0) to (128) step (32) shared_outs(%out = %e, %out2 = %e) -> (tensor<128x64xf32>, tensor<128x64xf32>) {
    %as = tensor.extract_slice %a[%i, 0] [32, 64] [1, 1] : tensor<128x64xf32> to tensor<32x64xf32>
    %ec = tensor.empty() : tensor<32x64xf32>
    %z = linalg.fill ins(%zero : f32) outs(%ec : tensor<32x64xf32>) -> tensor<32x64xf32>
    %c = linalg.matmul ins(%as, %b : tensor<32x64xf32>, tensor<64x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
    %bs = tensor.extract_slice %a[%i, 0] [64, 64] [1, 1] : tensor<128x64xf32> to tensor<64x64xf32>
    %c2 = linalg.matmul ins(%as, %bs : tensor<32x64xf32>, tensor<64x64xf32>) outs(%z : tensor<32x64xf32>) -> tensor<32x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %c into %out[%i, 0] [32, 64] [1, 1] : tensor<32x64xf32> into tensor<128x64xf32>
      tensor.parallel_insert_slice %c2 into %out2[%i, 0] [32, 64] [1, 1] : tensor<32x64xf32> into tensor<128x64xf32>
    }
  }
  return %r#0, %r#1 : tensor<128x64xf32>, tensor<128x64xf32>
}
