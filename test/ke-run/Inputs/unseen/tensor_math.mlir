// Whole-tensor arith/math: select(x > 0, erf(x) + sqrt|x|, log(|x|+1) * rsqrt(|x|+0.5)) + pow(|y|+0.1, 1.5).
func.func @tensor_math(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> tensor<1024xf32> attributes {ke.kernel} {
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %one = arith.constant dense<1.0> : tensor<1024xf32>
  %half = arith.constant dense<0.5> : tensor<1024xf32>
  %tenth = arith.constant dense<0.1> : tensor<1024xf32>
  %p15 = arith.constant dense<1.5> : tensor<1024xf32>
  %ax = math.absf %x : tensor<1024xf32>
  %erf = math.erf %x : tensor<1024xf32>
  %sq = math.sqrt %ax : tensor<1024xf32>
  %pos = arith.addf %erf, %sq : tensor<1024xf32>
  %ax1 = arith.addf %ax, %one : tensor<1024xf32>
  %lg = math.log %ax1 : tensor<1024xf32>
  %axh = arith.addf %ax, %half : tensor<1024xf32>
  %rs = math.rsqrt %axh : tensor<1024xf32>
  %neg = arith.mulf %lg, %rs : tensor<1024xf32>
  %c = arith.cmpf ogt, %x, %zero : tensor<1024xf32>
  %sel = arith.select %c, %pos, %neg : tensor<1024xi1>, tensor<1024xf32>
  %ay = math.absf %y : tensor<1024xf32>
  %ay1 = arith.addf %ay, %tenth : tensor<1024xf32>
  %pw = math.powf %ay1, %p15 : tensor<1024xf32>
  %r = arith.addf %sel, %pw : tensor<1024xf32>
  return %r : tensor<1024xf32>
}
