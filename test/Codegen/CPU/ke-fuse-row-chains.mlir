// RUN: ke-opt %s -split-input-file --ke-fuse-row-chains="min-bytes=4096" | FileCheck %s
// RUN: ke-opt %s -split-input-file --ke-fuse-row-chains | FileCheck %s --check-prefix=SMALL
// RUN: not ke-opt %s -split-input-file --ke-fuse-row-chains="least-chunks=0" 2>&1 | FileCheck %s --check-prefix=BAD

// A softmax over 64 rows of 256: max, exp(x - max), sum, divide, computed
// per chunk of 8 rows (8 chunks) in one scf.forall; the exp that the sum
// and the divide both read is computed once per chunk. Below 1 MB
// (the default min-bytes) it is left alone.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[R:.*]]) = (0) to (64) step (8)
// CHECK:           tensor.extract_slice %arg0[%[[R]], 0] [8, 256] [1, 1]
// CHECK:           linalg.fill
// CHECK:           linalg.generic {{.*}}["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<8xf32>)
// CHECK:           math.exp
// CHECK-NOT:       math.exp
// CHECK:           linalg.generic {{.*}}["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<8xf32>)
// CHECK:           arith.divf
// CHECK:           tensor.parallel_insert_slice
// SMALL-LABEL: func.func @softmax
// SMALL-NOT:     scf.forall
// BAD: ke-fuse-row-chains: least-chunks and chunk-bytes must be positive, got 0 and 262144
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%m0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x256xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<64x256xf32>, tensor<64xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<64x256xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%e: f32, %s: f32, %o: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x256xf32>
  return %out : tensor<64x256xf32>
}

// -----

// A row norm whose scale is read along the columns (whole, by every chunk)
// is fused; the sum of squares that is also returned stays whole (it would
// be computed twice), and so does the chain that has no reduction left.
// CHECK-LABEL: func.func @scaled_norm
// CHECK:         linalg.generic {{.*}}["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<64xf32>)
// CHECK:         linalg.generic
// CHECK-NOT:     scf.forall
// CHECK:         return
// CHECK-LABEL: func.func @scaled_norm_fused
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}}["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<8xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x256xf32>, tensor<8xf32>, tensor<256xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @scaled_norm(%x: tensor<64x256xf32>, %g: tensor<256xf32>) -> (tensor<64x256xf32>, tensor<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<64x256xf32>, tensor<64xf32>, tensor<256xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %n = arith.mulf %in, %r : f32
    %y = arith.mulf %n, %w : f32
    linalg.yield %y : f32
  } -> tensor<64x256xf32>
  return %out, %ss : tensor<64x256xf32>, tensor<64xf32>
}
func.func @scaled_norm_fused(%x: tensor<64x256xf32>, %g: tensor<256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<64x256xf32>, tensor<64xf32>, tensor<256xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %s: f32, %w: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %n = arith.mulf %in, %r : f32
    %y = arith.mulf %n, %w : f32
    linalg.yield %y : f32
  } -> tensor<64x256xf32>
  return %out : tensor<64x256xf32>
}

// -----

// A matmul feeding a row chain stays whole (contractions keep their own
// schedule); the chain after it is fused. A chain whose last op reads the
// rows transposed is left alone.
// CHECK-LABEL: func.func @matmul_then_row_sum
// CHECK:         linalg.matmul
// CHECK:         scf.forall
// CHECK-NOT:       linalg.matmul
// CHECK:           arith.divf
// CHECK:         return
// CHECK-LABEL: func.func @transposed_sink
// CHECK-NOT:     scf.forall
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @matmul_then_row_sum(%a: tensor<64x64xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x256xf32>) outs(%z : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e0 = tensor.empty() : tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%mm : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x256xf32>
  return %out : tensor<64x256xf32>
}
func.func @transposed_sink(%x: tensor<64x256xf32>) -> tensor<256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %et = tensor.empty() : tensor<256x64xf32>
  %t = linalg.generic {indexing_maps = [#tr, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%et : tensor<256x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<256x64xf32>
  return %t : tensor<256x64xf32>
}
