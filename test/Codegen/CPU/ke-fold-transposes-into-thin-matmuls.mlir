// RUN: ke-opt %s -split-input-file --ke-fold-transposes-into-thin-matmuls | FileCheck %s
// RUN: ke-opt %s -split-input-file '--ke-fold-transposes-into-thin-matmuls=most-rows=0' | FileCheck %s --check-prefix=NONE
// RUN: ke-opt %s -split-input-file '--ke-fold-transposes-into-thin-matmuls=most-rows=1 any-f32-product=true' -mlir-print-local-scope | FileCheck %s --check-prefix=ANY

// A Linear layer at batch 1 as torch-mlir writes it: the weight copied
// through a transposing generic, then a plain matmul. The matmul reads the
// weight itself as B[n][k]; the copy is left dead.
// CHECK-LABEL: func.func @linear_batch_1
// CHECK:         %[[Y:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg0, %arg1 : tensor<1x64xf32>, tensor<32x64xf32>) outs(%{{.*}} : tensor<1x32xf32>)
// CHECK:         return %[[Y]]
// NONE-LABEL:  func.func @linear_batch_1
// NONE:          linalg.matmul ins(%arg0, %{{.*}} : tensor<1x64xf32>, tensor<64x32xf32>)
#t = affine_map<(d0, d1) -> (d1, d0)>
#i = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear_batch_1(%x: tensor<1x64xf32>, %w: tensor<32x64xf32>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.generic {indexing_maps = [#t, #i], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x32xf32>
  %o = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<1x32xf32>) -> tensor<1x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %y : tensor<1x32xf32>
}

// -----

// linalg.transpose with 8 rows (the most folded by default): folded too.
// CHECK-LABEL: func.func @transpose_8_rows
// CHECK:         linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%arg0, %arg1 : tensor<8x64xf32>, tensor<32x64xf32>)
func.func @transpose_8_rows(%x: tensor<8x64xf32>, %w: tensor<32x64xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<8x64xf32>, tensor<64x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// -----

// Left alone: 16 rows (the transpose is the packing the schedule would
// do), a B that is no transpose, and a copy that is not a plain transpose.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins
#t = affine_map<(d0, d1) -> (d1, d0)>
#i = affine_map<(d0, d1) -> (d0, d1)>
func.func @left_alone(%x: tensor<16x64xf32>, %v: tensor<1x64xf32>, %w: tensor<32x64xf32>, %b: tensor<64x32xf32>) -> (tensor<16x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<16x32xf32>) -> tensor<16x32xf32>
  %y = linalg.matmul ins(%x, %t : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o1 = tensor.empty() : tensor<1x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%o1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %z = linalg.matmul ins(%v, %b : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  %n = linalg.generic {indexing_maps = [#t, #i], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.negf %in : f32
    linalg.yield %neg : f32
  } -> tensor<64x32xf32>
  %u = linalg.matmul ins(%v, %n : tensor<1x64xf32>, tensor<64x32xf32>) outs(%f1 : tensor<1x32xf32>) -> tensor<1x32xf32>
  return %y, %z, %u : tensor<16x32xf32>, tensor<1x32xf32>, tensor<1x32xf32>
}

// -----

// The GPU's setting: an f32 product of any shape reads a transposed A as
// A[k][m] and a transposed B as B[n][k]; a bf16 one keeps its transposes.
// ANY-LABEL: func.func @transposed_both
// ANY:         %[[Y:.*]] = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%arg0, %arg1 : tensor<64x128xf32>, tensor<32x64xf32>) outs(%{{.*}} : tensor<128x32xf32>)
// ANY:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x64xbf16>, tensor<64x32xbf16>)
// ANY:         return %[[Y]]
// CHECK-LABEL: func.func @transposed_both
// CHECK-NOT:     indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins
func.func @transposed_both(%a: tensor<64x128xf32>, %b: tensor<32x64xf32>, %ah: tensor<64x128xbf16>, %bh: tensor<32x64xbf16>) -> (tensor<128x32xf32>, tensor<128x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<128x64xf32>
  %ta = linalg.transpose ins(%a : tensor<64x128xf32>) outs(%ea : tensor<128x64xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<64x32xf32>
  %tb = linalg.transpose ins(%b : tensor<32x64xf32>) outs(%eb : tensor<64x32xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<128x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<128x32xf32>) -> tensor<128x32xf32>
  %y = linalg.matmul ins(%ta, %tb : tensor<128x64xf32>, tensor<64x32xf32>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  %eah = tensor.empty() : tensor<128x64xbf16>
  %tah = linalg.transpose ins(%ah : tensor<64x128xbf16>) outs(%eah : tensor<128x64xbf16>) permutation = [1, 0]
  %ebh = tensor.empty() : tensor<64x32xbf16>
  %tbh = linalg.transpose ins(%bh : tensor<32x64xbf16>) outs(%ebh : tensor<64x32xbf16>) permutation = [1, 0]
  %h = linalg.matmul ins(%tah, %tbh : tensor<128x64xbf16>, tensor<64x32xbf16>) outs(%f : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %y, %h : tensor<128x32xf32>, tensor<128x32xf32>
}
