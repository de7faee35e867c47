// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{tile=32 k-step=8 min-blocks=1 warps=8}))' | FileCheck %s --check-prefix=SMALL
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{tile=16 k-step=4 warps=8}))' | FileCheck %s --check-prefix=FEW
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=16 warps=8}))' | FileCheck %s --check-prefix=SHRINK
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{tile=0}))' | FileCheck %s --check-prefix=OFF
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{tile=24}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=4}))' | FileCheck %s --check-prefix=WARPS
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{warps=3}))' 2>&1 | FileCheck %s --check-prefix=BADWARPS
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{stages=0}))' 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{warps=16 min-blocks=1000}))' | FileCheck %s --check-prefix=FLOOR
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 stages=1}))' | FileCheck %s --check-prefix=ONE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 async-copies=false}))' | FileCheck %s --check-prefix=SYNC
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 stages=5}))' | FileCheck %s --check-prefix=FIVE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{tile=128 min-blocks=1 warps=4}))' | FileCheck %s --check-prefix=WIDE

// A 128x128x32 matmul after a fill: 2x2 blocks of 16x16 threads, each
// thread 4x4 outputs in registers starting from the fill's value. Slices
// laid out as the inputs are: A's 64x16 as [line][k] (rows of 16 + 4
// padding), B's 16x64 as [k][line] (rows of 64 + 4), three stages. Each
// step's copies are 16-byte cp.async started two steps ahead; the step
// waits for its own group, then every thread reads its 4 rows of A four k
// at a time and its 4 consecutive columns of B as one vector per k, and
// sums with multiplies and adds LLVM may fuse (contract).
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[AS:.*]] : memref<3x64x20xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<3x16x68xf32, #gpu.address_space<workgroup>>)
// Both inputs copied from flat views (offset: the line's part + k's).
// CHECK:           %[[A:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<128x32xf32> into memref<4096xf32>
// CHECK:           %[[B:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1]] : memref<32x128xf32> into memref<4096xf32>
// Two steps started before the loop.
// CHECK:           nvgpu.device_async_copy %[[A]][{{.*}}], %[[AS]][%c0{{.*}}], 4
// CHECK:           nvgpu.device_async_copy %[[B]][{{.*}}], %[[BS]][%c0{{.*}}], 4
// CHECK:           nvgpu.device_async_create_group
// CHECK:           nvgpu.device_async_copy %[[A]][{{.*}}], %[[AS]][%c1{{.*}}], 4
// CHECK:           nvgpu.device_async_create_group
// CHECK:           %[[ACC:.*]]:16 = scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:             nvgpu.device_async_copy %[[A]][
// CHECK:             nvgpu.device_async_copy %[[B]][
// CHECK:             %[[GROUP:.*]] = nvgpu.device_async_create_group
// CHECK:             nvgpu.device_async_wait %[[GROUP]] {numGroups = 2 : i32}
// CHECK:             gpu.barrier
// CHECK-COUNT-4:     vector.load %[[AS]][%{{.*}}, %{{.*}}, %c0{{.*}}] {alignment = 16 : i64} : memref<3x64x20xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK:             vector.load %[[BS]][%{{.*}}, %c0{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<3x16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-16:    arith.addf {{.*}} fastmath<contract>
// CHECK:             vector.load %[[BS]][%{{.*}}, %c1{{.*}}, %{{.*}}]
// The next four k: A read again.
// CHECK:             vector.load %[[BS]][%{{.*}}, %c3{{.*}}, %{{.*}}]
// CHECK-COUNT-16:    arith.addf
// CHECK:             vector.load %[[AS]][%{{.*}}, %{{.*}}, %c4{{.*}}]
// CHECK:             gpu.barrier
// CHECK-NEXT:        scf.yield
// Each thread's 4 neighbouring columns of a row stored as one aligned
// vector (a warp's stores cover whole sectors).
// CHECK-COUNT-4:   %[[VEC:.*]] = vector.from_elements %[[ACC]]#{{[0-9]+}}, %[[ACC]]#{{[0-9]+}}, %[[ACC]]#{{[0-9]+}}, %[[ACC]]#{{[0-9]+}} : vector<4xf32>
// CHECK-NEXT:        vector.store %[[VEC]], %arg2[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xf32>, vector<4xf32>
// CHECK-NOT:       memref.store
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.matmul
// CHECK-LABEL: func.func @matmul_knob(
// A 32 tile with k-steps of 8: 16x16 threads of 2x2 outputs, B's two
// columns read as one 8-byte vector.
// SMALL-LABEL: func.func @matmul
// SMALL:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c4{{.*}}, {{.*}} workgroup({{.*}} : memref<3x32x12xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<3x8x36xf32, #gpu.address_space<workgroup>>)
// SMALL:           scf.for {{.*}} -> (f32, f32, f32, f32)
// SMALL:             vector.load {{.*}} {alignment = 8 : i64} : memref<3x8x36xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// SMALL-COUNT-32:    arith.addf
// SMALL-NOT:         arith.addf
// SMALL:             gpu.barrier
// 16x4 slices of 4-element copies for 256 threads: 16 chunks per input,
// the threads past them copying the last one again (no copy under a
// condition).
// FEW-LABEL: func.func @matmul
// FEW:         %[[A:.*]] = arith.minui %{{.*}}, %c15
// FEW-NOT:     scf.if
// FEW:         nvgpu.device_async_copy %collapse_shape[
// FEW:         arith.minui %{{.*}}, %c15
// FEW:         nvgpu.device_async_copy %collapse_shape_{{[0-9]+}}[
// FEW:         scf.for
// 128x128 outputs make 4 blocks of 64x64 and 16 of 32x32: with
// min-blocks=16, 32x32. The function's knob is taken exactly.
// SHRINK-LABEL: func.func @matmul(
// SHRINK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c4{{.*}},
// SHRINK-LABEL: func.func @matmul_knob(
// SHRINK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}},
// SHRINK-LABEL: func.func @matmul_off(
// SHRINK:         linalg.matmul
// OFF-LABEL: func.func @matmul
// OFF:         linalg.fill
// OFF:         linalg.matmul
// BAD: ke-stage-contractions-for-gpu: tile must be 16 to 128 in steps of 16, k-step positive, warps 2, 4, 8 or 16, stages at least 1 and k-splits 0 or a power of two up to 64 (got tile=24, k-step=16, warps=4, stages=3, k-splits=0)
// BADWARPS: ke-stage-contractions-for-gpu: tile must be 16 to 128 in steps of 16, k-step positive, warps 2, 4, 8 or 16, stages at least 1 and k-splits 0 or a power of two up to 64 (got tile=64, k-step=16, warps=3, stages=3, k-splits=0)
// BADSTAGES: (got tile=64, k-step=16, warps=4, stages=0, k-splits=0)
// Four warps: 16 x 8 threads, each 8 rows x 4 columns of the 64 x 64 tile
// (rows y + 8r): 32 accumulators, A read as 8 vectors of k per four k. The
// function's ke.gpu_warps = 16 wins over the option: 16 x 32 threads, 2 x 4
// outputs each.
// WARPS-LABEL: func.func @matmul(
// WARPS:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c1{{.*}})
// WARPS:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// WARPS:             gpu.barrier
// WARPS-COUNT-8:     vector.load %arg{{[0-9]+}}[%{{.*}}, %{{.*}}, %c0{{.*}}] {{.*}} : memref<3x64x20xf32
// WARPS:             vector.load {{.*}} : memref<3x16x68xf32
// With 16 warps (32 thread rows) the tile is not halved below 32, however
// few the blocks: still staged, 4 x 4 blocks of 32 x 32.
// FLOOR-LABEL: func.func @matmul(
// FLOOR:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c4{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}})
// WARPS-LABEL: func.func @matmul_warps_knob(
// WARPS:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}})
// WARPS:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// A 128 tile on 4 warps: one block of 16 x 8 threads, each keeping
// 16 x 8 = 128 accumulators (at most 128; more than 64 was refused before).
// WIDE-LABEL: func.func @matmul(
// WIDE:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c1{{.*}})
// WIDE:           scf.for {{.*}} -> (f32{{(, f32){127}[)]}}
// One stage: nothing copied ahead; each step waits for all of its copies.
// ONE-LABEL: func.func @matmul(
// ONE:         workgroup({{.*}} : memref<1x64x20xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<1x16x68xf32, #gpu.address_space<workgroup>>)
// ONE-NOT:     nvgpu.device_async_copy
// ONE:         scf.for
// ONE:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// Without cp.async (AMD): 16-byte vectors through registers.
// SYNC-LABEL: func.func @matmul(
// SYNC-NOT:    nvgpu.
// SYNC:        vector.load %collapse_shape[{{.*}}] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// SYNC:        vector.store %{{.*}}, %arg{{[0-9]+}}[{{.*}}] : memref<3x64x20xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// SYNC:        vector.load %collapse_shape_{{[0-9]+}}[{{.*}}] {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// SYNC-NOT:    nvgpu.
// SYNC-LABEL: func.func @matmul_knob(
func.func @matmul(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
func.func @matmul_knob(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %c: memref<128x128xf32>) attributes {ke.gpu_shared_tile = 64} {
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
func.func @matmul_off(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %c: memref<128x128xf32>) attributes {ke.gpu_shared_tile = 0} {
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
func.func @matmul_warps_knob(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %c: memref<128x128xf32>) attributes {ke.gpu_warps = 16} {
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Q x K^T (K read as [j, k]) in batches: the batch on the grid's z, both
// inputs copied along k; no fill, so the accumulators start from the
// output.
// CHECK-LABEL: func.func @batched_scores
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c4{{.*}})
// Both slices [line][k]: threads own columns 16 apart (rows of 20 words:
// the 16 lanes' rows on different banks), reading k as vectors.
// CHECK:           %[[Q:.*]] = memref.collapse_shape %arg0
// CHECK:           %[[K:.*]] = memref.collapse_shape %arg1
// CHECK-COUNT-16:  memref.load %arg2
// CHECK:           nvgpu.device_async_copy %[[Q]][%{{.*}}], %{{.*}}, 4
// CHECK:           nvgpu.device_async_copy %[[K]][%{{.*}}], %{{.*}}, 4
// CHECK:           scf.for
// CHECK:             gpu.barrier
// CHECK-COUNT-8:     vector.load %{{.*}} : memref<3x64x20xf32, #gpu.address_space<workgroup>>, vector<4xf32>
#q = affine_map<(b, i, j, k) -> (b, i, k)>
#k = affine_map<(b, i, j, k) -> (b, j, k)>
#s = affine_map<(b, i, j, k) -> (b, i, j)>
func.func @batched_scores(%q: memref<4x64x32xf32>, %k: memref<4x64x32xf32>, %s: memref<4x64x64xf32>) {
  linalg.generic {indexing_maps = [#q, #k, #s],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : memref<4x64x32xf32>, memref<4x64x32xf32>) outs(%s : memref<4x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left alone: a reduction of 12 (no multiple of the 16-step) whose body
// folds (a - 1) * b (the zeros past K would add -b), an input read along
// both rows and columns, a max instead of a sum, an input that is the
// output (blocks would overwrite what others still read).
// CHECK-LABEL: func.func @not_staged
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:         linalg.generic
// CHECK:         linalg.matmul
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#w = affine_map<(i, j, k) -> (i, j, k)>
#o = affine_map<(i, j, k) -> (i, j)>
func.func @not_staged(%a: memref<64x12xf32>, %b: memref<12x64xf32>, %c: memref<64x64xf32>,
                      %x: memref<64x64x16xf32>, %y: memref<64x16xf32>, %z: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #o],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x12xf32>, memref<12x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.subf %u, %one : f32
    %p = arith.mulf %s, %v : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#w, #a, #o],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<64x64x16xf32>, memref<64x16xf32>) outs(%z : memref<64x64xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %p = arith.mulf %u, %v : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#a, #a, #o],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%y, %y : memref<64x16xf32>, memref<64x16xf32>) outs(%z : memref<64x64xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %p = arith.mulf %u, %v : f32
    %r = arith.maximumf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%z, %z : memref<64x64xf32>, memref<64x64xf32>) outs(%z : memref<64x64xf32>)
  return
}

// -----

// A reduction of 12 with a plain product: staged, K's one step guarded
// (k < 12), the slices zero past it.
// CHECK-LABEL: func.func @short_k
// CHECK:         gpu.launch
// CHECK:           arith.cmpi ult, %{{.*}}, %c12
// CHECK-NOT:     linalg.matmul
func.func @short_k(%a: memref<64x12xf32>, %b: memref<12x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x12xf32>, memref<12x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// 40 rows in a tile of 48 (the rows there are, in whole rows per thread
// row): the copies of A's rows and the loads and stores of the output
// (vectors of 4 columns) are guarded (row < 40).
// CHECK-LABEL: func.func @ragged
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, {{.*}} workgroup(%{{.*}} : memref<3x48x20xf32, {{.*}}>, %{{.*}} : memref<3x16x68xf32, {{.*}}>)
// CHECK:           scf.if %{{.*}} -> (vector<4xf32>)
// CHECK:             vector.load %arg2
// CHECK:           } else {
// A's copies past row 40 read row 0 and copy no bytes (zero-fill); B's
// columns fill the tile, its copies are guarded only by K's end.
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c40
// CHECK:           %[[BYTES:.*]] = arith.select %{{.*}}, %c4{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], 4, %[[BYTES]]
// CHECK:           scf.for
// CHECK:             gpu.barrier
// CHECK:           scf.if
// CHECK-NEXT:        vector.from_elements
// CHECK-NEXT:        vector.store
func.func @ragged(%a: memref<40x32xf32>, %b: memref<32x64xf32>, %c: memref<40x64xf32>) {
  linalg.matmul ins(%a, %b : memref<40x32xf32>, memref<32x64xf32>) outs(%c : memref<40x64xf32>)
  return
}

// -----

// A convolution as a matrix product: rows (n, oh, ow) = 64, columns f = 16,
// K (kh, kw, c) = 144. The input at (n, oh + kh, ow + kw, c) is at flat
// offset n·1600 + oh·160 + ow·16 (the row's part, the same at every step,
// each index clamped on its own) plus kh·160 + kw·16 + c (k's part). K's
// parts are worked out once per block into a table in shared memory (k
// split in 32 bits by the block's 256 threads, then a barrier), which the
// copies read; the filter's (kh, kw, c) run is k times its stride, 16.
// CHECK-DAG:   #[[ROW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0 * 1600 + d1 * 160 + d2 * 16)>
// CHECK-DAG:   #[[COLUMN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3)>
// CHECK-LABEL: func.func @conv
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, {{.*}} workgroup(%{{.*}} : memref<3x64x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x16x20xf32, #gpu.address_space<workgroup>>, %[[TABLE:.*]] : memref<144xi32, #gpu.address_space<workgroup>>)
// CHECK:           %[[INPUT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : memref<1x10x10x16xf32> into memref<1600xf32>
// CHECK:           %[[FILTER:.*]] = memref.collapse_shape %arg1
// CHECK:           scf.for %[[T:.*]] = %{{.*}} to %c144 step %c256 {
// CHECK:             %[[T32:.*]] = arith.index_castui %[[T]] : index to i32
// CHECK:             %[[C:.*]] = arith.remui %[[T32]], %c16_i32
// CHECK:             %[[KHKW:.*]] = arith.divui %[[T32]], %c16_i32
// CHECK:             %[[KW:.*]] = arith.remui %[[KHKW]], %c3_i32
// CHECK:             %[[KH:.*]] = arith.divui %[[KHKW]], %c3_i32
// CHECK:             %[[KW16:.*]] = arith.muli %[[KW]], %c16_i32
// CHECK:             %[[SUM:.*]] = arith.addi %[[C]], %[[KW16]] : i32
// CHECK:             %[[KH160:.*]] = arith.muli %[[KH]], %c160_i32
// CHECK:             %[[KPART:.*]] = arith.addi %[[SUM]], %[[KH160]] : i32
// CHECK:             memref.store %[[KPART]], %[[TABLE]][%[[T]]]
// CHECK:           }
// CHECK-NEXT:      gpu.barrier
// Four channels (the innermost of k) per copy; 9 steps of 16.
// CHECK:           %[[K:.*]] = arith.select %{{.*}}, %{{.*}}, %c0{{.*}} : index
// CHECK:           %[[PIXEL:.*]]:3 = affine.delinearize_index %{{.*}} into (1, 8, 8)
// CHECK:           %[[REST:.*]] = affine.apply #[[ROW]](%[[PIXEL]]#0, %[[PIXEL]]#1, %[[PIXEL]]#2, %c0
// CHECK:           %[[ENTRY:.*]] = memref.load %[[TABLE]][%[[K]]]
// CHECK:           %[[KINDEX:.*]] = arith.index_castui %[[ENTRY]] : i32 to index
// CHECK:           %[[OFFSET:.*]] = arith.addi %[[REST]], %[[KINDEX]] : index
// CHECK:           nvgpu.device_async_copy %[[INPUT]][%[[OFFSET]]], %{{.*}}, 4
// CHECK:           %[[FK:.*]] = arith.select %{{.*}}, %{{.*}}, %c0{{.*}} : index
// CHECK:           %[[FREST:.*]] = affine.apply #[[COLUMN]](
// CHECK:           %[[FK32:.*]] = arith.index_castui %[[FK]] : index to i32
// CHECK-NOT:       arith.divui
// CHECK:           %[[FKF:.*]] = arith.muli %[[FK32]], %c16_i32
// CHECK:           %[[FKINDEX:.*]] = arith.index_castui %[[FKF]] : i32 to index
// CHECK:           %[[FOFFSET:.*]] = arith.addi %[[FREST]], %[[FKINDEX]] : index
// CHECK:           nvgpu.device_async_copy %[[FILTER]][%[[FOFFSET]]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c9{{.*}} step %c1
// CHECK:             gpu.barrier
func.func @conv(%input: memref<1x10x10x16xf32>, %filter: memref<3x3x16x16xf32>, %out: memref<1x8x8x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : memref<1x10x10x16xf32>, memref<3x3x16x16xf32>)
      outs(%out : memref<1x8x8x16xf32>)
  return
}

// -----

// f16 inputs widened in the body (what the tensor cores leave here when
// their tile is 0 or the body is not exactly a product): rows padded by 16
// bytes, not 4 elements, so that each row of B's [k][line] slice (64 + 8
// halves) starts 16-byte aligned for its 8-element copies.
// CHECK-LABEL: func.func @half
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<3x64x24xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x16x72xf16, #gpu.address_space<workgroup>>)
// CHECK:           nvgpu.device_async_copy %collapse_shape{{.*}}, 8
// CHECK:           nvgpu.device_async_copy %collapse_shape{{.*}}, 8
func.func @half(%a: memref<128x32xf16>, %b: memref<32x128xf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x32xf16>, memref<32x128xf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A channels-first convolution: rows f = 16, columns (n, oh, ow) = 64, K
// (c, kh, kw) = 36. The input's innermost index (ow + kw) follows a column
// loop and a reduction loop; the columns' run (8 pixels) is the longer, so
// its slice is [k][line] and neighbouring threads copy neighbouring pixels,
// one element each with a 4-byte cp.async (no vector starts aligned at
// ow + kw). The filter's (c, kh, kw) are its three whole trailing
// dimensions: one run of 36, copied 16 bytes at a time. 16 rows take a
// tile of 16, and the columns 64 (more would exceed the 64 x 64 block).
// The input's K part (c·100 + kh·10 + kw) comes from a table of 36.
// CHECK-LABEL: func.func @conv_channels_first
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[IN:.*]] : memref<3x16x68xf32, #gpu.address_space<workgroup>>, %[[W:.*]] : memref<3x16x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<36xi32, #gpu.address_space<workgroup>>)
// CHECK:           nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[IN]][%{{.*}}, %{{.*}}, %{{.*}}], 1, %{{[^ ]+}} : memref<400xf32> to memref<3x16x68xf32
// CHECK:           nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[W]][%{{.*}}, %{{.*}}, %{{.*}}], 4, %{{.*}} {bypassL1} : memref<576xf32>
func.func @conv_channels_first(%input: memref<1x4x10x10xf32>, %filter: memref<16x4x3x3xf32>, %out: memref<1x16x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : memref<1x4x10x10xf32>, memref<16x4x3x3xf32>)
      outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

// 16 output channels over 32 x 32 pixels: the row tile takes the 16 rows
// there are and the column tile grows to 256 (16 x 256 outputs, the 64 x
// 64 block's count): 4 blocks, none of them computing rows that do not
// exist.
// With min-blocks=16 the columns stay 64 wide: 256 would leave 4 blocks,
// fewer than 4 x 16.
// SHRINK-LABEL: func.func @few_rows
// SHRINK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) workgroup(%{{.*}} : memref<3x16x68xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x16x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<36xi32, #gpu.address_space<workgroup>>)
// CHECK-LABEL: func.func @few_rows
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%{{.*}} : memref<{{[0-9]}}x16x260xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<{{[0-9]}}x16x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<36xi32, #gpu.address_space<workgroup>>)
func.func @few_rows(%input: memref<1x4x34x34xf32>, %filter: memref<16x4x3x3xf32>, %out: memref<1x16x32x32xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : memref<1x4x34x34xf32>, memref<16x4x3x3xf32>)
      outs(%out : memref<1x16x32x32xf32>)
  return
}

// -----

// A transposed convolution's phase reads its input through a strided view
// (innermost stride 2): cp.async needs unit stride there, so those
// elements are loaded and stored by the threads, indexed as it is (its
// layout is not row-major); the filter still goes through cp.async.
// CHECK-LABEL: func.func @strided_input
// CHECK:         gpu.launch
// CHECK-NOT:       memref.collapse_shape %arg0
// CHECK:           %[[FILTER:.*]] = memref.collapse_shape %arg1
// CHECK-NOT:       memref.collapse_shape %arg0
// CHECK:           memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:           memref.store
// CHECK:           nvgpu.device_async_copy %[[FILTER]][
func.func @strided_input(%input: memref<1x4x10x20xf32, strided<[800, 200, 20, 2]>>, %filter: memref<16x4x3x3xf32>, %out: memref<1x16x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : memref<1x4x10x20xf32, strided<[800, 200, 20, 2]>>, memref<16x4x3x3xf32>)
      outs(%out : memref<1x16x8x8xf32>)
  return
}

// -----

// The innermost loop of K also indexes another dimension of A (a diagonal
// read): consecutive k are not consecutive addresses, so A is copied one
// element at a time; B keeps its 16-byte copies.
// Its flat offset is still a sum: i·1024 + 33·k.
// CHECK-LABEL: func.func @loop_in_two_indices
// CHECK:         gpu.launch
// CHECK:           %[[A:.*]] = memref.collapse_shape %arg0
// CHECK:           %[[B:.*]] = memref.collapse_shape %arg1
// CHECK:           arith.muli %{{.*}}, %c33_i32
// CHECK:           nvgpu.device_async_copy %[[A]][%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], 1
// CHECK:           nvgpu.device_async_copy %[[B]][%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], 4
func.func @loop_in_two_indices(%a: memref<64x32x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An output in a strided layout keeps scalar loads and stores: the vector
// output runs assume identity-layout rows, 16-byte aligned.
// CHECK-LABEL: func.func @strided_output
// CHECK:         gpu.launch
// CHECK-NOT:       vector.load %arg2
// CHECK:           memref.load %arg2
// CHECK-NOT:       vector.store
// CHECK:           memref.store %{{.*}}, %arg2
// CHECK:           gpu.terminator
func.func @strided_output(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %c: memref<128x128xf32, strided<[256, 1]>>) {
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32, strided<[256, 1]>>)
  return
}

// -----

// f16 elements copied one at a time (a diagonal read of A) are loaded and
// stored by the threads: cp.async moves 4, 8 or 16 bytes, not 2. B keeps
// its 16-byte (8-half) copies.
// CHECK-LABEL: func.func @half_elements
// CHECK:         gpu.launch
// CHECK:           %[[A:.*]] = memref.collapse_shape %arg0
// CHECK:           %[[B:.*]] = memref.collapse_shape %arg1
// CHECK-NOT:       nvgpu.device_async_copy %[[A]][
// CHECK:           memref.load %[[A]][
// CHECK:           memref.store %{{.*}}, %{{.*}} : memref<3x64x24xf16, #gpu.address_space<workgroup>>
// CHECK:           nvgpu.device_async_copy %[[B]]{{.*}}, 8
// CHECK-NOT:       nvgpu.device_async_copy %[[A]][
// CHECK:           gpu.terminator
func.func @half_elements(%a: memref<64x32x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x32x32xf16>, memref<32x64xf16>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// 16 output columns: the column tile takes the 16 there are and the row
// tile grows to 256 (the 64 x 64 block's count of outputs), with two
// stages where three no longer fit in shared memory: 4 blocks. With
// min-blocks=16 the rows stay 64: 256 would leave fewer than 4 x 16 blocks.
// CHECK-LABEL: func.func @few_columns
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) workgroup(%{{.*}} : memref<2x256x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<2x16x20xf32, #gpu.address_space<workgroup>>)
// SHRINK-LABEL: func.func @few_columns
// SHRINK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) workgroup(%{{.*}} : memref<3x64x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x16x20xf32, #gpu.address_space<workgroup>>)
func.func @few_columns(%a: memref<1024x32xf32>, %b: memref<32x16xf32>, %c: memref<1024x16xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x32xf32>, memref<32x16xf32>) outs(%c : memref<1024x16xf32>)
  return
}

// -----

// A reads k floordiv 2 (each element twice): its flat offset is not a sum
// of loops times constants, so its copies keep the per-dimension indices;
// B's still come from its flat view.
// CHECK-LABEL: func.func @halved_k
// CHECK:         gpu.launch
// CHECK-NOT:       memref.collapse_shape %arg0
// CHECK:           %[[B:.*]] = memref.collapse_shape %arg1
// CHECK-NOT:       memref.collapse_shape %arg0
// CHECK:           affine.apply #{{.*}}(%{{.*}})
// CHECK:           {{memref.load %arg0\[%.*, %.*\]|nvgpu.device_async_copy %arg0\[%.*, %.*\]}}
// CHECK:           nvgpu.device_async_copy %[[B]][
func.func @halved_k(%a: memref<128x16xf32>, %b: memref<32x128xf32>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k floordiv 2)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x16xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// K = 256 channels x 3 x 3 = 2304: the input's K-part table takes 9216
// bytes. With stages=5, five 9.5 KB stages fit in 48 KB only without it:
// the table is dropped (the copies split k themselves) rather than cost a
// stage. With the default three stages the table fits beside them.
// FIVE-LABEL: func.func @table_or_stage
// FIVE:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<5x{{[0-9]+}}x{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<5x{{[0-9]+}}x{{[0-9]+}}xf32, #gpu.address_space<workgroup>>)
// FIVE-NOT:       xi32, #gpu.address_space<workgroup>>
// FIVE:           arith.divui %{{.*}}, %c3_i32
// FIVE:           nvgpu.device_async_copy
// CHECK-LABEL: func.func @table_or_stage
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<3x{{.*}}, %{{.*}} : memref<3x{{.*}}, %{{.*}} : memref<2304xi32, #gpu.address_space<workgroup>>)
func.func @table_or_stage(%input: memref<1x256x10x10xf32>, %filter: memref<64x256x3x3xf32>, %out: memref<1x64x8x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : memref<1x256x10x10xf32>, memref<64x256x3x3xf32>)
      outs(%out : memref<1x64x8x8xf32>)
  return
}

// -----

// A bias broadcast into the output right before: the accumulators start
// from the bias (per column: one load per output; per row: one per row,
// shared by its run of columns) and the broadcast goes away. Kept where
// another view of the same memory is written in between.
// CHECK-LABEL: func.func @matmul_bias(
// CHECK-NOT:     linalg.broadcast
// CHECK:         gpu.launch
// CHECK-COUNT-16:  memref.load %arg2[%{{.*}}] : memref<128xf32>
// CHECK-NOT:       memref.load %arg3
// CHECK-LABEL: func.func @matmul_row_bias(
// CHECK-NOT:     linalg.broadcast
// CHECK:         gpu.launch
// CHECK-COUNT-4:   memref.load %arg2[%{{.*}}] : memref<128xf32>
// CHECK-NOT:       memref.load %arg2
// CHECK-LABEL: func.func @matmul_bias_overwritten(
// CHECK:         linalg.broadcast
// CHECK:         linalg.fill
// CHECK:         gpu.launch
// CHECK:           memref.load %subview[
func.func @matmul_bias(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %bias: memref<128xf32>, %c: memref<128x128xf32>) {
  linalg.broadcast ins(%bias : memref<128xf32>) outs(%c : memref<128x128xf32>) dimensions = [0]
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
func.func @matmul_row_bias(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %bias: memref<128xf32>, %c: memref<128x128xf32>) {
  linalg.broadcast ins(%bias : memref<128xf32>) outs(%c : memref<128x128xf32>) dimensions = [1]
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
func.func @matmul_bias_overwritten(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %bias: memref<128xf32>, %p: memref<2x128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.subview %p[0, 0, 0] [1, 128, 128] [1, 1, 1] : memref<2x128x128xf32> to memref<128x128xf32, strided<[128, 1]>>
  %d = memref.subview %p[0, 0, 0] [1, 128, 128] [1, 1, 1] : memref<2x128x128xf32> to memref<128x128xf32, strided<[128, 1]>>
  linalg.broadcast ins(%bias : memref<128xf32>) outs(%c : memref<128x128xf32, strided<[128, 1]>>) dimensions = [0]
  linalg.fill ins(%zero : f32) outs(%d : memref<128x128xf32, strided<[128, 1]>>)
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32, strided<[128, 1]>>)
  return
}

// -----

// An elementwise op right after the product that reads it element by
// element is applied to the accumulators before they are stored: in place
// (bias and ReLU into the product's buffer), or into its own output, the
// product's temporary then never stored. Not where the epilogue writes an
// input of the product (blocks still reading it would see the stores).
// CHECK-LABEL: func.func @matmul_relu(
// CHECK:         gpu.launch
// CHECK:           memref.load %arg2[%{{.*}}] : memref<128xf32>
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           vector.store %{{.*}}, %arg3
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @matmul_into_temporary(
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK-NOT:       vector.store %{{.*}}, %alloc
// CHECK:           vector.store %{{.*}}, %arg2
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @epilogue_writes_an_input(
// CHECK:         gpu.launch
// CHECK-NOT:       arith.maximumf
// CHECK:           gpu.terminator
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @matmul_relu(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %bias: memref<128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%c : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<128x128xf32>, memref<128xf32>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
func.func @matmul_into_temporary(%a: memref<128x32xf32>, %b: memref<32x128xf32>, %d: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x128xf32>) outs(%t : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<128x128xf32>) outs(%d : memref<128x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %t : memref<128x128xf32>
  return
}
func.func @epilogue_writes_an_input(%a: memref<128x128xf32>, %b: memref<128x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x128xf32>, memref<128x128xf32>) outs(%c : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<128x128xf32>) outs(%a : memref<128x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
