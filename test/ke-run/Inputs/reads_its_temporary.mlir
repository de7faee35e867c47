// Adds a temporary it never wrote (tensor.empty's value is undefined) and
// scales the sum: the temporary is 512 KiB, a block the kernel heap keeps.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @reads_its_temporary(%x: tensor<128x1024xf32>) -> tensor<128x1024xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<128x1024xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x1024xf32>) outs(%e : tensor<128x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<128x1024xf32>
  %f = tensor.empty() : tensor<128x1024xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<128x1024xf32>) outs(%f : tensor<128x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<128x1024xf32>
  return %r : tensor<128x1024xf32>
}
