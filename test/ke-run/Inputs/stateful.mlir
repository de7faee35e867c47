// Correct on its first four calls only (a counter in a global): the checks
// before timing pass, the timed calls compute something else.
memref.global "private" @calls : memref<i64> = dense<0>
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel} {
  %g = memref.get_global @calls : memref<i64>
  %n = memref.load %g[] : memref<i64>
  %one = arith.constant 1 : i64
  %next = arith.addi %n, %one : i64
  memref.store %next, %g[] : memref<i64>
  %four = arith.constant 4 : i64
  %early = arith.cmpi slt, %n, %four : i64
  %right = arith.constant 1.0 : f32
  %wrong = arith.constant 0.0 : f32
  %add = arith.select %early, %right, %wrong : f32
  %c = tensor.splat %add : tensor<256xf32>
  %0 = arith.addf %x, %c : tensor<256xf32>
  return %0 : tensor<256xf32>
}
