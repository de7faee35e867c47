// i16: ((a / d) << s) >> 1 (arithmetic), plus a % d, with d in [1, 9) and s in [0, 4).
func.func @int_ops(%a: tensor<256xi16>, %d: tensor<256xi16> {ke.range = [1, 9]}, %s: tensor<256xi16> {ke.range = [0, 4]}) -> tensor<256xi16> attributes {ke.kernel} {
  %one = arith.constant dense<1> : tensor<256xi16>
  %q = arith.divsi %a, %d : tensor<256xi16>
  %sh = arith.shli %q, %s : tensor<256xi16>
  %sr = arith.shrsi %sh, %one : tensor<256xi16>
  %rem = arith.remsi %a, %d : tensor<256xi16>
  %r = arith.addi %sr, %rem : tensor<256xi16>
  return %r : tensor<256xi16>
}
