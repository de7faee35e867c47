// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[8] v; c=[] r=[1,16] v"}))' 2>&1 | FileCheck %s

// A max-and-argmax reduction with its argmax unused, as torch-mlir writes a max over
// a dimension: preparing the payload drops the unused result and folds the
// unit dimension, so the plain max reduction vectorizes as scheduled.
// CHECK-NOT: warning
// CHECK-LABEL: func.func @max_only
// CHECK-NOT:     i64
// CHECK:         vector.multi_reduction <maximumf>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @max_only(%x: tensor<8x64xf32>) -> tensor<8x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8x1xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<8x1xf32>) -> tensor<8x1xf32>
  %ei = tensor.empty() : tensor<8x1xi64>
  %i0 = linalg.fill ins(%zero : i64) outs(%ei : tensor<8x1xi64>) -> tensor<8x1xi64>
  %r:2 = linalg.generic {indexing_maps = [#rows, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf32>) outs(%m0, %i0 : tensor<8x1xf32>, tensor<8x1xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i64
    %mx = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %s = arith.select %gt, %ci, %i : i64
    linalg.yield %mx, %s : f32, i64
  } -> (tensor<8x1xf32>, tensor<8x1xi64>)
  return %r#0 : tensor<8x1xf32>
}
