// Split-K in ke-stage-contractions-for-gpu: blocks sharing an output tile,
// each over its own steps of K, add their partial sums into the output.
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 k-splits=4}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 fill-blocks=8}))' | FileCheck %s --check-prefix=FILL
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 fill-blocks=1000}))' | FileCheck %s --check-prefix=FLOOR
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8}))' | FileCheck %s --check-prefix=NONE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 fill-blocks=5}))' | FileCheck %s --check-prefix=NEARLY
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 fill-blocks=6}))' | FileCheck %s --check-prefix=FILL
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{fill-blocks=264}))' | FileCheck %s --check-prefix=LONG
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{fill-blocks=264 k-splits=1}))' | FileCheck %s --check-prefix=LONG-UNSPLIT
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 k-splits=3}))' 2>&1 | FileCheck %s --check-prefix=BADSPLITS
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-stage-contractions-for-gpu{min-blocks=1 warps=8 k-splits=-1}))' 2>&1 | FileCheck %s --check-prefix=BADSPLITS

// BADSPLITS: k-splits 0 or a power of two up to 64 (got tile=64, k-step=16, warps=8, stages=3, k-splits=

// A 128x128x512 matmul after a fill, 64x64 tiles (2 x 2 blocks), split in
// 4 along z: each block walks 8 of the 32 steps of 16, from k = z * 128.
// The fill stays (the splits add onto it), the accumulators start at
// zero, and each thread's 16 outputs are added atomically, none stored.
// CHECK-LABEL: func.func @matmul
// CHECK:         linalg.fill
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c4{{.*}}) threads
// CHECK:           %[[SPLIT:.*]] = arith.divui %[[Z]], %c1{{.*}} : index
// CHECK:           %[[FIRSTK:.*]] = arith.muli %[[SPLIT]], %c128{{.*}} : index
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// The first copies start at the split's first k; copies end with the
// split's own 128 elements of K (its last prefetches copy nothing).
// CHECK:           arith.addi %[[FIRSTK]], %c0
// CHECK:           %[[END:.*]] = arith.addi %[[FIRSTK]], %c128{{.*}} : index
// CHECK:           %[[OWN:.*]] = arith.cmpi ult, %{{.*}}, %[[END]] : index
// CHECK:           arith.andi %{{.*}}, %[[OWN]] : i1
// CHECK:           nvgpu.device_async_copy
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c8{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[ZERO]],
// CHECK-COUNT-16:  memref.atomic_rmw addf %{{.*}}, %arg2[%{{.*}}, %{{.*}}] : (f32, memref<128x128xf32>) -> f32
// CHECK-NOT:       vector.store
// CHECK:           gpu.terminator
// Without a split (the fewest blocks already there, or no fill-blocks):
// the fill's value starts the accumulators and the outputs are stored.
// NONE-LABEL: func.func @matmul
// NONE-NOT:     linalg.fill
// NONE:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads
// NONE-NOT:     memref.atomic_rmw
// NONE:         vector.store
// Four blocks, eight (or six) wanted: two splits.
// FILL-LABEL: func.func @matmul
// FILL:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}) threads
// FILL:         memref.atomic_rmw addf
// Four blocks, five wanted: at least three quarters of the grid is there,
// so K is not split (a split grid that full ran slower on an H100, and
// its fill and epilogue would stay kernels of their own).
// NEARLY-LABEL: func.func @matmul
// NEARLY-NOT:     linalg.fill
// NEARLY:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads
// NEARLY-NOT:     memref.atomic_rmw
// NEARLY-LABEL: func.func @matmul_knob
// A thousand wanted: no more splits than leave each block 8 steps (4).
// FLOOR-LABEL: func.func @matmul
// FLOOR:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c4{{.*}}) threads
func.func @matmul(%a: memref<128x512xf32>, %b: memref<512x128xf32>, %c: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x128xf32>)
  linalg.matmul ins(%a, %b : memref<128x512xf32>, memref<512x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// The function's ke.gpu_k_splits (the search's knob) wins over the option.
// CHECK-LABEL: func.func @matmul_knob
// CHECK:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}) threads
// CHECK:           memref.atomic_rmw addf
// NONE-LABEL: func.func @matmul_knob
// NONE:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}) threads
func.func @matmul_knob(%a: memref<128x512xf32>, %b: memref<512x128xf32>, %c: memref<128x128xf32>) attributes {ke.gpu_k_splits = 2 : i64} {
  linalg.matmul ins(%a, %b : memref<128x512xf32>, memref<512x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Two batches split in 2: z = split * 2 + batch.
// CHECK-LABEL: func.func @batch_matmul
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %[[Z:.*]]) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c8{{.*}}) threads
// CHECK:           %[[BATCH:.*]] = arith.remui %[[Z]], %c2{{.*}} : index
// CHECK:           arith.divui %[[Z]], %c2{{.*}} : index
// CHECK:           memref.atomic_rmw addf %{{.*}}, %arg2[%[[BATCH]], %{{.*}}, %{{.*}}]
func.func @batch_matmul(%a: memref<2x64x512xf32>, %b: memref<2x512x64xf32>, %c: memref<2x64x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x64x512xf32>, memref<2x512x64xf32>) outs(%c : memref<2x64x64xf32>)
  return
}

// -----

// Three steps of K do not split in 2 or 4: one block per tile.
// CHECK-LABEL: func.func @odd_steps
// CHECK:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads
// CHECK-NOT:       memref.atomic_rmw
// CHECK:           gpu.terminator
func.func @odd_steps(%a: memref<128x48xf32>, %b: memref<48x128xf32>, %c: memref<128x128xf32>) {
  linalg.matmul ins(%a, %b : memref<128x48xf32>, memref<48x128xf32>) outs(%c : memref<128x128xf32>)
  return
}

// -----

// A reduction 32 times longer than the output's sides keeps its 64 x 64
// tiles (4 x 4 blocks, under min-blocks) and is split 32 ways along K to
// fill the grid, rather than cut into 16 x 16 tiles that each walk all of K.
// LONG-LABEL: func.func @long_reduction
// LONG:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c4{{(_[0-9]+)?}}, %{{.*}} = %c4{{(_[0-9]+)?}}, %{{.*}} = %c32{{(_[0-9]+)?}}) threads
// LONG:           memref.atomic_rmw addf
// A reduction as long as the output's sides is not: its tiles halve until
// the grid has min-blocks blocks (16 x 16 of 16 x 16), unsplit.
// LONG-LABEL: func.func @short_reduction
// LONG:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c16{{(_[0-9]+)?}}, %{{.*}} = %c16{{(_[0-9]+)?}}, %{{.*}} = %c1{{(_[0-9]+)?}}) threads
// LONG-NOT:       memref.atomic_rmw
// With splitting off, the long reduction's tiles halve as any others.
// LONG-UNSPLIT-LABEL: func.func @long_reduction
// LONG-UNSPLIT:         gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c16{{(_[0-9]+)?}}, %{{.*}} = %c16{{(_[0-9]+)?}}, %{{.*}} = %c1{{(_[0-9]+)?}}) threads
// LONG-UNSPLIT-NOT:       memref.atomic_rmw
func.func @long_reduction(%a: memref<256x8192xf32>, %b: memref<8192x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x8192xf32>, memref<8192x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
func.func @short_reduction(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x256xf32>)
  linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}
