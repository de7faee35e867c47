// The only proposal for @mm: the reference's own computation, which ke-run
// evaluates without a schedule (plain loops), slower than ke's default
// lowering.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @plain(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>) -> tensor<256x256xf32> attributes {ke.strategy = "plain loops"} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
