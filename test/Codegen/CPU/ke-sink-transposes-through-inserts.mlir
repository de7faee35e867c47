// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-sink-transposes-through-inserts))' | FileCheck %s

// Two output phases of a stride-2 transposed convolution, each computed
// channels-last and transposed back to NCHW before its insert: the inserts
// now build the result channels-last (strides permuted with the
// dimensions) and one transpose of the whole result is left at the end.
#nhwc_to_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @phases
// CHECK-SAME:    (%[[A:.*]]: tensor<1x4x4x8xf32>, %[[B:.*]]: tensor<1x4x4x8xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x8x8x8xf32>
// CHECK:         %[[FIRST:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0, 0, 0] [1, 4, 4, 8] [1, 2, 2, 1]
// CHECK:         %[[BOTH:.*]] = tensor.insert_slice %[[B]] into %[[FIRST]][0, 0, 1, 0] [1, 4, 4, 8] [1, 2, 2, 1]
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[BOTH]] : tensor<1x8x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[T]]
func.func @phases(%a: tensor<1x4x4x8xf32>, %b: tensor<1x4x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %out = tensor.empty() : tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %ta = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %0 = tensor.insert_slice %ta into %out[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 2, 2] : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
  %tb = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %1 = tensor.insert_slice %tb into %0[0, 0, 0, 1] [1, 8, 4, 4] [1, 1, 2, 2] : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
  return %1 : tensor<1x8x8x8xf32>
}

// -----

// Left alone: a destination that is neither empty nor the same copy (its
// values would have to be transposed too), a copy read twice, and a
// generic that computes (not a copy).
#nhwc_to_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @not_sunk
// CHECK-COUNT-3: tensor.insert_slice {{.*}} : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
func.func @not_sunk(%a: tensor<1x4x4x8xf32>, %dest: tensor<1x8x8x8xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x8x4x4xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) {
  %out = tensor.empty() : tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %0 = tensor.insert_slice %t into %dest[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 2, 2] : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
  %u = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %1 = tensor.insert_slice %u into %out[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 2, 2] : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
  %v = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x8x4x4xf32>
  %2 = tensor.insert_slice %v into %out[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 2, 2] : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
  return %0, %u, %1, %2 : tensor<1x8x8x8xf32>, tensor<1x8x4x4xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
}

// -----

// Left alone: a reduction over the channels reads the result (fused there,
// the permuted read ran scalar).
#nhwc_to_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#no_channels = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @read_by_reduction
// CHECK:         tensor.insert_slice {{.*}} : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
func.func @read_by_reduction(%a: tensor<1x4x4x8xf32>, %acc: tensor<1x8x8xf32>) -> tensor<1x8x8xf32> {
  %out = tensor.empty() : tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.generic {indexing_maps = [#nhwc_to_nchw, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32>
  %0 = tensor.insert_slice %t into %out[0, 0, 0, 0] [1, 8, 4, 4] [1, 1, 2, 2] : tensor<1x8x4x4xf32> into tensor<1x8x8x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #no_channels], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%0 : tensor<1x8x8x8xf32>) outs(%acc : tensor<1x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %x = arith.maximumf %in, %o : f32
    linalg.yield %x : f32
  } -> tensor<1x8x8xf32>
  return %m : tensor<1x8x8xf32>
}
