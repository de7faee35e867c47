// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{blocks=64 min-chunk=4096}))' | FileCheck %s --check-prefix=FEWER
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{blocks=1}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{min-split-length=-1}))' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{column-threads=1}))' | FileCheck %s --check-prefix=NOCOLUMNS
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-split-reductions-for-gpu{min-split-length=0}))' | FileCheck %s --check-prefix=ANYLENGTH

// BAD: ke-split-reductions-for-gpu: blocks must be at least 2, min-chunk, column-threads and min-column-chunk positive and min-split-length not negative (got 1, 1024, 131072, 32 and 32768)
// NEGATIVE: ke-split-reductions-for-gpu: {{.*}} min-split-length not negative (got 256, 1024, 131072, 32 and -1)

// A sum of squares over a whole 4x64x1024 tensor: its three reduction
// loops collapse into one of 262144, split into 256 chunks of 1024 (one
// thread block each), whose partial sums one more reduction adds up. With
// 64 blocks of at least 4096, 64 chunks.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<4x64x1024xf32> into tensor<262144xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [256, 1024]
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.mulf
// CHECK:         } -> tensor<256xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK:         } -> tensor<f32>
// FEWER-LABEL: func.func @sum_of_squares
// FEWER:         tensor.expand_shape %{{.*}} output_shape [64, 4096]
#all = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
func.func @sum_of_squares(%x: tensor<4x64x1024xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#all, #scalar], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : tensor<4x64x1024xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Per-channel statistics over H and W (an instance norm's): the two
// reduction loops collapse (a block per output then reduces 4096 elements);
// 256 outputs are enough blocks, so no split.
// CHECK-LABEL: func.func @channel_sums
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<4x64x64x64xf32> into tensor<4x64x4096xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:     tensor.expand_shape {{.*}} output_shape [4, 64, {{[0-9]+}}, {{[0-9]+}}]
// CHECK:         return
#nchw = affine_map<(n, c, h, w) -> (n, c, h, w)>
#nc = affine_map<(n, c, h, w) -> (n, c)>
func.func @channel_sums(%x: tensor<4x64x64x64xf32>, %init: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = linalg.generic {indexing_maps = [#nchw, #nc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<4x64x64x64xf32>) outs(%init : tensor<4x64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A reduction along an outer loop (a column sum) is not the row path's, and
// its combiner has an atomic: ke-distribute-reductions-for-gpu spreads it
// over threads itself. Left alone.
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iterator_types = ["reduction", "parallel"]
#rows = affine_map<(d0, d1) -> (d0, d1)>
#column = affine_map<(d0, d1) -> (d1)>
func.func @column_sum(%x: tensor<65536x4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#rows, #column], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<65536x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A batch norm's per-channel statistics: N, H and W reduced, C between
// them, so not all reduction loops collapse; H and W do (the innermost
// run), and that loop is split: 64 channels x 4 chunks are 256 blocks,
// each still reducing over N. The partials (channel, chunk) are then
// folded into the original output.
// CHECK-LABEL: func.func @channel_statistics
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<2x64x128x256xf64> into tensor<2x64x32768xf64>
// CHECK:         %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [2, 64, 4, 8192]
// CHECK:         %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<64x4xf64>)
// CHECK:         %[[PARTIAL:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<2x64x4x8192xf64>) outs(%[[ZERO]] : tensor<64x4xf64>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[PARTIAL]] : tensor<64x4xf64>) outs(%arg1 : tensor<64xf64>)
#stats_in = affine_map<(n, c, h, w) -> (n, c, h, w)>
#stats_out = affine_map<(n, c, h, w) -> (c)>
func.func @channel_statistics(%x: tensor<2x64x128x256xf64>, %init: tensor<64xf64>) -> tensor<64xf64> {
  %r = linalg.generic {indexing_maps = [#stats_in, #stats_out], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x64x128x256xf64>) outs(%init : tensor<64xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %s = arith.addf %v, %acc : f64
    linalg.yield %s : f64
  } -> tensor<64xf64>
  return %r : tensor<64xf64>
}

// -----

// A mean over C, D, H and W with a per-channel scale fused in: the scale
// reads C alone, so only D, H and W collapse (19800), split into 15 chunks
// (the most that divide it within 256 blocks / 16 outputs); the scale is
// not reshaped.
// CHECK-LABEL: func.func @scaled_mean
// CHECK:         %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [16, 24, 15, 1320]
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction", "parallel", "reduction"]} ins(%[[X]], %arg1 : tensor<16x24x15x1320xf32>, tensor<24xf32>) outs(%{{.*}} : tensor<16x15xf32>)
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<16x15xf32>)
// CHECK:           arith.addf
#x5 = affine_map<(n, c, d, h, w) -> (n, c, d, h, w)>
#c5 = affine_map<(n, c, d, h, w) -> (c)>
#n5 = affine_map<(n, c, d, h, w) -> (n)>
func.func @scaled_mean(%x: tensor<16x24x22x30x30xf32>, %scale: tensor<24xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [#x5, #c5, #n5], iterator_types = ["parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%x, %scale : tensor<16x24x22x30x30xf32>, tensor<24xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%v: f32, %s: f32, %acc: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %acc, %m : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// An argmax over a row with few outputs: no neutral pair to start partials
// from in place, so its partials keep positions along the whole row
// (chunk * 1024 + element) and are folded in chunk order.
// CHECK-LABEL: func.func @row_argmax
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 64, 1024]
// CHECK:         %[[PART:.*]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           %[[CHUNK:.*]] = linalg.index 1 : index
// CHECK:           %[[ELEMENT:.*]] = linalg.index 2 : index
// CHECK:           %[[START:.*]] = arith.muli %[[CHUNK]], %c1024
// CHECK:           arith.addi %[[START]], %[[ELEMENT]] : index
// CHECK:         } -> (tensor<64x4xf32>, tensor<64x4xi64>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]} ins(%[[PART]]#0, %[[PART]]#1 : tensor<64x4xf32>, tensor<64x4xi64>)
// CHECK:         ^bb0(%[[V:.*]]: f32, %[[I:.*]]: i64, %[[TV:.*]]: f32, %[[TI:.*]]: i64):
// CHECK:           arith.maximumf %[[V]], %[[TV]]
// CHECK:           %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[TV]]
// CHECK:           arith.select %[[GT]], %[[I]], %[[TI]] : i64
func.func @row_argmax(%x: tensor<4x65536xf32>, %m: tensor<4xf32>, %i: tensor<4xi64>) -> tensor<4xi64> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x65536xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %new = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %k64, %idx : i64
    linalg.yield %new, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// -----

// An argmax over the middle dimension (torch's argmax(dim=1)): one thread
// per output would be 2 x 2047 threads walking columns of 1024. Split into
// 32 chunks of 32 (131072 threads / 4094 outputs, at least 32 elements
// each): partials [32, 2, 2047], the input read as before along its last
// dimension. Without column splits (column-threads=1) it stays whole.
// CHECK-LABEL: func.func @column_argmax
// CHECK:         %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [2, 32, 32, 2047]
// CHECK:         %[[PART:.*]]:2 = linalg.generic {indexing_maps = [#[[IN:.*]], #[[OUT:.*]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[X]] : tensor<2x32x32x2047xf32>)
// CHECK:           arith.muli %{{.*}}, %c32
// CHECK:         } -> (tensor<32x2x2047xf32>, tensor<32x2x2047xi64>)
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[PART]]#0, %[[PART]]#1 : tensor<32x2x2047xf32>, tensor<32x2x2047xi64>) outs(%arg1, %arg2 : tensor<2x2047xf32>, tensor<2x2047xi64>)
// CHECK:           arith.select
// NOCOLUMNS-LABEL: func.func @column_argmax
// NOCOLUMNS-NOT:   tensor.expand_shape
// NOCOLUMNS:       iterator_types = ["parallel", "reduction", "parallel"]
func.func @column_argmax(%x: tensor<2x1024x2047xf32>, %m: tensor<2x2047xf32>, %i: tensor<2x2047xi64>) -> tensor<2x2047xi64> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x1024x2047xf32>) outs(%m, %i : tensor<2x2047xf32>, tensor<2x2047xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %new = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %k64, %idx : i64
    linalg.yield %new, %sel : f32, i64
  } -> (tensor<2x2047xf32>, tensor<2x2047xi64>)
  return %r#1 : tensor<2x2047xi64>
}

// -----

// A max over the middle dimension with the dimension kept (torch's
// keepdim, a constant 0 in the output's map; a float max has no atomic for
// ke-distribute-reductions-for-gpu's column path): partials [32, 2, 1, 2047]
// from the neutral -inf, folded in chunk order.
// CHECK-LABEL: func.func @column_max_keepdim
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         linalg.fill {{.*}} -> tensor<32x2x1x2047xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK:         } -> tensor<32x2x1x2047xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel", "parallel"]
// CHECK:           arith.maximumf
// CHECK:         } -> tensor<2x1x2047xf32>
func.func @column_max_keepdim(%x: tensor<2x1024x2047xf32>, %init: tensor<2x1x2047xf32>) -> tensor<2x1x2047xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x1024x2047xf32>) outs(%init : tensor<2x1x2047xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x1x2047xf32>
  return %r : tensor<2x1x2047xf32>
}

// -----

// An arg reduction comparing another value than the one it folds in (the
// partial maxima would not say which position won): not split.
// CHECK-LABEL: func.func @mismatched_argmax_not_split
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iterator_types = ["parallel", "reduction", "parallel"]
func.func @mismatched_argmax_not_split(%x: tensor<2x1024x2047xf32>, %m: tensor<2x2047xf32>, %i: tensor<2x2047xi64>) -> tensor<2x2047xi64> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x1024x2047xf32>) outs(%m, %i : tensor<2x2047xf32>, tensor<2x2047xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %neg = arith.negf %in : f32
    %new = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %neg, %acc : f32
    %sel = arith.select %gt, %k64, %idx : i64
    linalg.yield %new, %sel : f32, i64
  } -> (tensor<2x2047xf32>, tensor<2x2047xi64>)
  return %r#1 : tensor<2x2047xi64>
}

// -----

// A max whose position is taken where the value is less (not the element
// the max keeps): the partial positions would not say which element won.
// Not split.
// CHECK-LABEL: func.func @max_with_min_position_not_split
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iterator_types = ["parallel", "reduction", "parallel"]
func.func @max_with_min_position_not_split(%x: tensor<2x1024x2047xf32>, %m: tensor<2x2047xf32>, %i: tensor<2x2047xi64>) -> tensor<2x2047xi64> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x1024x2047xf32>) outs(%m, %i : tensor<2x2047xf32>, tensor<2x2047xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %new = arith.maximumf %in, %acc : f32
    %lt = arith.cmpf olt, %in, %acc : f32
    %sel = arith.select %lt, %k64, %idx : i64
    linalg.yield %new, %sel : f32, i64
  } -> (tensor<2x2047xf32>, tensor<2x2047xi64>)
  return %r#1 : tensor<2x2047xi64>
}

// -----

// An argmax whose two outputs are indexed differently (the index
// transposed): the fold would compare one output's element with another
// element's position. Not split.
// CHECK-LABEL: func.func @transposed_index_not_split
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iterator_types = ["parallel", "reduction", "parallel"]
func.func @transposed_index_not_split(%x: tensor<64x1024x64xf32>, %m: tensor<64x64xf32>, %i: tensor<64x64xi64>) -> tensor<64x64xi64> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<64x1024x64xf32>) outs(%m, %i : tensor<64x64xf32>, tensor<64x64xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %new = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %k64, %idx : i64
    linalg.yield %new, %sel : f32, i64
  } -> (tensor<64x64xf32>, tensor<64x64xi64>)
  return %r#1 : tensor<64x64xi64>
}

// -----

// A softmax's max over one row of 2048 (a Linear layer's output at batch
// 1): shorter than min-split-length, so it stays one reduction, which
// ke-distribute-reductions-for-gpu can fuse with the softmax's other ops
// into one block. With min-split-length=0 it splits into 2 chunks of 1024.
// CHECK-LABEL: func.func @short_row_max
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK-NOT:     linalg.generic
// ANYLENGTH-LABEL: func.func @short_row_max
// ANYLENGTH:       tensor.expand_shape %{{.*}} output_shape [2, 1024]
#row = affine_map<(d0) -> (d0)>
#total = affine_map<(d0) -> ()>
func.func @short_row_max(%x: tensor<2048xf32>) -> tensor<f32> {
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%lowest : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#row, #total], iterator_types = ["reduction"]}
      ins(%x : tensor<2048xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
