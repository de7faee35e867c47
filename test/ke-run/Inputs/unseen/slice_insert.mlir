// Take a strided interior slice, negate it, write it into a zeroed tensor.
func.func @slice_insert(%x: tensor<64x64xf32>) -> tensor<64x64xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[4, 8] [16, 24] [2, 1] : tensor<64x64xf32> to tensor<16x24xf32>
  %e = tensor.empty() : tensor<16x24xf32>
  %n = linalg.negf ins(%s : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %eo = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%eo : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = tensor.insert_slice %n into %z[10, 20] [16, 24] [3, 1] : tensor<16x24xf32> into tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
