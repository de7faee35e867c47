// A front end's padding: a splat tensor constant concatenated in front of
// the input (KernelBench's cumulative sum), and a splat operand of an
// elementwise op. Neither may become a host global on a GPU target.
func.func @shift(%x: tensor<4x7xf32>) -> tensor<4x8xf32> attributes {ke.kernel} {
  %zeros = arith.constant dense<0.0> : tensor<4x1xf32>
  %floor = arith.constant dense<0.0> : tensor<f32>
  %cat = tensor.concat dim(1) %zeros, %x : (tensor<4x1xf32>, tensor<4x7xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%floor, %cat : tensor<f32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%f: f32, %v: f32, %o: f32):
    %m = arith.maximumf %f, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
