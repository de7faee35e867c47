// Products masked on one side of a diagonal (torch.tril / triu of A @ B, a
// causal mask over scores), run by ke-run against their naive lowering:
// see masked-products.test.
func.func @tril(%arg0: tensor<64x40xf32>, %arg1: tensor<40x64xf32>) -> tensor<64x64xf32> attributes {ke.kernel} {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<64x40xf32>, tensor<40x64xf32>) outs(%1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = tensor.empty() : tensor<64xi64>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%3 : tensor<64xi64>) {
  ^bb0(%out: i64):
    %6 = linalg.index 0 : index
    %7 = arith.index_cast %6 : index to i64
    linalg.yield %7 : i64
  } -> tensor<64xi64>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %4, %2 : tensor<64xi64>, tensor<64xi64>, tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) {
  ^bb0(%in: i64, %in_0: i64, %in_1: f32, %out: f32):
    %6 = arith.subi %in, %in_0 : i64
    %7 = arith.cmpi sle, %6, %c0_i64 : i64
    %8 = arith.select %7, %in_1, %cst : f32
    linalg.yield %8 : f32
  } -> tensor<64x64xf32>
  return %5 : tensor<64x64xf32>
}

// triu with a diagonal offset of 2, over 90 rows (3 blocks of 30).
func.func @triu_offset(%a: tensor<90x40xf32>, %b: tensor<40x90xf32>) -> tensor<90x90xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2 : index
  %e = tensor.empty() : tensor<90x90xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<90x90xf32>) -> tensor<90x90xf32>
  %p = linalg.matmul ins(%a, %b : tensor<90x40xf32>, tensor<40x90xf32>) outs(%f : tensor<90x90xf32>) -> tensor<90x90xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<90x90xf32>) outs(%e : tensor<90x90xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %shifted = arith.addi %i, %two : index
    %upper = arith.cmpi sge, %j, %shifted : index
    %v = arith.select %upper, %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<90x90xf32>
  return %m : tensor<90x90xf32>
}

// A causal mask's -inf over batched scores.
func.func @causal(%q: tensor<2x48x16xf32>, %k: tensor<2x16x48xf32>) -> tensor<2x48x48xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x48x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x48x48xf32>) -> tensor<2x48x48xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x48x16xf32>, tensor<2x16x48xf32>) outs(%f : tensor<2x48x48xf32>) -> tensor<2x48x48xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x48x48xf32>) outs(%e : tensor<2x48x48xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %after = arith.cmpi sgt, %j, %i : index
    %v = arith.select %after, %ninf, %x : f32
    linalg.yield %v : f32
  } -> tensor<2x48x48xf32>
  return %m : tensor<2x48x48xf32>
}
