// The mean of 2M squares (an MSE loss): summed in f32 in loop order the
// reference drifts to 0.62 where the exact mean is 0.63, on the
// special-values seed as on the others.
func.func @mean_of_squares(%x: tensor<64x32768xf32>) -> tensor<f32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 2097152.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<64x32768xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.mulf %a, %a : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  %mean = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%sum : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.divf %a, %count : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %mean : tensor<f32>
}
