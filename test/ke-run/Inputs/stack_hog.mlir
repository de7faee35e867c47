// Returns its input, but each of its 100000 loop iterations allocates a
// 4 KiB stack temporary that lives until the function returns: 400 MB of
// stack, far beyond the usual 8 MiB.
func.func @copy(%x: tensor<1024xf32>) -> tensor<1024xf32> attributes {ke.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %n = arith.constant 100000 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %buf = memref.alloca() : memref<1024xf32>
    %j = arith.remui %i, %c1024 : index
    %c7 = arith.constant 7 : index
    %i7 = arith.muli %i, %c7 : index
    %k = arith.remui %i7, %c1024 : index
    memref.store %acc, %buf[%j] : memref<1024xf32>
    %v = memref.load %buf[%k] : memref<1024xf32>
    %w = arith.mulf %v, %zero : f32
    %next = arith.addf %w, %zero : f32
    scf.yield %next : f32
  }
  %first = tensor.extract %x[%c0] : tensor<1024xf32>
  %same = arith.addf %first, %sum : f32
  %r = tensor.insert %same into %x[%c0] : tensor<1024xf32>
  return %r : tensor<1024xf32>
}
