// RUN: ke-opt %s -split-input-file --ke-widen-contraction-inputs | FileCheck %s

// A bf16 matmul into f32: both inputs extended into f32 tensors, the
// matmul (its transposed-B maps kept) on those.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<16x32xbf16>) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<24x32xbf16>) outs(%{{.*}} : tensor<24x32xf32>)
// CHECK:         linalg.matmul indexing_maps = [{{.*}}] ins(%[[A]], %[[B]] : tensor<16x32xf32>, tensor<24x32xf32>) outs(%{{.*}} : tensor<16x24xf32>)
func.func @matmul_bf16(%a: tensor<16x32xbf16>, %b: tensor<24x32xbf16>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<16x32xbf16>, tensor<24x32xbf16>) outs(%z : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %c : tensor<16x24xf32>
}

// -----

// A generic contraction extending its f16 inputs in its body: the inputs
// are extended before it and its body multiplies the f32 arguments.
// CHECK-LABEL: func.func @generic_f16
// CHECK:         linalg.generic {{.*}} ins(%arg0 : tensor<8x4xf16>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%arg1 : tensor<4x8xf16>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      arith.addf %[[ACC]], %[[P]] : f32
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @generic_f16(%x: tensor<8x4xf16>, %y: tensor<4x8xf16>, %init: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<8x4xf16>, tensor<4x8xf16>) outs(%init : tensor<8x8xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pw = arith.extf %p : f16 to f32
    %qw = arith.extf %q : f16 to f32
    %m = arith.mulf %pw, %qw : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Left alone: f32 inputs, a bf16 result, and a generic that also uses an
// input's bf16 value as it is (not only extended).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     arith.extf %{{.*}} : bf16 to f32{{$}}
// CHECK:         linalg.matmul ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:         linalg.matmul ins(%arg2, %arg3 : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%{{.*}} : tensor<8x8xbf16>)
// CHECK:         linalg.generic {{.*}} ins(%arg2, %arg3 : tensor<8x8xbf16>, tensor<8x8xbf16>)
func.func @left_alone(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xbf16>, %d: tensor<8x8xbf16>, %f: tensor<8x8xf32>, %h: tensor<8x8xbf16>) -> (tensor<8x8xf32>, tensor<8x8xbf16>, tensor<8x8xf32>) {
  %r0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r1 = linalg.matmul ins(%c, %d : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%h : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%c, %d : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %prod = arith.mulf %p, %q : bf16
    %w = arith.extf %prod : bf16 to f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r0, %r1, %r2 : tensor<8x8xf32>, tensor<8x8xbf16>, tensor<8x8xf32>
}
