// RUN: ke-opt %s -split-input-file --ke-fuse-row-chains="min-bytes=4096" | FileCheck %s
// RUN: ke-opt %s -split-input-file --ke-fuse-row-chains | FileCheck %s --check-prefix=SMALL
// RUN: ke-opt %s -split-input-file --ke-fuse-row-chains="min-bytes=4096 whole-input-bytes=4096" | FileCheck %s --check-prefix=WHOLE
// RUN: ke-opt %s -split-input-file --ke-fuse-row-chains="min-bytes=4096 chunk-bytes=512" | FileCheck %s --check-prefix=LONG
// RUN: not ke-opt %s -split-input-file --ke-fuse-row-chains="least-chunks=0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ke-opt %s -split-input-file --ke-fuse-row-chains="whole-input-bytes=-1" 2>&1 | FileCheck %s --check-prefix=BADWHOLE

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
// Rows of 1 KB against chunks of 512 bytes: the exp would go through
// memory between the sum and the division, so each computes it.
// LONG-LABEL: func.func @softmax
// LONG-NOT:     linalg.generic
// LONG:         scf.forall (%{{.*}}) in (64)
// LONG:           arith.maximumf
// LONG:           linalg.generic {{.*}}["parallel", "reduction"]
// LONG:             math.exp
// LONG:             arith.addf
// LONG:           linalg.generic {{.*}}["parallel", "parallel"]
// LONG:             math.exp
// LONG:             arith.divf
// LONG:           tensor.parallel_insert_slice
// BAD: ke-fuse-row-chains: least-chunks and chunk-bytes must be positive, got 0 and 262144
// BADWHOLE: ke-fuse-row-chains: whole-input-bytes must not be negative, got -1
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

// A matmul whose weight (2 MB, above whole-input-bytes) every chunk would
// read whole stays whole; the chain after it is fused. A chain whose last
// op reads the rows transposed is left alone.
// CHECK-LABEL: func.func @matmul_then_row_sum
// CHECK:         linalg.matmul
// CHECK:         scf.forall
// CHECK-NOT:       linalg.matmul
// CHECK:           arith.divf
// CHECK:         return
// CHECK-LABEL: func.func @transposed_sink
// CHECK-NOT:     scf.forall
// CHECK:         return
// A sink that writes its rows along its output's innermost dimension would
// write each chunk one element a cache line: left alone.
// CHECK-LABEL: func.func @transposed_output
// CHECK-NOT:     scf.forall
// CHECK:         return
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @matmul_then_row_sum(%a: tensor<64x2048xf32>, %b: tensor<2048x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x2048xf32>, tensor<2048x256xf32>) outs(%z : tensor<64x256xf32>) -> tensor<64x256xf32>
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
func.func @transposed_output(%x: tensor<64x256xf32>) -> tensor<256x64xf32> {
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
  %t = linalg.generic {indexing_maps = [#id, #row, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x256xf32>, tensor<64xf32>) outs(%et : tensor<256x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.divf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<256x64xf32>
  return %t : tensor<256x64xf32>
}

// -----

// Attention: S = Q K^T, a softmax along S's rows, O = P V. K and V (8 KB
// each) are read whole by every chunk, so both products join the chain and
// the whole of it runs per chunk of 8 query rows in one scf.forall, at any
// size (below min-bytes in the SMALL run). With K and V above whole-input-bytes
// (WHOLE) the products stay whole and only the softmax is fused. A GEMM
// with an epilogue but no row reduction is not a chain. Already in chunks,
// a chain is not chunked again.
// CHECK-LABEL: func.func @attention
// CHECK:         scf.forall (%[[R:.*]]) = (0) to (64) step (8)
// CHECK:           tensor.extract_slice %arg0[%[[R]], 0] [8, 32] [1, 1]
// CHECK:           linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x32xf32>, tensor<64x32xf32>)
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x64xf32>, tensor<64x32xf32>)
// CHECK:           tensor.parallel_insert_slice
// CHECK-NOT:     linalg.
// CHECK:         return
// CHECK-LABEL: func.func @gemm_epilogue
// CHECK-NOT:     scf.forall
// CHECK-LABEL: func.func @chunked
// CHECK:         scf.forall
// CHECK-NOT:       scf.forall (
// CHECK:         return
// SMALL-LABEL: func.func @attention
// SMALL:         scf.forall
// SMALL:           linalg.generic {{.*}}["parallel", "parallel", "reduction"]
// SMALL:           linalg.matmul
// WHOLE-LABEL: func.func @attention
// WHOLE:         linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<64x64xf32>)
// WHOLE:         scf.forall
// WHOLE:           math.exp
// WHOLE:           arith.divf
// WHOLE:         linalg.matmul ins(%{{.*}}, %arg2 : tensor<64x64xf32>, tensor<64x32xf32>)
#q = affine_map<(d0, d1, d2) -> (d0, d2)>
#k = affine_map<(d0, d1, d2) -> (d1, d2)>
#s = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @attention(%q: tensor<64x32xf32>, %k: tensor<64x32xf32>, %v: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<64x64xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64x32xf32>, tensor<64x32xf32>) outs(%zs : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %e0 = tensor.empty() : tensor<64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<64x64xf32>) outs(%m0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %max : tensor<64x64xf32>, tensor<64xf32>) outs(%es : tensor<64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %o: f32):
    %d = arith.subf %in, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<64x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x64xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%es : tensor<64x64xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %r = arith.divf %x, %t : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %eo = tensor.empty() : tensor<64x32xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<64x32xf32>) -> tensor<64x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x32xf32>) outs(%zo : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}
func.func @gemm_epilogue(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %out = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x64xf32>, tensor<64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %y = arith.addf %x, %c : f32
    %r = arith.maximumf %y, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %out : tensor<64x64xf32>
}
func.func @chunked(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %r = scf.forall (%i) = (0) to (64) step (32) shared_outs(%out = %e) -> (tensor<64x256xf32>) {
    %xs = tensor.extract_slice %x[%i, 0] [32, 256] [1, 1] : tensor<64x256xf32> to tensor<32x256xf32>
    %e0 = tensor.empty() : tensor<32xf32>
    %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32xf32>) -> tensor<32xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xs : tensor<32x256xf32>) outs(%s0 : tensor<32xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    } -> tensor<32xf32>
    %e1 = tensor.empty() : tensor<32x256xf32>
    %d = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xs, %sum : tensor<32x256xf32>, tensor<32xf32>) outs(%e1 : tensor<32x256xf32>) {
    ^bb0(%in: f32, %t: f32, %o: f32):
      %q = arith.divf %in, %t : f32
      linalg.yield %q : f32
    } -> tensor<32x256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %d into %out[%i, 0] [32, 256] [1, 1] : tensor<32x256xf32> into tensor<64x256xf32>
    }
  }
  return %r : tensor<64x256xf32>
}

// -----

// A group norm: 2 batches of 4 groups are too few rows alone, so the rows
// are both loops (8 of them), one a chunk, in a 2-D scf.forall; the scale
// read per group (not along the batch) is sliced per chunk.
// CHECK-LABEL: func.func @group_norm
// CHECK:         scf.forall (%[[B:.*]], %[[G:.*]]) in (2, 4)
// CHECK:           tensor.extract_slice %arg0[%[[B]], %[[G]], 0] [1, 1, 2048] [1, 1, 1]
// CHECK:           linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<1x1xf32>)
// CHECK:           tensor.extract_slice %arg1[%[[G]]] [1] [1]
// CHECK:           math.rsqrt
// CHECK:           tensor.parallel_insert_slice
#x3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#s2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#g1 = affine_map<(d0, d1, d2) -> (d1)>
func.func @group_norm(%x: tensor<2x4x2048xf32>, %w: tensor<4xf32>) -> tensor<2x4x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %ss = linalg.generic {indexing_maps = [#x3, #s2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x4x2048xf32>) outs(%s0 : tensor<2x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %e1 = tensor.empty() : tensor<2x4x2048xf32>
  %out = linalg.generic {indexing_maps = [#x3, #s2, #g1, #x3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<2x4x2048xf32>, tensor<2x4xf32>, tensor<4xf32>) outs(%e1 : tensor<2x4x2048xf32>) {
  ^bb0(%in: f32, %s: f32, %g: f32, %o: f32):
    %r = math.rsqrt %s : f32
    %n = arith.mulf %in, %r : f32
    %y = arith.mulf %n, %g : f32
    linalg.yield %y : f32
  } -> tensor<2x4x2048xf32>
  return %out : tensor<2x4x2048xf32>
}

// -----

// A batch norm in training mode: its statistics per channel reduce over
// the batch and the pixels, loops on either side of the channels. The
// leading loops (batch x channels) make no chain (the batch is a reduction
// of the statistics), so the rows are the channels alone: 16 channels in
// chunks of 2, each chunk's mean, variance and normalization computed while
// its slices [2, 2, 64] are in cache; the statistics, [16], are rows along
// their only loop.
// CHECK-LABEL: func.func @batch_norm
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[C:.*]]) = (0) to (16) step (2)
// CHECK:           tensor.extract_slice %arg0[0, %[[C]], 0] [2, 2, 64] [1, 1, 1]
// CHECK:           linalg.generic {{.*}}["reduction", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<2xf32>)
// CHECK:           linalg.generic {{.*}}["reduction", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<2xf32>)
// CHECK:           math.rsqrt
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[C]], 0] [2, 2, 64]
// CHECK-NOT:     linalg.generic
// SMALL-LABEL: func.func @batch_norm
// SMALL-NOT:     scf.forall
#bn_id = affine_map<(n, c, p) -> (n, c, p)>
#bn_channel = affine_map<(n, c, p) -> (c)>
func.func @batch_norm(%x: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %count = arith.constant 128.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#bn_id, #bn_channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<2x16x64xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %var = linalg.generic {indexing_maps = [#bn_id, #bn_channel, #bn_channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x, %sum : tensor<2x16x64xf32>, tensor<16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %mean = arith.divf %s, %count : f32
    %d = arith.subf %in, %mean : f32
    %sq = arith.mulf %d, %d : f32
    %v = arith.addf %sq, %acc : f32
    linalg.yield %v : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<2x16x64xf32>
  %out = linalg.generic {indexing_maps = [#bn_id, #bn_channel, #bn_channel, #bn_id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum, %var : tensor<2x16x64xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<2x16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %v: f32, %o: f32):
    %mean = arith.divf %s, %count : f32
    %variance = arith.divf %v, %count : f32
    %ve = arith.addf %variance, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %in, %mean : f32
    %n = arith.mulf %d, %r : f32
    linalg.yield %n : f32
  } -> tensor<2x16x64xf32>
  return %out : tensor<2x16x64xf32>
}

// -----

// A reader that reads the shared value twice (e * e / sum): with rows
// longer than a chunk, the exp is computed in the sum and in the division,
// and nothing is left reading it.
// CHECK-LABEL: func.func @shared_twice
// LONG-LABEL: func.func @shared_twice
// LONG-NOT:     linalg.generic
// LONG:         scf.forall
// LONG:           linalg.generic {{.*}}["parallel", "reduction"]
// LONG:             math.exp
// LONG:             arith.addf
// LONG:           linalg.generic {{.*}}["parallel", "parallel"]
// LONG:             math.exp
// LONG:             arith.mulf
// LONG:             arith.divf
// LONG:           tensor.parallel_insert_slice
// LONG-NOT:     linalg.generic
// LONG:         return
#st_id = affine_map<(d0, d1) -> (d0, d1)>
#st_row = affine_map<(d0, d1) -> (d0)>
func.func @shared_twice(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64xf32>
  %e1 = tensor.empty() : tensor<64x256xf32>
  %exp = linalg.generic {indexing_maps = [#st_id, #st_id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x256xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<64x256xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#st_id, #st_row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x256xf32>) outs(%s0 : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#st_id, #st_id, #st_row, #st_id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %exp, %sum : tensor<64x256xf32>, tensor<64x256xf32>, tensor<64xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.divf %p, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x256xf32>
  return %out : tensor<64x256xf32>
}

// -----

// A batch norm whose input is channels-last ([N, P, C]) while its output is
// channels-first: chunked along the channels, every chunk would read the
// input one element a cache line, so with inner rows it is left alone.
// CHECK-LABEL: func.func @batch_norm_channels_last_input
// CHECK-NOT:     scf.forall
// CHECK:         return
#cl_in = affine_map<(n, c, p) -> (n, p, c)>
#cl_out = affine_map<(n, c, p) -> (n, c, p)>
#cl_channel = affine_map<(n, c, p) -> (c)>
func.func @batch_norm_channels_last_input(%x: tensor<2x64x16xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#cl_in, #cl_channel], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<2x64x16xf32>) outs(%s0 : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e1 = tensor.empty() : tensor<2x16x64xf32>
  %out = linalg.generic {indexing_maps = [#cl_in, #cl_channel, #cl_out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %sum : tensor<2x64x16xf32>, tensor<16xf32>) outs(%e1 : tensor<2x16x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %q = arith.subf %in, %s : f32
    linalg.yield %q : f32
  } -> tensor<2x16x64xf32>
  return %out : tensor<2x16x64xf32>
}
