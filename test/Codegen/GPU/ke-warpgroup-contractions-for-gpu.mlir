// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=1}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=8}))' | FileCheck %s --check-prefix=NARROW
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=16}))' | FileCheck %s --check-prefix=ROWS64
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=32}))' | FileCheck %s --check-prefix=ROWS64
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=33}))' | FileCheck %s --check-prefix=OFF
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=1 max-shared=120000}))' | FileCheck %s --check-prefix=FEWER
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{tile=0}))' | FileCheck %s --check-prefix=OFF
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{tile=64}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ke-opt %s -split-input-file -ke-lower-nvgpu | FileCheck %s --check-prefix=PTX

// A bf16 256x512 by 512x512 product into zero-filled f32: 2 x 2 blocks of
// 128 x 256 outputs, two warpgroups each (64 rows by 256 columns of
// accumulators). Tensor maps of A (boxes 128 x 64) and B (64 x 64) on the
// host; K in 8 blocks of 64 through 4 stages of 16 KB of A and 32 KB of B
// past a 1024-byte boundary of the dynamic shared memory; thread 0 starts
// the first 4 blocks' copies on the stages' barriers.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK-NOT:     linalg.fill
// CHECK:         %[[AMAP:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xbf16> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         %[[BMAP:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         %[[BYTES:.*]] = arith.constant 197632 : i32
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size %[[BYTES]]
// CHECK:           %[[BARRIERS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK:           scf.if
// CHECK-COUNT-4:     nvgpu.mbarrier.init %[[BARRIERS]]
// Per block: one expect_tx of 48 KB, one A box, four B boxes.
// CHECK:             nvgpu.mbarrier.arrive.expect_tx %[[BARRIERS]][%{{.*}}], %c49152
// CHECK:             %[[ATILE:.*]] = memref.view
// CHECK:             nvgpu.tma.async.load %[[AMAP]][%{{.*}}, %{{.*}}], %[[BARRIERS]][%{{.*}}] to %[[ATILE]] : {{.*}} -> memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:     nvgpu.tma.async.load %[[BMAP]][%{{.*}}, %{{.*}}], %[[BARRIERS]][%{{.*}}] to %{{.*}} : {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK:           gpu.barrier
// CHECK:           %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK:           %[[ACC:.*]] = scf.for %[[STEP:.*]] = %{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args(%[[C:.*]] = %[[INIT]])
// CHECK:             nvgpu.mbarrier.try_wait.parity %[[BARRIERS]]
// CHECK:             %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[AMAP]] : memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK:             %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[BMAP]] : memref<64x256xbf16, #gpu.address_space<workgroup>>
// CHECK:             %[[D:.*]] = nvgpu.warpgroup.mma %[[DA]], %[[DB]], %[[C]] {transposeB} : <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xbf16, #gpu.address_space<workgroup>>>, <fragmented = vector<64x256xf32>>
// A refill of the previous step's stage, behind the block barrier.
// CHECK:             scf.if
// CHECK-NEXT:          gpu.barrier
// CHECK:               nvgpu.tma.async.load %[[AMAP]]
// CHECK:             scf.yield %[[D]]
// CHECK:           nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:           %[[OUT:.*]] = memref.subview %arg2[%{{.*}}, %{{.*}}] [64, 256] [1, 1]
// CHECK:           nvgpu.warpgroup.mma.store %[[ACC]], %[[OUT]]
// CHECK-NOT:     linalg.matmul

// Four blocks of 128 x 256 are fewer than 8: 128 x 128 tiles (8 blocks),
// one warpgroup of 128 x 128 accumulators; 4 stages of 32 KB.
// NARROW-LABEL: func.func @matmul_bf16
// NARROW:         %[[BYTES:.*]] = arith.constant 132096 : i32
// NARROW:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c8{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}}, {{.*}} dynamic_shared_memory_size %[[BYTES]]
// NARROW:           nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// NARROW:           nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>

// 16 blocks: only 64 x 128 tiles give them (one warpgroup of 64 x 128
// accumulators, A in boxes of 64 x 64); with 32 asked, 64 x 128 still
// gives half as many and is taken, with 33 not (OFF above).
// ROWS64-LABEL: func.func @matmul_bf16
// ROWS64:         nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}] : memref<*xbf16> -> <tensor = memref<64x64xbf16
// ROWS64:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c128{{.*}},
// ROWS64:           nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c24576
// ROWS64:           nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// ROWS64:           memref.subview %arg2[%{{.*}}, %{{.*}}] [64, 128] [1, 1]

// Two stages of 48 KB under 120000 bytes.
// FEWER-LABEL: func.func @matmul_bf16
// FEWER:         nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>

// OFF-LABEL: func.func @matmul_bf16
// OFF:         linalg.matmul
// OFF-NOT:     nvgpu

// BAD: ke-warpgroup-contractions-for-gpu: tile must be 0, 128 or 256 (got 64)

func.func @matmul_bf16(%A: memref<256x512xbf16>, %B: memref<512x512xbf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul ins(%A, %B : memref<256x512xbf16>, memref<512x512xbf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

// Left to mma.sync: f32 inputs; a fill other than zero; no fill (the
// accumulators cannot start from C).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     nvgpu.
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT:     nvgpu.
// CHECK:         return
func.func @left_alone(%A: memref<256x512xf32>, %B: memref<512x512xf32>, %C: memref<256x512xf32>,
                      %A16: memref<256x512xf16>, %B16: memref<512x512xf16>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul ins(%A, %B : memref<256x512xf32>, memref<512x512xf32>) outs(%C : memref<256x512xf32>)
  linalg.fill ins(%one : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul ins(%A16, %B16 : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  linalg.matmul ins(%A16, %B16 : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

// B read along K ([N][K], a Linear's weight): one box of 256 rows of B by
// 64 of K per stage, both operands K-major, one mma per 16 of K (four per
// block), each on descriptors 32 bytes further into the swizzled rows,
// each waiting only for the previous block's four.
// CHECK-LABEL: func.func @b_along_k
// CHECK:         %[[AMAP:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c128{{.*}}, %c64{{.*}}] : memref<*xf16>
// CHECK:         %[[BMAP:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c256{{.*}}, %c64{{.*}}] : memref<*xf16> -> <tensor = memref<256x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:         gpu.launch
// CHECK:             nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152
// CHECK:             nvgpu.tma.async.load %[[AMAP]]
// CHECK:             %[[BTILE:.*]] = memref.view
// CHECK-NEXT:        nvgpu.tma.async.load %[[BMAP]][%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %[[BTILE]] : {{.*}} -> memref<256x64xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK:             nvgpu.mbarrier.try_wait.parity
// CHECK:             %[[A0:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[AMAP]] : memref<64x16xf16
// CHECK:             %[[B0:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %[[BMAP]] : memref<16x256xf16
// CHECK:             %[[D0:.*]] = nvgpu.warpgroup.mma %[[A0]], %[[B0]], %{{.*}} {waitGroup = 4 : i64} : <tensor = memref<64x16xf16
// CHECK:             %[[A1OFF:.*]] = arith.addi %{{.*}}, %c32
// CHECK:             memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x16xf16
// CHECK:             %[[B1OFF:.*]] = arith.addi %{{.*}}, %c32
// CHECK:             %[[D1:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D0]] {waitGroup = 4 : i64}
// CHECK:             %[[D2:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D1]] {waitGroup = 4 : i64}
// CHECK:             %[[D3:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[D2]] {waitGroup = 4 : i64}
// CHECK-NOT:         nvgpu.warpgroup.mma
// CHECK:             scf.yield %[[D3]]
// CHECK-NOT:     linalg.matmul
// CHECK:         return
// With 128 x 128 tiles, two warpgroups of 64 rows each: one warpgroup of
// 128 rows would step its per-16 descriptors to rows 64-127 wrongly.
// NARROW-LABEL: func.func @b_along_k
// NARROW:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c8{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}},
// NARROW:           nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
func.func @b_along_k(%A: memref<256x512xf16>, %B: memref<512x512xf16>, %C: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<256x512xf32>)
  linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>]
    ins(%A, %B : memref<256x512xf16>, memref<512x512xf16>) outs(%C : memref<256x512xf32>)
  return
}

// -----

// Through the whole pipeline (132 blocks at least: 16 x 16 of 128 x 256),
// on sm_90a: bulk tensor copies, m64n256k16 wgmmas on descriptors, the
// tensor maps made on the host by ke-run's runtime.
// PTX: llvm.call @mgpuTensorMapEncodeTiledMemref
// PTX: .target sm_90a
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// The last two immediates: A and B not transposed (N-major B is).
// PTX: p, 1, 1, 0, 1;
func.func @large_bf16(%A: tensor<2048x1024xbf16>, %B: tensor<1024x4096xbf16>) -> tensor<2048x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2048x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %C = linalg.matmul ins(%A, %B : tensor<2048x1024xbf16>, tensor<1024x4096xbf16>) outs(%init : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  return %C : tensor<2048x4096xf32>
}

// -----

// A Linear through the whole pipeline: both operands K-major (the last
// immediates 0, 0), no transposing copy kernel left.
// PTX-LABEL: llvm.func @large_linear
// PTX: llvm.call @mgpuTensorMapEncodeTiledMemref
// PTX-NOT: gpu.launch_func @{{.*}}generic
// PTX: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX: p, 1, 1, 0, 0;
func.func @large_linear(%x: tensor<2048x1024xbf16>, %w: tensor<4096x1024xbf16>) -> tensor<2048x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %wtEmpty = tensor.empty() : tensor<1024x4096xbf16>
  %wt = linalg.transpose ins(%w : tensor<4096x1024xbf16>) outs(%wtEmpty : tensor<1024x4096xbf16>) permutation = [1, 0]
  %empty = tensor.empty() : tensor<2048x4096xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<2048x1024xbf16>, tensor<1024x4096xbf16>) outs(%init : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  return %y : tensor<2048x4096xf32>
}
