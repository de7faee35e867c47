// Four steps of y = tanh(y * 0.5 + x), carried as a tensor iter_arg in scf.for.
func.func @scf_iter(%x: tensor<32x64xf32>) -> tensor<32x64xf32> attributes {ke.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %half = arith.constant dense<0.5> : tensor<32x64xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%y = %x) -> (tensor<32x64xf32>) {
    %m = arith.mulf %y, %half : tensor<32x64xf32>
    %a = arith.addf %m, %x : tensor<32x64xf32>
    %t = math.tanh %a : tensor<32x64xf32>
    scf.yield %t : tensor<32x64xf32>
  }
  return %r : tensor<32x64xf32>
}
