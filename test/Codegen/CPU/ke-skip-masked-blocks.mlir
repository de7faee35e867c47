// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-skip-masked-blocks))' | FileCheck %s
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-skip-masked-blocks{blocks=1}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: ke-skip-masked-blocks: blocks must be at least 2, got 1

// torch.tril(A @ B) as torch-mlir writes it: an iota, and a mask keeping
// element (i, j) where j - i <= 0. Four blocks of 16 rows; block b keeps
// columns [0, 16 (b + 1)): its product is 16 x 16 (b + 1), the columns
// after it a fill of the mask's 0. The whole product is gone.
// CHECK-LABEL: func.func @tril
// CHECK-NOT:     linalg.matmul {{.*}} tensor<64x64xf32>
// CHECK:         tensor<64xi64>
// CHECK:         %[[RESULT:.*]] = tensor.empty() : tensor<64x64xf32>
// CHECK:         %[[ZEROS:.*]] = linalg.fill {{.*}} -> tensor<16x48xf32>
// CHECK:         %[[R0:.*]] = tensor.insert_slice %[[ZEROS]] into %[[RESULT]][0, 16] [16, 48]
// CHECK:         %[[A0:.*]] = tensor.extract_slice %arg0[0, 0] [16, 32]
// CHECK:         %[[B0:.*]] = tensor.extract_slice %arg1[0, 0] [32, 16]
// CHECK:         %[[C0:.*]] = linalg.fill {{.*}} -> tensor<16x16xf32>
// CHECK:         %[[P0:.*]] = linalg.matmul ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : tensor<16x16xf32>)
// CHECK:         %[[M0:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[P0]] : tensor<16xi64>, tensor<16xi64>, tensor<16x16xf32>)
// CHECK:         %[[R1:.*]] = tensor.insert_slice %[[M0]] into %[[R0]][0, 0] [16, 16]
// CHECK:         linalg.fill {{.*}} -> tensor<16x32xf32>
// CHECK:         tensor.insert_slice {{.*}}[16, 32] [16, 32]
// CHECK:         linalg.matmul {{.*}} outs(%{{.*}} : tensor<16x32xf32>)
// CHECK:         linalg.matmul {{.*}} outs(%{{.*}} : tensor<16x48xf32>)
// The last block keeps every column: no fill.
// CHECK-NOT:     linalg.fill {{.*}} -> tensor<16x0xf32>
// CHECK:         %[[A3:.*]] = tensor.extract_slice %arg0[48, 0] [16, 32]
// CHECK:         linalg.matmul {{.*}} outs(%{{.*}} : tensor<16x64xf32>)
// CHECK:         %[[LAST:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[48, 0] [16, 64]
// CHECK:         return %[[LAST]]
func.func @tril(%arg0: tensor<64x32xf32>, %arg1: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<64x32xf32>, tensor<32x64xf32>) outs(%1 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = tensor.empty() : tensor<64xi64>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%3 : tensor<64xi64>) {
  ^bb0(%out: i64):
    %6 = linalg.index 0 : index
    %7 = arith.index_cast %6 : index to i64
    linalg.yield %7 : i64
  } -> tensor<64xi64>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %4, %2 : tensor<64xi64>, tensor<64xi64>, tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) {
  ^bb0(%in: i64, %in_0: i64, %in_1: f32, %out: f32):
    %6 = arith.subi %in, %in_0 : i64
    %7 = arith.cmpi sle, %6, %c0_i64 : i64
    %8 = arith.select %7, %in_1, %cst : f32
    linalg.yield %8 : f32
  } -> tensor<64x64xf32>
  return %5 : tensor<64x64xf32>
}

// -----

// A causal mask over batched scores with linalg.index: -inf where the key
// j lies after the query i (kept where j > i fails). Blocks of the query
// rows (the outer loop of the two, d1) keep keys [0, 16 (b + 1)); the
// batch loop stays whole, and the tiled mask's indices are offset.
// CHECK-LABEL: func.func @causal
// CHECK:         %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT:     arith.constant 0xFF800000
// CHECK:         linalg.fill ins(%[[NEG]] : f32) {{.*}} -> tensor<2x16x48xf32>
// CHECK:         tensor.insert_slice {{.*}}[0, 0, 16] [2, 16, 48]
// CHECK:         linalg.batch_matmul {{.*}} outs(%{{.*}} : tensor<2x16x16xf32>)
// CHECK:         linalg.generic
// CHECK:           linalg.index 1
// CHECK:           linalg.index 2
// CHECK:         linalg.batch_matmul {{.*}} outs(%{{.*}} : tensor<2x16x64xf32>)
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         return
func.func @causal(%q: tensor<2x64x8xf32>, %k: tensor<2x8x64xf32>) -> tensor<2x64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x64x8xf32>, tensor<2x8x64xf32>) outs(%f : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x64x64xf32>) outs(%e : tensor<2x64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %after = arith.cmpi sgt, %j, %i : index
    %v = arith.select %after, %ninf, %x : f32
    linalg.yield %v : f32
  } -> tensor<2x64x64xf32>
  return %m : tensor<2x64x64xf32>
}

// -----

// Left alone: a mask that keeps a band of width 1 (eq is not a half-plane),
// and a product read by more than its mask.
// CHECK-LABEL: func.func @diagonal
// CHECK:         linalg.matmul {{.*}} -> tensor<64x64xf32>
// CHECK-LABEL: func.func @read_twice
// CHECK:         linalg.matmul {{.*}} -> tensor<64x64xf32>
func.func @diagonal(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %same = arith.cmpi eq, %j, %i : index
    %v = arith.select %same, %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
func.func @read_twice(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %p = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %lower = arith.cmpi sle, %j, %i : index
    %v = arith.select %lower, %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %m, %p : tensor<64x64xf32>, tensor<64x64xf32>
}
