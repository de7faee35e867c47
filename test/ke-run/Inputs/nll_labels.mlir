// A negative log-likelihood over class labels (i64, no ke.range) as
// torch-mlir writes it: an ignore-index select, a reshape, then the label
// used as an index behind cf.asserts. The valid range [0, 512) is inferred
// from the tensor.extract the labels index.
func.func @nll_labels(%logp: tensor<128x512xf32>, %labels: tensor<128xi64>) -> tensor<f32> attributes {ke.kernel} {
  %ignore = arith.constant -100 : i64
  %c0_i64 = arith.constant 0 : i64
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128xi64>
  %kept = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%labels : tensor<128xi64>) outs(%e : tensor<128xi64>) {
  ^bb0(%l: i64, %o: i64):
    %keep = arith.cmpi ne, %l, %ignore : i64
    %s = arith.select %keep, %l, %c0_i64 : i64
    linalg.yield %s : i64
  } -> tensor<128xi64>
  %col = tensor.expand_shape %kept [[0, 1]] output_shape [128, 1] : tensor<128xi64> into tensor<128x1xi64>
  %e2 = tensor.empty() : tensor<128x1xf32>
  %picked = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%col : tensor<128x1xi64>) outs(%e2 : tensor<128x1xf32>) {
  ^bb0(%l: i64, %o: f32):
    %row = linalg.index 0 : index
    %c = arith.index_cast %l : i64 to index
    %lt = arith.cmpi slt, %c, %c512 : index
    cf.assert %lt, "index must be smaller than dim size"
    %ge = arith.cmpi sge, %l, %c0_i64 : i64
    cf.assert %ge, "index must be larger or equal to 0"
    %v = tensor.extract %logp[%row, %c] : tensor<128x512xf32>
    linalg.yield %v : f32
  } -> tensor<128x1xf32>
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%picked : tensor<128x1xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %n = arith.negf %v : f32
    %s = arith.addf %n, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}
