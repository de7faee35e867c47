// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-fuse-elementwise-ops))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-fuse-elementwise-ops,linalg-fold-unit-extent-dims,canonicalize))' | FileCheck %s --check-prefix=UNIT

// Elementwise into elementwise, each element read once: fused.
// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %v = arith.addf %in, %in2 : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// A normalization (a division) read by a matmul-like consumer along (i, k)
// while the consumer also loops over j: fused, it would divide once per j.
// It stays a producer, and the consumer stays a plain contraction.
// CHECK-LABEL: func.func @no_recompute
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           arith.divf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:       arith.divf
// CHECK:           arith.mulf
// CHECK:           arith.addf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>
func.func @no_recompute(%p: tensor<8x16xf32>, %s: tensor<8xf32>, %v: tensor<16x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %s : tensor<8x16xf32>, tensor<8xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n, %v : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// A scaling (one multiplication) costs next to nothing to redo: fused even
// though the consumer loops over j.
// CHECK-LABEL: func.func @cheap_recompute
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#ik = affine_map<(i, j, k) -> (i, k)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>
func.func @cheap_recompute(%p: tensor<8x16xf32>, %v: tensor<16x32xf32>, %init: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.mulf %a, %c : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#ik, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n, %v : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  } -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// A producer with two users is never fused (it would be computed twice).
// CHECK-LABEL: func.func @two_users
// CHECK-COUNT-3: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_users(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.addf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.mulf %in, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %b, %c : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A group norm's view of a Linear's output as groups x channels: folding the
// expand_shape into the matmul would split its columns (2048 into 512 x 4),
// so it stays after the matmul (through the bias add only).
// CHECK-LABEL: func.func @expand_columns_of_matmul
// CHECK:         linalg.matmul {{.*}} -> tensor<16x2048xf32>
// CHECK:         tensor.expand_shape {{.*}} output_shape [16, 512, 4]
func.func @expand_columns_of_matmul(%a: tensor<16x64xf32>, %b: tensor<64x2048xf32>, %bias: tensor<2048xf32>) -> tensor<16x512x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x2048xf32>) outs(%c : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<16x2048xf32>, tensor<2048xf32>) outs(%e : tensor<16x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x2048xf32>
  %v = tensor.expand_shape %r [[0], [1, 2]] output_shape [16, 512, 4] : tensor<16x2048xf32> into tensor<16x512x4xf32>
  return %v : tensor<16x512x4xf32>
}

// -----

// Splitting a matmul's rows (an einsum's batches) is harmless: the
// expand_shape folds into it as before (its operands are expanded instead).
// CHECK-LABEL: func.func @expand_rows_of_matmul
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        outs(%{{.*}} : tensor<4x4x2048xf32>)
// CHECK-NOT:     tensor.expand_shape
func.func @expand_rows_of_matmul(%a: tensor<16x64xf32>, %b: tensor<64x2048xf32>) -> tensor<4x4x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x2048xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x64xf32>, tensor<64x2048xf32>) outs(%c : tensor<16x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x2048xf32>
  %v = tensor.expand_shape %m [[0, 1], [2]] output_shape [4, 4, 2048] : tensor<16x2048xf32> into tensor<4x4x2048xf32>
  return %v : tensor<4x4x2048xf32>
}

// -----

// A cheap producer (a cast to f64) read once per element by two
// reductions: each reduction gets its own copy and fuses it, so the f64
// tensor is never written out.
// CHECK-LABEL: func.func @cast_for_two_reductions
// CHECK-NOT:     tensor<4x1024xf64>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x1024xf32>) outs(%{{.*}} : tensor<4xf64>)
// CHECK:           arith.extf
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x1024xf32>) outs(%{{.*}} : tensor<4xf64>)
// CHECK:           arith.extf
// CHECK:           arith.maximumf
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @cast_for_two_reductions(%x: tensor<4x1024xf32>) -> (tensor<4xf64>, tensor<4xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<4x1024xf64>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x1024xf32>) outs(%e : tensor<4x1024xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<4x1024xf64>
  %re = tensor.empty() : tensor<4xf64>
  %init = linalg.fill ins(%zero : f64) outs(%re : tensor<4xf64>) -> tensor<4xf64>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%wide : tensor<4x1024xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<4xf64>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%wide : tensor<4x1024xf64>) outs(%init : tensor<4xf64>) {
  ^bb0(%a: f64, %o: f64):
    %m = arith.maximumf %a, %o : f64
    linalg.yield %m : f64
  } -> tensor<4xf64>
  return %sum, %max : tensor<4xf64>, tensor<4xf64>
}

// -----

// A transpose read by one cast, itself read by two reductions (a batch
// norm's statistics of a channels-last convolution's result, transposed
// back to NCHW): once the cast's copies fuse into the reductions, the
// transpose has two readers-once and is duplicated and fused in turn, so
// neither the NCHW copy nor the f64 one is written out.
// CHECK-LABEL: func.func @transpose_then_cast_for_two_reductions
// CHECK-NOT:     tensor<4x8x16xf32>
// CHECK-NOT:     tensor<4x8x16xf64>
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<4x16x8xf32>) outs(%{{.*}} : tensor<8xf64>)
// CHECK:           arith.extf
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<4x16x8xf32>) outs(%{{.*}} : tensor<8xf64>)
// CHECK:           arith.extf
// CHECK:           arith.maximumf
#nhwc = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#channel = affine_map<(d0, d1, d2) -> (d1)>
func.func @transpose_then_cast_for_two_reductions(%x: tensor<4x16x8xf32>) -> (tensor<8xf64>, tensor<8xf64>) {
  %zero = arith.constant 0.0 : f64
  %et = tensor.empty() : tensor<4x8x16xf32>
  %nchw = linalg.generic {indexing_maps = [#nhwc, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x16x8xf32>) outs(%et : tensor<4x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x16xf64>
  %wide = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%nchw : tensor<4x8x16xf32>) outs(%e : tensor<4x8x16xf64>) {
  ^bb0(%a: f32, %o: f64):
    %w = arith.extf %a : f32 to f64
    linalg.yield %w : f64
  } -> tensor<4x8x16xf64>
  %re = tensor.empty() : tensor<8xf64>
  %init = linalg.fill ins(%zero : f64) outs(%re : tensor<8xf64>) -> tensor<8xf64>
  %sum = linalg.generic {indexing_maps = [#id3, #channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%wide : tensor<4x8x16xf64>) outs(%init : tensor<8xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %a, %o : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  %max = linalg.generic {indexing_maps = [#id3, #channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%wide : tensor<4x8x16xf64>) outs(%init : tensor<8xf64>) {
  ^bb0(%a: f64, %o: f64):
    %m = arith.maximumf %a, %o : f64
    linalg.yield %m : f64
  } -> tensor<8xf64>
  return %sum, %max : tensor<8xf64>, tensor<8xf64>
}

// -----

// A group norm's normalized [N, G, C/G*H*W] view, reshaped back to
// [N, C, H, W] (a collapse then an expand, no single reshape) for the
// per-channel scale: both go through [N, G, C/G, H, W], where the two
// elementwise ops fuse into one.
// CHECK-LABEL: func.func @group_view_back_to_channels
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]
// CHECK:           arith.subf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<2x4x2x8x8xf32> into tensor<2x8x8x8xf32>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @group_view_back_to_channels(%x: tensor<2x4x128xf32>, %scale: tensor<8xf32>) -> tensor<2x8x8x8xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x4x128xf32>
  %shifted = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x128xf32>) outs(%e : tensor<2x4x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<2x4x128xf32>
  %flat = tensor.collapse_shape %shifted [[0], [1, 2]] : tensor<2x4x128xf32> into tensor<2x512xf32>
  %image = tensor.expand_shape %flat [[0], [1, 2, 3]] output_shape [2, 8, 8, 8] : tensor<2x512xf32> into tensor<2x8x8x8xf32>
  %oe = tensor.empty() : tensor<2x8x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id4, #channel, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%image, %scale : tensor<2x8x8x8xf32>, tensor<8xf32>) outs(%oe : tensor<2x8x8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8x8xf32>
  return %r : tensor<2x8x8x8xf32>
}

// -----

// Empty dimensions: no shape refines both (the sizes give no cut points);
// the reshapes stay as they are.
// CHECK-LABEL: func.func @empty_view
// CHECK:         tensor.collapse_shape
// CHECK:         tensor.expand_shape
#e2 = affine_map<(d0, d1) -> (d0, d1)>
#e1 = affine_map<(d0) -> (d0)>
func.func @empty_view(%x: tensor<5x0xf32>) -> tensor<3x0xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<5x0xf32>
  %a = linalg.generic {indexing_maps = [#e2, #e2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x0xf32>) outs(%e : tensor<5x0xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %one : f32
    linalg.yield %s : f32
  } -> tensor<5x0xf32>
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<5x0xf32> into tensor<0xf32>
  %view = tensor.expand_shape %flat [[0, 1]] output_shape [3, 0] : tensor<0xf32> into tensor<3x0xf32>
  %oe = tensor.empty() : tensor<3x0xf32>
  %r = linalg.generic {indexing_maps = [#e2, #e2], iterator_types = ["parallel", "parallel"]}
      ins(%view : tensor<3x0xf32>) outs(%oe : tensor<3x0xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}

// -----

// A bias broadcast to NCHW that a generic transposes to NHWC (a convolution
// made channels-last) fuses into it: one generic reads the bias directly;
// nothing of the NCHW shape is written.
// CHECK-LABEL: func.func @broadcast_into_transpose
// CHECK-NOT:     linalg.broadcast
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<64xf32>) outs(%{{.*}} : tensor<4x126x126x64xf32>)
// CHECK-NOT:     linalg.generic
func.func @broadcast_into_transpose(%bias: tensor<64xf32>) -> tensor<4x126x126x64xf32> {
  %nchw = tensor.empty() : tensor<4x64x126x126xf32>
  %b = linalg.broadcast ins(%bias : tensor<64xf32>) outs(%nchw : tensor<4x64x126x126xf32>) dimensions = [0, 2, 3]
  %nhwc = tensor.empty() : tensor<4x126x126x64xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<4x64x126x126xf32>) outs(%nhwc : tensor<4x126x126x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x126x126x64xf32>
  return %t : tensor<4x126x126x64xf32>
}

// -----

// A broadcast that a named op reads stays named.
// CHECK-LABEL: func.func @broadcast_into_matmul
// CHECK:         linalg.broadcast
// CHECK:         linalg.matmul
func.func @broadcast_into_matmul(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>, %bias: tensor<32xf32>) -> tensor<8x32xf32> {
  %e = tensor.empty() : tensor<8x32xf32>
  %init = linalg.broadcast ins(%bias : tensor<32xf32>) outs(%e : tensor<8x32xf32>) dimensions = [0]
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%init : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// A transpose that only moves a unit dimension becomes a generic, and with
// the unit dimension folded out (linalg-fold-unit-extent-dims,
// canonicalize) nothing is left of it.
// CHECK-LABEL: func.func @unit_transpose
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:         return
// UNIT-LABEL: func.func @unit_transpose
// UNIT-NOT:     linalg.
// UNIT:         return
func.func @unit_transpose(%x: tensor<4x1x384xf32>) -> tensor<4x384x1xf32> {
  %e = tensor.empty() : tensor<4x384x1xf32>
  %t = linalg.transpose ins(%x : tensor<4x1x384xf32>) outs(%e : tensor<4x384x1xf32>) permutation = [0, 2, 1]
  return %t : tensor<4x384x1xf32>
}
