// Correct results, but the kernel also writes its input in place (through a
// raw pointer to the input's buffer), which the harness must refuse.
func.func @add_one(%x: tensor<256xf32>) -> tensor<256xf32> attributes {ke.kernel} {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %0 = arith.addf %x, %c : tensor<256xf32>
  %m = bufferization.to_buffer %x read_only : tensor<256xf32> to memref<256xf32>
  %address = memref.extract_aligned_pointer_as_index %m : memref<256xf32> -> index
  %integer = arith.index_cast %address : index to i64
  %pointer = llvm.inttoptr %integer : i64 to !llvm.ptr
  %v = arith.constant 42.0 : f32
  llvm.store %v, %pointer : f32, !llvm.ptr
  return %0 : tensor<256xf32>
}
