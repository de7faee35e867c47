// A long sum whose body reads f32's bits: not valid in f64, so the
// reference stays in f32 and says why.
func.func @long_sum_of_bits(%x: tensor<4x2048xf32>) -> tensor<4xi32> attributes {ke.kernel} {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %bits = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x2048xf32>) outs(%f : tensor<4xi32>) {
  ^bb0(%a: f32, %acc: i32):
    %b = arith.bitcast %a : f32 to i32
    %s = arith.xori %b, %acc : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  %g = tensor.empty() : tensor<4xf32>
  %zf = arith.constant 0.0 : f32
  %ff = linalg.fill ins(%zf : f32) outs(%g : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%x : tensor<4x2048xf32>) outs(%ff : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  %r = arith.fptosi %sum : tensor<4xf32> to tensor<4xi32>
  %out = arith.addi %bits, %r : tensor<4xi32>
  return %out : tensor<4xi32>
}
