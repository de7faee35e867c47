// Two kernels in one file, and an untagged helper that is ignored.
func.func @neg(%x: tensor<32xf32>) -> tensor<32xf32> attributes {ke.kernel} {
  %0 = arith.negf %x : tensor<32xf32>
  return %0 : tensor<32xf32>
}
func.func @helper(%x: tensor<32xf32>) -> tensor<32xf32> {
  return %x : tensor<32xf32>
}
func.func @sq(%x: tensor<32xi32>) -> tensor<32xi32> attributes {ke.kernel} {
  %0 = arith.muli %x, %x : tensor<32xi32>
  return %0 : tensor<32xi32>
}
