// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{min-blocks=1 tile=64}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{min-blocks=64 tile=128}))' | FileCheck %s --check-prefix=SHRINK
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{tile=0}))' | FileCheck %s --check-prefix=OFF
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{tile=48}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{stages=0}))' 2>&1 | FileCheck %s --check-prefix=NOSTAGES
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{min-blocks=1 tile=64 stages=1}))' | FileCheck %s --check-prefix=ONE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{min-blocks=1 tile=128}))' | FileCheck %s --check-prefix=BIG
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tensor-core-contractions-for-gpu{min-blocks=1 tile=128 max-shared=114688}))' | FileCheck %s --check-prefix=DYN
// RUN: ke-opt %s -split-input-file -ke-lower-nvgpu | FileCheck %s --check-prefix=PTX

// A bf16 256x128 by 128x256 matmul into f32 after a fill: 4x4 blocks of 4
// warps (128 threads), each block 64x64 outputs, each warp 32x32 of them
// as 2x4 pieces of 16x8 (32 f32 accumulators per lane), starting from the
// fill's value. K runs in steps of 32 through 3 stages of shared memory,
// each input's slice laid out as the input ([row][k] for A, [k][column]
// for B) with 8 elements of padding per row: 16-byte cp.async copies
// (zero-filled past K), started two steps ahead of their mma.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[AS:.*]] : memref<3x64x40xbf16, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<3x32x72xbf16, #gpu.address_space<workgroup>>)
// Both inputs copied from flat views.
// CHECK:         %[[A:.*]] = memref.collapse_shape %arg0
// CHECK:         %[[B:.*]] = memref.collapse_shape %arg1
// Two steps started before the loop, each one group of copies.
// CHECK-COUNT-2: nvgpu.device_async_copy %[[A]][{{.*}}], %[[AS]][{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK-COUNT-2: nvgpu.device_async_copy %[[B]][{{.*}}], %[[BS]][{{.*}}], 8, %{{.*}} {bypassL1}
// CHECK:         nvgpu.device_async_create_group
// CHECK:         nvgpu.device_async_create_group
// CHECK:         scf.for %[[KT:.*]] = %{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[KT]], %c2
// CHECK:           arith.remui %[[AHEAD]], %c3
// CHECK:           %[[GROUP:.*]] = nvgpu.device_async_create_group
// CHECK:           nvgpu.device_async_wait %[[GROUP]] {numGroups = 2 : i32}
// CHECK:           gpu.barrier
// CHECK:           %[[STAGE:.*]] = arith.remui %[[KT]], %c3
// One ldmatrix per A fragment (16 rows by 16 k), pairs of bf16 as 32-bit
// words; B, stored [k][column], transposed by its ldmatrix, one per two
// fragments.
// CHECK-COUNT-2:   nvgpu.ldmatrix %[[AS]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = false} : memref<3x64x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK:           vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK-COUNT-2:   nvgpu.ldmatrix %[[BS]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = true} : memref<3x32x72xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-8:   nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK:           gpu.barrier
// CHECK:         memref.store %{{.*}}, %arg2
// CHECK-NOT:     linalg.matmul
// Large grids keep the 128 tile; small ones halve it down to 32.
// SHRINK-LABEL: func.func @matmul_bf16
// SHRINK:         workgroup(%{{.*}} : memref<3x32x40xbf16
// OFF-LABEL: func.func @matmul_bf16
// OFF:           linalg.matmul
// OFF-NOT:       gpu.launch
// The largest tile: 8 warps of 64 x 32 outputs (4 x 4 pieces, 64
// accumulators); two of its 19 KB stages fit the 48 KB of static shared
// memory.
// BIG-LABEL: func.func @matmul_bf16
// BIG:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%{{.*}} : memref<2x128x40xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<2x32x136xbf16, #gpu.address_space<workgroup>>)
// Allowed more, its 3 stages (57 KB) are views into the launch's dynamic
// shared memory.
// DYN-LABEL: func.func @matmul_bf16
// DYN:         %[[BYTES:.*]] = arith.constant 56832 : i32
// DYN:         gpu.launch {{.*}} dynamic_shared_memory_size %[[BYTES]] {
// DYN:           %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// DYN:           memref.view %[[DYN]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// DYN:           memref.view %[[DYN]][%c30720{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xbf16, #gpu.address_space<workgroup>>
// BIG:         scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// BAD: tile must be 0, 32, 64 or 128 and stages at least 1 (got tile=48, stages=3)
// NOSTAGES: tile must be 0, 32, 64 or 128 and stages at least 1 (got tile=128, stages=0)
// One stage where shared memory holds no more: copies of a step right
// before its mma.
// ONE-LABEL: func.func @matmul_bf16
// ONE:         workgroup(%{{.*}} : memref<1x64x40xbf16
// ONE:         scf.for
// ONE:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// Through the whole pipeline: one mma.sync per piece, no spills to local memory.
// PTX-LABEL: llvm.func @matmul_bf16
// PTX:         cp.async.cg.shared.global
// PTX:         ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX:         ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX:         mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT:     .local
func.func @matmul_bf16(%a: memref<256x128xbf16>, %b: memref<128x256xbf16>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x128xbf16>, memref<128x256xbf16>) outs(%c : memref<256x256xf32>)
  return
}

// -----

// f16 batches on the grid's z; the output's old values start the sums (no
// fill), read under guards, as do the stores, since 100 rows and 72
// columns leave the last tiles ragged; K = 40 is not a multiple of 32.
// Copies outside the operands copy no elements (zero-filled) from a
// clamped address.
// CHECK-LABEL: func.func @batch_matmul_f16_ragged
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c3{{.*}})
// CHECK:           scf.if
// CHECK:             memref.load %arg2
// CHECK:           %[[COUNT:.*]] = arith.select %{{.*}}, %c8{{.*}}, %c0
// CHECK:           nvgpu.device_async_copy %collapse_shape[{{.*}}], %{{.*}}[{{.*}}], 8, %[[COUNT]] {bypassL1}
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c2{{.*}} step %c1
// CHECK:             nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// CHECK:           scf.if
// CHECK:             memref.store %{{.*}}, %arg2
// PTX-LABEL: llvm.func @batch_matmul_f16_ragged
// PTX:         mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @batch_matmul_f16_ragged(%a: memref<3x100x40xf16>, %b: memref<3x40x72xf16>, %c: memref<3x100x72xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x100x40xf16>, memref<3x40x72xf16>) outs(%c : memref<3x100x72xf32>)
  return
}

// -----

// f32 only with the author's permission: TF32 (m16n8k8), every fragment
// element rounded to the nearest TF32. Both inputs are read along k
// (x W^T), 4 floats per copy (60 = 4 x 15), K in 4 steps of 16.
// CHECK-LABEL: func.func @linear_tf32
// CHECK:         workgroup(%{{.*}} : memref<3x64x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<3x64x20xf32, #gpu.address_space<workgroup>>)
// CHECK:           nvgpu.device_async_copy %collapse_shape[{{.*}}], %{{.*}}[{{.*}}], 4, %{{.*}} {bypassL1}
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c1
// CHECK:             nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK:             nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// PTX-LABEL: llvm.func @linear_tf32
// PTX:         cvt.rna.tf32.f32
// PTX:         mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
func.func @linear_tf32(%x: memref<128x60xf32>, %w: memref<64x60xf32>, %y: memref<128x64xf32>) attributes {ke.precision = "tf32"} {
  linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
    ins(%x, %w : memref<128x60xf32>, memref<64x60xf32>) outs(%y : memref<128x64xf32>)
  return
}

// -----

// f32 without the permission, a body that is not acc + a * b, and a knob
// of 0 are left to the staging pass.
// CHECK-LABEL: func.func @f32_exact
// CHECK:         linalg.matmul
// CHECK-NOT:     nvvm.mma.sync
// PTX-LABEL: llvm.func @f32_exact
// PTX-NOT:     mma.sync
func.func @f32_exact(%a: memref<128x64xf32>, %b: memref<64x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf32>, memref<64x128xf32>) outs(%c : memref<128x128xf32>)
  return
}
// CHECK-LABEL: func.func @not_a_product
// CHECK:         linalg.generic
// CHECK-NOT:     nvvm.mma.sync
func.func @not_a_product(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %c: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %d = arith.subf %xe, %ye : f32
    %p = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @knob_off
// CHECK:         linalg.matmul
// CHECK-NOT:     nvvm.mma.sync
func.func @knob_off(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %c: memref<128x128xf32>) attributes {ke.gpu_tensor_core_tile = 0 : i64} {
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// An elementwise op right after the product that reads it (bias and ReLU)
// runs on the accumulators before they are stored: in place into the
// product's buffer, or into its own output, the product's temporary then
// never stored. One launch; the epilogue's generic goes away.
// CHECK-LABEL: func.func @matmul_bias_relu_bf16(
// PTX-LABEL:   llvm.func @matmul_bias_relu_bf16(
// PTX:           mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX:           max.NaN.f32
// PTX:           st.global.b32
// CHECK:         gpu.launch
// CHECK:           nvvm.mma.sync
// CHECK:           memref.load %arg2[%{{.*}}] : memref<128xf32>
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           memref.store %{{.*}}, %arg3
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @matmul_relu_into_temporary_bf16(
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK-NOT:       memref.store %{{.*}}, %alloc
// CHECK:           memref.store %{{.*}}, %arg2
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @matmul_bias_relu_bf16(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %bias: memref<128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<128x128xf32>, memref<128xf32>) outs(%c : memref<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
func.func @matmul_relu_into_temporary_bf16(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %d: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%t : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<128x128xf32>) outs(%d : memref<128x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
