// A kernel that calls a function with no body: nothing to inline.
func.func private @opaque(tensor<256xf32>) -> tensor<256xf32>
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel} {
  %0 = func.call @opaque(%x) : (tensor<256xf32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
}
