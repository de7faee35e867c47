// RUN: ke-opt %s -split-input-file --ke-widen-long-sums | FileCheck %s

// A batch norm's mean: the batch and the pixels reduced on either side of
// the channels, 4 x 16384 terms a channel. Summed into an f64 accumulator
// (the fill extended, each term extended), then rounded to f32 once.
// CHECK-LABEL: func.func @channel_sum
// CHECK:         %[[ZERO:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%{{.*}} : tensor<1x8x1xf64>)
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]} ins(%arg0 : tensor<4x8x16384xf32>) outs(%[[INIT]] : tensor<1x8x1xf64>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f64):
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:      %[[ADD:.*]] = arith.addf %[[WIDE]], %[[ACC]] : f64
// CHECK-NEXT:      linalg.yield %[[ADD]] : f64
// CHECK:         %[[NARROW:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x8x1xf64>) outs(%{{.*}} : tensor<1x8x1xf32>)
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK:         return %[[NARROW]]
#x = affine_map<(n, c, p) -> (n, c, p)>
#s = affine_map<(n, c, p) -> (0, c, 0)>
func.func @channel_sum(%x: tensor<4x8x16384xf32>) -> tensor<1x8x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %r = linalg.generic {indexing_maps = [#x, #s], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<4x8x16384xf32>) outs(%z : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x8x1xf32>
  return %r : tensor<1x8x1xf32>
}

// -----

// A sum of squared deviations (the variance's), its term computed in the
// body from two inputs, the accumulator the addition's first operand and
// the output not a fill: the term's ops kept, the output extended by a
// generic of its own.
// CHECK-LABEL: func.func @deviations
// CHECK:         %[[INIT:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<1x8x1xf32>) outs(%{{.*}} : tensor<1x8x1xf64>)
// CHECK:           arith.extf %{{.*}} : f32 to f64
// CHECK:         linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8x16384xf32>, tensor<1x8x1xf32>) outs(%[[INIT]] : tensor<1x8x1xf64>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %[[ACC:.*]]: f64):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT:      %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT:      %[[WIDE:.*]] = arith.extf %[[D2]] : f32 to f64
// CHECK-NEXT:      arith.addf %[[WIDE]], %[[ACC]] : f64
// CHECK:           arith.truncf %{{.*}} : f64 to f32
#x = affine_map<(n, c, p) -> (n, c, p)>
#s = affine_map<(n, c, p) -> (0, c, 0)>
func.func @deviations(%x: tensor<4x8x16384xf32>, %mean: tensor<1x8x1xf32>, %init: tensor<1x8x1xf32>) -> tensor<1x8x1xf32> {
  %r = linalg.generic {indexing_maps = [#x, #s, #s], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %mean : tensor<4x8x16384xf32>, tensor<1x8x1xf32>) outs(%init : tensor<1x8x1xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %acc, %d2 : f32
    linalg.yield %a : f32
  } -> tensor<1x8x1xf32>
  return %r : tensor<1x8x1xf32>
}

// -----

// Left alone: reduction loops that are one run (the schedule splits those
// into lanes and chunks), and a split sum shorter than least-terms.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     f64
#x = affine_map<(c, n, p) -> (c, n, p)>
#s = affine_map<(c, n, p) -> (c)>
#y = affine_map<(n, c, p) -> (n, c, p)>
#t = affine_map<(n, c, p) -> (c)>
func.func @left_alone(%x: tensor<8x4x16384xf32>, %y: tensor<4x8x1024xf32>, %init: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r = linalg.generic {indexing_maps = [#x, #s], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x4x16384xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  %q = linalg.generic {indexing_maps = [#y, #t], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%y : tensor<4x8x1024xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %r, %q : tensor<8xf32>, tensor<8xf32>
}
