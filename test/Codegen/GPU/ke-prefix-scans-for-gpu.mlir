// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{chunk=16 warps=0}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{chunk=64 warps=0}))' | FileCheck %s --check-prefix=ONE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{warp-chunk=16}))' | FileCheck %s --check-prefix=WARP
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{warp-chunk=64}))' | FileCheck %s --check-prefix=WONE
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{chunk=0}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{warps=33}))' 2>&1 | FileCheck %s --check-prefix=BAD-WARPS

// BAD: ke-prefix-scans-for-gpu: chunk and warp-chunk must be positive and warps 0 to 32 (0: no warp scans), got chunk=0, warp-chunk=1024, warps=8
// BAD-WARPS: got chunk=256, warp-chunk=1024, warps=33

// A cumsum over rows of 64 as torch-mlir writes it: six log-step steps
// (shifts 1 to 32). Without warp scans (warps=0), with chunks of 16: each
// row's 4 chunk totals (a
// reduction over the chunk, in f64), their exclusive offsets (a reduction
// over the chunks before, masked with linalg.index), then a thread per
// (row, chunk) running through its 16 elements from the offset, writing
// each into its slice of the shared output. No step of the chain is left.
// CHECK-LABEL: func.func @cumsum
// CHECK:         %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [4, 4, 16]
// CHECK:         %[[TOTALS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<4x4x16xf32>) outs(%{{.*}} : tensor<4x4xf64>)
// CHECK:           arith.extf
// CHECK:           arith.addf {{.*}} : f64
// CHECK:         %[[OFFSETS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[TOTALS]] : tensor<4x4xf64>) outs(%{{.*}} : tensor<4x4xf64>)
// CHECK:           %[[C:.*]] = linalg.index 1
// CHECK:           %[[BEFORE:.*]] = linalg.index 2
// CHECK:           %[[EARLIER:.*]] = arith.cmpi ult, %[[BEFORE]], %[[C]]
// CHECK:           arith.select %[[EARLIER]]
// CHECK:         scf.forall (%[[ROW:.*]], %[[CHUNK:.*]]) in (4, 4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4x64xf32>)
// CHECK:           %[[START:.*]] = arith.muli %[[CHUNK]], %c16
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], %[[START]]] [1, 16] [1, 1]
// CHECK:           %[[FROM:.*]] = tensor.extract %[[OFFSETS]][%[[ROW]], %[[CHUNK]]]
// Sixteen elements (64 bytes) read before any is written, then scanned and
// written one by one.
// CHECK:           %[[RESULT:.*]]:2 = scf.for %[[K:.*]] = %c0 to %c16{{.*}} step %c16{{.*}} iter_args(%[[RUNNING:.*]] = %[[FROM]], %[[ACC:.*]] = %[[SLICE]]) -> (f64, tensor<1x16xf32>)
// CHECK:             %[[AT:.*]] = arith.addi %[[START]], %[[K]]
// CHECK:             %[[V:.*]] = tensor.extract %arg0[%[[ROW]], %[[AT]]]
// CHECK-COUNT-15:    tensor.extract %arg0
// CHECK-NOT:         tensor.insert
// CHECK:             %[[W:.*]] = arith.extf %[[V]]
// CHECK:             %[[NEXT:.*]] = arith.addf %[[RUNNING]], %[[W]] : f64
// CHECK:             %[[T:.*]] = arith.truncf %[[NEXT]]
// CHECK:             tensor.insert %[[T]] into %[[ACC]][%c0, %[[K]]]
// CHECK-COUNT-15:    tensor.insert
// CHECK:           tensor.parallel_insert_slice %[[RESULT]]#1 into %[[OUT]][%[[ROW]], %[[START]]] [1, 16] [1, 1]
// CHECK-NOT:     tensor.concat
// CHECK-NOT:     linalg.generic
// A chunk of the whole row: no totals, no offsets, the running value
// starts from 0.
// ONE-LABEL: func.func @cumsum
// ONE-NOT:     linalg.generic
// ONE:         scf.forall (%{{.*}}, %{{.*}}) in (4, 1)
// ONE:           scf.for {{.*}} to %c64
// ONE-NOT:     tensor.concat
// With warp scans (the default) and warp chunks of 16: the same totals,
// no offsets step, then a gpu.launch on the buffers of the input and the
// totals, writing a new buffer: 16 chunks, a warp each, 8 warps a block.
// A warp starts from the totals before its chunk: each lane combines its
// share (chunks lane, lane + 32, ...; masked to those before), then a
// butterfly of 5 shuffles of its f64. A lane loads a
// 16-byte vector (the 4 lanes that cover a chunk; the others load and
// store nothing), scans it in f64, then the warp scans the lanes' totals
// with f64 shuffles (5 steps up, one more for the exclusive prefix, one
// from lane 31 for the warp's total; their lowering splits each into two
// 32-bit shuffles). No shared memory, no barrier.
// WARP-LABEL: func.func @cumsum
// WARP:         %[[TOTALS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x4xf64>)
// WARP-NOT:     linalg.generic
// WARP:         %[[X:.*]] = bufferization.to_buffer %arg0 read_only : tensor<4x64xf32> to memref<4x64xf32>
// WARP:         %[[ALL:.*]] = bufferization.to_buffer %[[TOTALS]] read_only
// WARP:         %[[OUT:.*]] = memref.alloc() : memref<4x64xf32>
// WARP:         gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}} = %c1, {{.*}} = %c1) threads(%[[LANE:.*]], %{{.*}}, %{{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} = %c1)
// WARP-NOT:       workgroup
// WARP:           scf.for %[[OTHER:.*]] = %[[LANE]] to %c4 step %c32
// WARP:             memref.load %[[ALL]]
// WARP:             arith.cmpi ult, %[[OTHER]]
// WARP-COUNT-5:   gpu.shuffle  xor {{.*}} : f64
// WARP:           scf.for {{.*}} -> (f64)
// WARP:             scf.if {{.*}} -> (vector<4xf32>)
// WARP:               vector.load %[[X]]{{.*}} {alignment = 16 : i64} : memref<4x64xf32>, vector<4xf32>
// WARP-COUNT-4:     arith.extf
// WARP-COUNT-6:     gpu.shuffle  up {{.*}} : f64
// WARP:             gpu.shuffle  idx {{.*}}, %c31_i32{{.*}}, %c32_i32{{.*}} : f64
// WARP-NOT:         gpu.shuffle
// WARP-NOT:         gpu.barrier
// WARP:             scf.if
// WARP:               vector.store {{.*}}, %[[OUT]]{{.*}} {alignment = 16 : i64}
// WARP:         bufferization.to_tensor %[[OUT]] restrict writable
// WARP-NOT:     tensor.concat
// One chunk a row: no totals, no offsets, the running value starts at 0;
// 4 rows, so one block of 4 warps.
// WONE-LABEL: func.func @cumsum
// WONE-NOT:     linalg.generic
// WONE:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1, {{.*}} = %c1) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c4, {{.*}} = %c1)
// WONE:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// WONE:           scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (f64)
// WONE-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cumsum(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %z0 = arith.constant dense<0.0> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %x[0, 0] [4, 63] [1, 1] : tensor<4x64xf32> to tensor<4x63xf32>
  %c0 = tensor.concat dim(1) %z0, %s0 : (tensor<4x1xf32>, tensor<4x63xf32>) -> tensor<4x64xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %c0 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  %z1 = arith.constant dense<0.0> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 62] [1, 1] : tensor<4x64xf32> to tensor<4x62xf32>
  %c1 = tensor.concat dim(1) %z1, %s1 : (tensor<4x2xf32>, tensor<4x62xf32>) -> tensor<4x64xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r0, %c1 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  %z2 = arith.constant dense<0.0> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 60] [1, 1] : tensor<4x64xf32> to tensor<4x60xf32>
  %c2 = tensor.concat dim(1) %z2, %s2 : (tensor<4x4xf32>, tensor<4x60xf32>) -> tensor<4x64xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r1, %c2 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  %z3 = arith.constant dense<0.0> : tensor<4x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 56] [1, 1] : tensor<4x64xf32> to tensor<4x56xf32>
  %c3 = tensor.concat dim(1) %z3, %s3 : (tensor<4x8xf32>, tensor<4x56xf32>) -> tensor<4x64xf32>
  %r3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r2, %c3 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  %z4 = arith.constant dense<0.0> : tensor<4x16xf32>
  %s4 = tensor.extract_slice %r3[0, 0] [4, 48] [1, 1] : tensor<4x64xf32> to tensor<4x48xf32>
  %c4 = tensor.concat dim(1) %z4, %s4 : (tensor<4x16xf32>, tensor<4x48xf32>) -> tensor<4x64xf32>
  %r4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r3, %c4 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  %z5 = arith.constant dense<0.0> : tensor<4x32xf32>
  %s5 = tensor.extract_slice %r4[0, 0] [4, 32] [1, 1] : tensor<4x64xf32> to tensor<4x32xf32>
  %c5 = tensor.concat dim(1) %z5, %s5 : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x64xf32>
  %r5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r4, %c5 : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x64xf32>
  return %r5 : tensor<4x64xf32>
}

// -----

// A running minimum from the end of each row, as torch-mlir writes
// x.flip(1).cummin(1).flip(1) (its flips gather element n - 1 - i), on i32.
// With warp scans no flip is left: the totals are those of %arg0's chunks,
// each warp starts from the chunks after its own and scans its chunk of
// %arg0 from the end: the vector ending 12 elements before the chunk's end
// first, read last element first, stored where it was read. 32-bit values
// move in one shuffle.
// CHECK-LABEL: func.func @running_min_reverse
// CHECK:         tensor.extract %arg0
// CHECK:         scf.forall
// CHECK-NOT:     gpu.launch
// WARP-LABEL: func.func @running_min_reverse
// WARP-NOT:     tensor.extract
// WARP:         tensor.expand_shape %arg0
// WARP:         %[[X:.*]] = bufferization.to_buffer %arg0 read_only
// WARP:         gpu.launch
// WARP:           arith.cmpi ugt
// WARP-COUNT-5:   gpu.shuffle  xor {{.*}} : i32
// WARP:           arith.subi %c12{{.*}}, %{{.*}} : index
// WARP:           vector.load %[[X]]{{.*}} : memref<4x32xi32>, vector<4xi32>
// WARP:           vector.extract %{{.*}}[3] : i32 from vector<4xi32>
// WARP:           vector.extract %{{.*}}[2] : i32 from vector<4xi32>
// WARP:           arith.minsi
// WARP-COUNT-6:   gpu.shuffle  up {{.*}} : i32
// WARP:           gpu.shuffle  idx
// WARP-NOT:       gpu.shuffle
// WARP:           vector.from_elements
// WARP-NOT:     linalg.generic
// WARP:         return
func.func @running_min_reverse(%arg0: tensor<4x32xi32>) -> tensor<4x32xi32> {
  %e = tensor.empty() : tensor<4x32xi32>
  %flipped = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x32xi32>) {
  ^bb0(%o: i32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %last = arith.constant 31 : index
    %m = arith.subi %last, %i1 : index
    %x = tensor.extract %arg0[%i0, %m] : tensor<4x32xi32>
    linalg.yield %x : i32
  } -> tensor<4x32xi32>
  %c0 = arith.constant dense<2147483647> : tensor<4x1xi32>
  %s0 = tensor.extract_slice %flipped[0, 0] [4, 31] [1, 1] : tensor<4x32xi32> to tensor<4x31xi32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xi32>, tensor<4x31xi32>) -> tensor<4x32xi32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%flipped, %k0 : tensor<4x32xi32>, tensor<4x32xi32>) outs(%e : tensor<4x32xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.minsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<4x32xi32>
  %c1 = arith.constant dense<2147483647> : tensor<4x2xi32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 30] [1, 1] : tensor<4x32xi32> to tensor<4x30xi32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xi32>, tensor<4x30xi32>) -> tensor<4x32xi32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x32xi32>, tensor<4x32xi32>) outs(%e : tensor<4x32xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.minsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<4x32xi32>
  %c2 = arith.constant dense<2147483647> : tensor<4x4xi32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 28] [1, 1] : tensor<4x32xi32> to tensor<4x28xi32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<4x4xi32>, tensor<4x28xi32>) -> tensor<4x32xi32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<4x32xi32>, tensor<4x32xi32>) outs(%e : tensor<4x32xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.minsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<4x32xi32>
  %c3 = arith.constant dense<2147483647> : tensor<4x8xi32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 24] [1, 1] : tensor<4x32xi32> to tensor<4x24xi32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<4x8xi32>, tensor<4x24xi32>) -> tensor<4x32xi32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<4x32xi32>, tensor<4x32xi32>) outs(%e : tensor<4x32xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.minsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<4x32xi32>
  %c4 = arith.constant dense<2147483647> : tensor<4x16xi32>
  %s4 = tensor.extract_slice %r3[0, 0] [4, 16] [1, 1] : tensor<4x32xi32> to tensor<4x16xi32>
  %k4 = tensor.concat dim(1) %c4, %s4 : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x32xi32>
  %r4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r3, %k4 : tensor<4x32xi32>, tensor<4x32xi32>) outs(%e : tensor<4x32xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.minsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<4x32xi32>
  %back = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x32xi32>) {
  ^bb0(%o: i32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %last = arith.constant 31 : index
    %m = arith.subi %last, %i1 : index
    %x = tensor.extract %r4[%i0, %m] : tensor<4x32xi32>
    linalg.yield %x : i32
  } -> tensor<4x32xi32>
  return %back : tensor<4x32xi32>
}

// -----

// A cumsum down columns (an outer dimension) stays a thread per chunk with
// warp scans on: neighbouring threads run down neighbouring columns.
// CHECK-LABEL: func.func @cumsum_columns
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (1, 4)
// WARP-LABEL: func.func @cumsum_columns
// WARP-NOT:     gpu.launch
// WARP:         scf.forall (%{{.*}}, %{{.*}}) in (1, 4)
// WARP-NOT:     gpu.launch
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @cumsum_columns(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %z0 = arith.constant dense<0.0> : tensor<1x4xf32>
  %s0 = tensor.extract_slice %x[0, 0] [7, 4] [1, 1] : tensor<8x4xf32> to tensor<7x4xf32>
  %c0 = tensor.concat dim(0) %z0, %s0 : (tensor<1x4xf32>, tensor<7x4xf32>) -> tensor<8x4xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %c0 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %z1 = arith.constant dense<0.0> : tensor<2x4xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [6, 4] [1, 1] : tensor<8x4xf32> to tensor<6x4xf32>
  %c1 = tensor.concat dim(0) %z1, %s1 : (tensor<2x4xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r0, %c1 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %z2 = arith.constant dense<0.0> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
  %c2 = tensor.concat dim(0) %z2, %s2 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%r1, %c2 : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  return %r2 : tensor<8x4xf32>
}

// -----

// A scan of a static slice (an exclusive cumsum's narrow) reads the
// slice's strided view of its source in place, not a copy: its rows start
// 2 elements into rows of 64, so a lane's vectors are 2 wide (8 bytes),
// not 4, though 4 divide the chunk of 60.
// WARP-LABEL: func.func @cumsum_slice
// WARP:         %[[VIEW:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4x60xf32> to memref<4x60xf32, strided<[64, 1], offset: 2>>
// WARP:         gpu.launch
// WARP:           vector.load %[[VIEW]]{{.*}} {alignment = 8 : i64} : memref<4x60xf32, strided<[64, 1], offset: 2>>, vector<2xf32>
// WARP:           vector.store {{.*}} : memref<4x60xf32>, vector<2xf32>
func.func @cumsum_slice(%x: tensor<4x64xf32>) -> tensor<4x60xf32> {
  %arg0 = tensor.extract_slice %x[0, 2] [4, 60] [1, 1] : tensor<4x64xf32> to tensor<4x60xf32>
  %e = tensor.empty() : tensor<4x60xf32>
  %c0 = arith.constant dense<0.000000e+00> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [4, 59] [1, 1] : tensor<4x60xf32> to tensor<4x59xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xf32>, tensor<4x59xf32>) -> tensor<4x60xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<4x60xf32>, tensor<4x60xf32>) outs(%e : tensor<4x60xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x60xf32>
  %c1 = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 58] [1, 1] : tensor<4x60xf32> to tensor<4x58xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xf32>, tensor<4x58xf32>) -> tensor<4x60xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x60xf32>, tensor<4x60xf32>) outs(%e : tensor<4x60xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x60xf32>
  %c2 = arith.constant dense<0.000000e+00> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 56] [1, 1] : tensor<4x60xf32> to tensor<4x56xf32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<4x4xf32>, tensor<4x56xf32>) -> tensor<4x60xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<4x60xf32>, tensor<4x60xf32>) outs(%e : tensor<4x60xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x60xf32>
  %c3 = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 52] [1, 1] : tensor<4x60xf32> to tensor<4x52xf32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<4x8xf32>, tensor<4x52xf32>) -> tensor<4x60xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<4x60xf32>, tensor<4x60xf32>) outs(%e : tensor<4x60xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x60xf32>
  %c4 = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
  %s4 = tensor.extract_slice %r3[0, 0] [4, 44] [1, 1] : tensor<4x60xf32> to tensor<4x44xf32>
  %k4 = tensor.concat dim(1) %c4, %s4 : (tensor<4x16xf32>, tensor<4x44xf32>) -> tensor<4x60xf32>
  %r4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r3, %k4 : tensor<4x60xf32>, tensor<4x60xf32>) outs(%e : tensor<4x60xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x60xf32>
  %c5 = arith.constant dense<0.000000e+00> : tensor<4x32xf32>
  %s5 = tensor.extract_slice %r4[0, 0] [4, 28] [1, 1] : tensor<4x60xf32> to tensor<4x28xf32>
  %k5 = tensor.concat dim(1) %c5, %s5 : (tensor<4x32xf32>, tensor<4x28xf32>) -> tensor<4x60xf32>
  %r5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r4, %k5 : tensor<4x60xf32>, tensor<4x60xf32>) outs(%e : tensor<4x60xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x60xf32>
  return %r5 : tensor<4x60xf32>
}
