// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8},canonicalize))' | FileCheck %s --check-prefix=FILL
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8 vector-registers=16 vector-register-bits=256}))' | FileCheck %s --check-prefix=AVX2
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=0}))' 2>&1 | FileCheck %s --check-prefix=BADWIDTH
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-registers=0}))' 2>&1 | FileCheck %s --check-prefix=BADREGISTERS
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8 elementwise-vector-width=16}))' | FileCheck %s --check-prefix=WIDE
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{elementwise-vector-width=-1}))' 2>&1 | FileCheck %s --check-prefix=BADWIDE
// RUN: ke-opt %s -split-input-file -mlir-print-local-scope -pass-pipeline='builtin.module(func.func(ke-tile-and-vectorize{vector-width=8}))' | FileCheck %s --check-prefix=TAPS

// BADWIDTH: ke-tile-and-vectorize: vector-width must be positive and elementwise-vector-width not negative, found 0 and 0
// BADWIDE: ke-tile-and-vectorize: vector-width must be positive and elementwise-vector-width not negative, found 8 and -1

// With elementwise-vector-width=16, elementwise ops take 16 lanes; the
// register blocks of contractions and the lanes of reductions keep 8.
// WIDE-LABEL: func.func @matmul
// WIDE-COUNT-4:  vector.fma {{.*}} : vector<32xf32>
// WIDE-LABEL: func.func @threaded_exp
// WIDE:            scf.for {{.*}} to %c4096 step %c16
// WIDE:              math.exp {{.*}} : vector<1x16xf32>
// WIDE-LABEL: func.func @row_sum
// WIDE:          tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 8, 8]

// BADREGISTERS: ke-tile-and-vectorize: vector-registers must be positive and vector-register-bits at least 8, found 0 and 512

// With AVX2's register file (16 registers of 8 f32), blocks leave room for
// the step's vectors of columns and a broadcast: 2 rows by 32 columns (8
// accumulators, 4 column vectors), where AVX-512's 4 x 32 or 8 x 32 would
// spill.
// AVX2-LABEL: func.func @matmul
// AVX2:         scf.for {{.*}} -> (tensor<2x32xf32>, vector<2x32xf32>)
// AVX2-COUNT-2:   vector.fma {{.*}} : vector<32xf32>
// AVX2:         vector.transfer_write {{.*}} : vector<2x32xf32>, tensor<2x32xf32>
// The best block's rows need not divide the rows: 10 rows take 6 x 16 (12
// accumulators) on the first 6, an op of their own, and 2 x 32 on the last
// 4; every block dividing 10 rows holds 8 accumulators at most. (Only with
// at least 256 reduction steps: the output's fill is then not fused.)
// AVX2-LABEL: func.func @matmul_ten_rows
// AVX2:         tensor.extract_slice %{{.*}}[0, 0] [6, 256] [1, 1] : tensor<10x256xf32> to tensor<6x256xf32>
// AVX2:         scf.for {{.*}} -> (tensor<6x16xf32>, vector<6x16xf32>)
// AVX2-COUNT-6:   vector.fma {{.*}} : vector<16xf32>
// AVX2:         tensor.extract_slice %{{.*}}[6, 0] [4, 256] [1, 1] : tensor<10x256xf32> to tensor<4x256xf32>
// AVX2:         scf.for {{.*}} -> (tensor<2x32xf32>, vector<2x32xf32>)
// AVX2-COUNT-2:   vector.fma {{.*}} : vector<32xf32>
// AVX2-LABEL: func.func @conv_nhwc
// AVX2:         vector.transfer_read {{.*}} : tensor<1x1x2x32xf32>, vector<1x2x32xf32>
// Of the blocks with enough accumulators, the most FMAs per load: a 42-wide
// output takes 6 pixels by 16 channels (12 FMAs for 2 vector loads and 6
// broadcasts), not 14 by 8 (14 FMAs for 15 loads), though 14 x 8 has more
// outputs.
// AVX2-LABEL: func.func @conv_nhwc_42_wide
// AVX2-NOT:     tensor<1x1x14x8xf32>
// AVX2:         vector.transfer_read {{.*}} : tensor<1x1x6x16xf32>, vector<1x6x16xf32>
// 34 pixels: their divisors leave 2 x 16 (4 accumulators); 6 x 16 blocks
// take the first 30, the last 4 an op of their own (4 x 16).
// AVX2-LABEL: func.func @conv_nhwc_34_wide
// AVX2:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 30, 16]
// AVX2:         vector.transfer_read {{.*}} : tensor<1x1x6x16xf32>, vector<1x6x16xf32>
// AVX2:         tensor.extract_slice %{{.*}}[0, 0, 30, 0] [1, 1, 4, 16]
// AVX2:         vector.transfer_read {{.*}} : tensor<1x1x4x16xf32>, vector<1x4x16xf32>
// AVX2-LABEL: func.func @conv_filter_panels
// AVX2:         %[[SPLIT:.*]] = tensor.expand_shape %arg1 {{\[}}[0], [1], [2], [3, 4]] output_shape [3, 3, 16, 2, 32]
// AVX2:         %[[PANELS:.*]] = scf.for {{.*}} -> (tensor<2x3x3x16x32xf32>)
// AVX2:           tensor.extract_slice %[[SPLIT]]
// AVX2:         scf.forall
// AVX2:           %[[PANEL:.*]] = affine.apply #{{.*}}(%[[CHANNELS:.*]])
// AVX2:           vector.transfer_read %[[PANELS]][%[[PANEL]], {{.*}}], {{.*}} : tensor<2x3x3x16x32xf32>, vector<1x1x32xf32>
// AVX2-NOT:       vector.transfer_read %arg1
// AVX2-LABEL: func.func @conv_ndhwc
// 256 rows, which 6-row blocks do not divide, in two thread chunks of 128
// rows by 8 panels: each chunk packs its panels of B, then splits its rows
// into 126 in 6 x 16 blocks and 2 in a 2 x 32 block, both reading the
// chunk's panels. Split before the threads, the last rows' op read the
// panels too, so they were packed in a pass of their own.
// AVX2-LABEL: func.func @packed_panels_rows_split_in_chunks
// AVX2-NOT:     -> (tensor<64x256x32xf32>)
// AVX2:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (256, 64) step (128, 8)
// AVX2:           %[[PANELS:.*]] = scf.for {{.*}} -> (tensor<8x256x32xf32>)
// AVX2:           vector.transfer_read %[[PANELS]]{{.*}} : tensor<8x256x32xf32>, vector<1x1x16xf32>
// AVX2:           tensor.extract_slice %{{.*}}[126, 0, 0] [2, 8, 32]
// AVX2:           vector.transfer_read %[[PANELS]]{{.*}} : tensor<8x256x32xf32>, vector<1x1x32xf32>
// AVX2:           scf.forall.in_parallel
// AVX2-NOT:     scf.forall
// AVX2:         return

// Matmul: a register block of 4 rows (all of them) by 32 columns (4
// vectors of 8), its accumulators read before the k loop and written after
// it, one outer-product FMA per row and k; too small to be threaded.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     scf.forall
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<4x32xf32>, vector<4x32xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ACC]]) -> (tensor<4x32xf32>, vector<4x32xf32>)
// CHECK-COUNT-4:   vector.fma {{.*}} : vector<32xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<4x32xf32>, tensor<4x32xf32>
// CHECK-NOT:     linalg.matmul
func.func @matmul(%a: tensor<4x16xf32>, %b: tensor<16x32xf32>, %c: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x32xf32>) outs(%c : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %r : tensor<4x32xf32>
}

// -----

// AVX-512: 8 x 32 on the first 8 rows, 2 x 32 on the last 2.
// CHECK-LABEL: func.func @matmul_ten_rows
// CHECK:         scf.for {{.*}} -> (tensor<8x32xf32>, vector<8x32xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[8, 0] [2, 256] [1, 1] : tensor<10x256xf32> to tensor<2x256xf32>
// CHECK:         scf.for {{.*}} -> (tensor<2x32xf32>, vector<2x32xf32>)
func.func @matmul_ten_rows(%a: tensor<10x256xf32>, %b: tensor<256x32xf32>, %c: tensor<10x32xf32>) -> tensor<10x32xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<10x256xf32>, tensor<256x32xf32>) outs(%c : tensor<10x32xf32>) -> tensor<10x32xf32>
  return %r : tensor<10x32xf32>
}

// -----

// A larger matmul is threaded: a grid of 8 x 2 chunks of 32 rows by 64
// columns (whole 8 x 32 blocks; the grid that reads the least of A and B in
// all), each sweeping 32-column blocks of B down its rows, 8 x 32
// accumulators.
// CHECK-LABEL: func.func @threaded_matmul
// CHECK:         scf.forall ({{.*}}) = (0, 0) to (256, 128) step (32, 64)
// CHECK:           scf.for {{.*}} to %c64{{.*}} step %c32
// CHECK:             scf.for {{.*}} to %c32{{.*}} step %c8
// CHECK:               vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:               scf.for {{.*}} -> (tensor<8x32xf32>, vector<8x32xf32>)
// CHECK-COUNT-8:         vector.fma {{.*}} : vector<32xf32>
// CHECK:           tensor.parallel_insert_slice {{.*}} [32, 64] [1, 1] : tensor<32x64xf32> into tensor<256x128xf32>
func.func @threaded_matmul(%a: tensor<256x64xf32>, %b: tensor<64x128xf32>, %c: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// -----

// A filled output (torch-mlir's zero-filled matmul init) is filled tile by
// tile inside the loops instead: the accumulators start from the constant,
// C is never read, and the fill's own pass over C is gone.
// With canonicalization (prefix FILL) the read of the filled tile folds.
// CHECK-LABEL: func.func @filled_matmul
// CHECK:         scf.forall
// CHECK:           linalg.fill
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:               scf.for {{.*}} -> (tensor<8x32xf32>, vector<8x32xf32>)
// FILL-LABEL: func.func @filled_matmul
// FILL-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// FILL-NOT:     linalg.fill
// FILL:         scf.forall
// FILL:           scf.for
// FILL:             scf.for
// FILL-NOT:           vector.transfer_read {{.*}} vector<8x32xf32>
// FILL:               scf.for {{.*}} iter_args({{.*}} = %[[ZERO]]) -> (vector<8x32xf32>)
// FILL-COUNT-8:         vector.fma {{.*}} : vector<32xf32>
// FILL:               vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// FILL-NOT:     linalg.fill
// FILL-LABEL: func.func @matmul_transpose_b
func.func @filled_matmul(%a: tensor<256x64xf32>, %b: tensor<64x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x64xf32>, tensor<64x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// -----

// A transposed B (matmul_transpose_b) would read each column vector across
// rows of B: no register block over the columns; the reduction loop (k, 64
// long) is the vector instead, split into 8 lanes of partial sums that
// accumulate in registers (one vector add per vector of k), then reduced
// once per output.
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [64, 8, 8]
// CHECK:         scf.forall {{.*}} -> (tensor<64x64x8xf32>)
// CHECK:           scf.for {{.*}}vector<8x1x8xf32>)
// CHECK:             arith.addf {{.*}} : vector<1x8x8xf32>
// CHECK:         scf.forall {{.*}} -> (tensor<64x64xf32>)
// CHECK:           vector.multi_reduction <add>, {{.*}} [2] : vector<1x1x8xf32> to vector<1x1xf32>
#ta = affine_map<(d0, d1, d2) -> (d0, d2)>
#tb = affine_map<(d0, d1, d2) -> (d1, d2)>
#tc = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_transpose_b(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// An elementwise op large enough for threads: the outer loops cut into 16
// chunks (4 rows by 4 column blocks), each tiled down to vectors of 8.
// CHECK-LABEL: func.func @threaded_exp
// CHECK:         scf.forall ({{.*}}) = (0, 0) to (4, 16384) step (1, 4096)
// CHECK:           scf.for {{.*}} to %c4096 step %c8
// CHECK:             math.exp {{.*}} : vector<1x8xf32>
#tid = affine_map<(d0, d1) -> (d0, d1)>
func.func @threaded_exp(%x: tensor<4x16384xf32>, %init: tensor<4x16384xf32>) -> tensor<4x16384xf32> {
  %r = linalg.generic {indexing_maps = [#tid, #tid], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16384xf32>) outs(%init : tensor<4x16384xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<4x16384xf32>
  return %r : tensor<4x16384xf32>
}

// -----

// Row reduction: most bytes are contiguous along the reduced loop, which
// is the vector. At least eight vectors long, it is split: 8 lanes of
// partial sums per row, accumulated in registers with one vector add per
// vector of input, then one reduction of the lanes per row (reduced into a
// scalar per vector instead, each step was a chain of dependent adds).
// CHECK-LABEL: func.func @row_sum
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 8, 8]
// CHECK:         scf.for {{.*}}vector<1x8xf32>)
// CHECK:           arith.addf {{.*}} : vector<1x8xf32>
// CHECK:         vector.multi_reduction <add>, {{.*}} [1] : vector<1x8xf32> to vector<1xf32>
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%x: tensor<4x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Trip counts that the width does not divide are left scalar (still correct).
// CHECK-LABEL: func.func @odd
// CHECK-NOT:     vector.
// CHECK:         linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @odd(%x: tensor<7xf32>, %init: tensor<7xf32>) -> tensor<7xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<7xf32>) outs(%init : tensor<7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}

// -----

// A contiguous loop the width does not divide (rows of 65535, as an L2 norm
// over rows has): the op splits into whole vectors along the rows (65528)
// and an op of its own for the last 7 columns, instead of vectors down the
// columns (each a gather of 8 rows).
// CHECK-LABEL: func.func @unaligned_rows
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c65528 step %{{.*}}
// CHECK:           arith.divf %{{.*}} : vector<1x8xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0] [64, 65528] [1, 1]
// CHECK:         scf.for {{.*}} -> (tensor<64x7xf32>)
// CHECK:         tensor.insert_slice %{{.*}}[0, 65528] [64, 7] [1, 1]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row_bcast = affine_map<(d0, d1) -> (d0, 0)>
func.func @unaligned_rows(%x: tensor<64x65535xf32>, %n: tensor<64x1xf32>) -> tensor<64x65535xf32> {
  %e = tensor.empty() : tensor<64x65535xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row_bcast, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %n : tensor<64x65535xf32>, tensor<64x1xf32>) outs(%e : tensor<64x65535xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<64x65535xf32>
  return %r : tensor<64x65535xf32>
}

// -----

// The same rows reduced to their sum of squares (an L2 norm's): the terms
// are never negative, so summed in another order the result stays within a
// few ulps; the reduction splits the same way, the whole vectors summed in
// lanes. A plain sum of such rows (terms of either sign) is not split.
// CHECK-LABEL: func.func @unaligned_sum_of_squares
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [64, 65528] [1, 1]
// CHECK:         arith.addf %{{.*}} : vector<{{.*}}8xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 65528] [64, 7] [1, 1]
// CHECK-LABEL: func.func @unaligned_sum
// CHECK-NOT:     65528
// CHECK:         return
#squares_in = affine_map<(d0, d1) -> (d0, d1)>
#squares_out = affine_map<(d0, d1) -> (d0)>
func.func @unaligned_sum_of_squares(%x: tensor<64x65535xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %c2 = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [#squares_in, #squares_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x65535xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %abs = math.absf %a : f32
    %sq = math.powf %abs, %c2 : f32
    %s = arith.addf %sq, %o : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func @unaligned_sum(%x: tensor<64x65535xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [#squares_in, #squares_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x65535xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A row sum into [64, 1] read through a constant index, (d0, 0), as
// torch-mlir writes it: not split into lanes (upstream's split would write
// row i's partial sums at [i, i] of a [64, 1, lanes] tensor).
// CHECK-LABEL: func.func @row_sum_into_column
// CHECK-NOT:     tensor<64x1x{{[0-9]+}}xf32>
// CHECK:         return
#column_in = affine_map<(d0, d1) -> (d0, d1)>
#column_out = affine_map<(d0, d1) -> (d0, 0)>
func.func @row_sum_into_column(%x: tensor<64x65536xf32>, %init: tensor<64x1xf32>) -> tensor<64x1xf32> {
  %r = linalg.generic {indexing_maps = [#column_in, #column_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x65536xf32>) outs(%init : tensor<64x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<64x1xf32>
  return %r : tensor<64x1xf32>
}

// -----

// A channels-first depthwise convolution: generalized with its channels
// outside the image (a thread's chunk is one channel's plane), its 34-wide
// output split into 32 columns and 2. The 32 take blocks of 2 rows by 4
// vectors (8 accumulator vectors), each (kh, kw) step a broadcast weight
// times a 2 x 32 window of the input, accumulated in registers across kh
// and kw; the last 2 columns take blocks of 7 rows by 2, not vectors down
// the channels (a gather per tap). Each part starts its accumulators from
// its own tile of the fill: no pass writes zeros to memory first.
// CHECK-LABEL: func.func @depthwise_nchw
// CHECK:         scf.forall (%{{.*}}) in (16)
// CHECK:           vector.transfer_read {{.*}} : tensor<1x1x2x32xf32>, vector<1x1x2x32xf32>
// CHECK:           scf.for {{.*}} -> (tensor<1x1x2x32xf32>, vector<1x1x2x32xf32>)
// CHECK:             scf.for {{.*}} -> (tensor<1x1x2x32xf32>, vector<1x1x2x32xf32>)
// CHECK:               vector.transfer_read %arg0{{.*}} : tensor<1x16x16x36xf32>, vector<1x1x2x32xf32>
// CHECK:               arith.mulf {{.*}} : vector<1x1x2x32xf32>
// CHECK:         scf.for {{.*}} -> (tensor<1x1x7x2xf32>, vector<1x1x7x2xf32>)
// CHECK-NOT:     vector<1x8x1x1xf32>
// CHECK:         return
// FILL-LABEL: func.func @depthwise_nchw
// FILL-NOT:     vector.transfer_write %cst
// FILL:         scf.forall
// FILL:           scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (vector<1x1x2x32xf32>)
// FILL-NOT:     vector.transfer_write %cst
// FILL:         scf.for {{.*}} iter_args(%{{.*}} = %cst{{.*}}) -> (vector<1x1x7x2xf32>)
func.func @depthwise_nchw(%x: tensor<1x16x16x36xf32>, %w: tensor<16x3x3xf32>) -> tensor<1x16x14x34xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x14x34xf32>
  %init = linalg.fill ins(%cst : f32) outs(%e : tensor<1x16x14x34xf32>) -> tensor<1x16x14x34xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw ins(%x, %w : tensor<1x16x16x36xf32>, tensor<16x3x3xf32>) outs(%init : tensor<1x16x14x34xf32>) -> tensor<1x16x14x34xf32>
  return %r : tensor<1x16x14x34xf32>
}

// -----

// A matmul whose columns the width does not divide (36 = 32 + 4): the 32
// take the usual blocks of vectors of 8; the last 4 columns take vectors
// of 4, not scalar loops (none of their loops is 8 long).
// CHECK-LABEL: func.func @matmul_narrow_rest
// CHECK:         vector.fma {{.*}} : vector<{{16|32}}xf32>
// CHECK:         vector.fma {{.*}} : vector<4xf32>
// CHECK-NOT:     linalg.matmul
// CHECK:         return
func.func @matmul_narrow_rest(%a: tensor<64x48xf32>, %b: tensor<48x36xf32>) -> tensor<64x36xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x36xf32>
  %init = linalg.fill ins(%cst : f32) outs(%e : tensor<64x36xf32>) -> tensor<64x36xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x36xf32>) outs(%init : tensor<64x36xf32>) -> tensor<64x36xf32>
  return %r : tensor<64x36xf32>
}

// -----

// An im2col-like gather (a mod and a floordiv in the input's map): tiling
// would slice the input at the map's values at the tile's bounds, which are
// not its extremes, so the op is left untiled (plain loops, still correct).
// CHECK-LABEL: func.func @im2col_gather
// CHECK-NOT:     scf.for
// CHECK-NOT:     vector.
// CHECK:         linalg.generic
#gather = affine_map<(d0, d1) -> (d0 floordiv 3, d1 + d0 mod 3)>
#plain = affine_map<(d0, d1) -> (d0, d1)>
func.func @im2col_gather(%x: tensor<4x18xf32>, %init: tensor<12x16xf32>) -> tensor<12x16xf32> {
  %r = linalg.generic {indexing_maps = [#gather, #plain], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x18xf32>) outs(%init : tensor<12x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<12x16xf32>
  return %r : tensor<12x16xf32>
}

// -----

// A channels-last convolution: threads take rows by pixel and channel
// blocks; a register tile of 8 pixels by 32 channels (4 vectors of 8), one
// outer-product FMA per pixel, the accumulator tile read before the
// reduction loops (kh, kw, c) and written after them. 16 pixels would fill
// AVX-512's 32 registers with accumulators alone (the step's two vectors
// of channels spill them).
// CHECK-LABEL: func.func @conv_nhwc
// CHECK:         scf.forall ({{.*}}) = (0, 0, 0) to (4, 16, 64) step (1, 8, 32)
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x1x8x32xf32>, vector<1x8x32xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ACC]]) -> (tensor<1x1x8x32xf32>, vector<1x8x32xf32>)
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK-COUNT-8:       vector.fma {{.*}} : vector<32xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<1x8x32xf32>, tensor<1x1x8x32xf32>
// CHECK-NOT:     linalg.conv
func.func @conv_nhwc(%x: tensor<1x6x18x8xf32>, %w: tensor<3x3x8x64xf32>, %init: tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x18x8xf32>, tensor<3x3x8x64xf32>) outs(%init : tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32>
  return %r : tensor<1x4x16x64xf32>
}
func.func @conv_nhwc_42_wide(%x: tensor<1x1x44x8xf32>, %w: tensor<1x3x8x16xf32>, %init: tensor<1x1x42x16xf32>) -> tensor<1x1x42x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x44x8xf32>, tensor<1x3x8x16xf32>) outs(%init : tensor<1x1x42x16xf32>) -> tensor<1x1x42x16xf32>
  return %r : tensor<1x1x42x16xf32>
}
func.func @conv_nhwc_34_wide(%x: tensor<1x1x38x64xf32>, %w: tensor<1x5x64x16xf32>, %init: tensor<1x1x34x16xf32>) -> tensor<1x1x34x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x38x64xf32>, tensor<1x5x64x16xf32>) outs(%init : tensor<1x1x34x16xf32>) -> tensor<1x1x34x16xf32>
  return %r : tensor<1x1x34x16xf32>
}

// -----

// A channels-last convolution's filter is packed into panels of its tile's
// channels ([3, 3, 16, 64] -> [2, 3, 3, 16, 32]) once, outside the threads'
// loop, and every tile reads its panel: one contiguous array per channel
// block instead of a short row F channels apart per reduction step.
// (Its checks are with the other AVX2 ones, at the top of this file.)
func.func @conv_filter_panels(%x: tensor<2x34x34x16xf32>, %w: tensor<3x3x16x64xf32>, %init: tensor<2x32x32x64xf32>) -> tensor<2x32x32x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x34x34x16xf32>, tensor<3x3x16x64xf32>) outs(%init : tensor<2x32x32x64xf32>) -> tensor<2x32x32x64xf32>
  return %r : tensor<2x32x32x64xf32>
}

// -----

// A channels-last 3-D convolution: the same pixels-by-channels tile with od
// and kd of 1 as well, computed as the 1-D convolution along w it then is.
// CHECK-LABEL: func.func @conv_ndhwc
// CHECK:         scf.forall ({{.*}}) in (2, 4)
// CHECK:         scf.for {{.*}} -> (tensor<1x1x1x8x16xf32>, vector<1x8x16xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT:     linalg.conv
func.func @conv_ndhwc(%x: tensor<1x4x6x10x4xf32>, %w: tensor<3x3x3x4x16xf32>, %init: tensor<1x2x4x8x16xf32>) -> tensor<1x2x4x8x16xf32> {
  %r = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x6x10x4xf32>, tensor<3x3x3x4x16xf32>) outs(%init : tensor<1x2x4x8x16xf32>) -> tensor<1x2x4x8x16xf32>
  return %r : tensor<1x2x4x8x16xf32>
}

// -----

// A channels-last depthwise convolution: 8 pixels by 32 channels, one FMA
// on the whole tile per filter tap, the accumulator kept across kh and kw.
// CHECK-LABEL: func.func @depthwise_nhwc
// CHECK:         scf.forall
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<1x1x8x32xf32>, vector<1x8x32xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ACC]])
// CHECK:           scf.for
// CHECK:             vector.fma {{.*}} : vector<1x8x32xf32>
// CHECK-NOT:     linalg.depthwise
func.func @depthwise_nhwc(%x: tensor<1x6x18x64xf32>, %w: tensor<3x3x64xf32>, %init: tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x18x64xf32>, tensor<3x3x64xf32>) outs(%init : tensor<1x4x16x64xf32>) -> tensor<1x4x16x64xf32>
  return %r : tensor<1x4x16x64xf32>
}

// -----

// A channels-last 1-D convolution: threads take pixel blocks; 8 pixels by
// 32 channels, the accumulator kept across kw and c.
// CHECK-LABEL: func.func @conv_nwc
// CHECK:         scf.forall
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} vector<1x8x32xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[ACC]])
// CHECK-COUNT-8:   vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT:     linalg.conv
func.func @conv_nwc(%x: tensor<1x258x8xf32>, %w: tensor<3x8x64xf32>, %init: tensor<1x256x64xf32>) -> tensor<1x256x64xf32> {
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<1x258x8xf32>, tensor<3x8x64xf32>) outs(%init : tensor<1x256x64xf32>) -> tensor<1x256x64xf32>
  return %r : tensor<1x256x64xf32>
}

// -----

// A row reduction that reads its loop index (torch-mlir's gathers and
// argmax) is not split: upstream's split would leave the index counting the
// outer part of the split loop only.
// CHECK-LABEL: func.func @row_sum_of_index
// CHECK-NOT:     tensor.expand_shape
// CHECK:         vector.multi_reduction <add>, {{.*}} [1] : vector<1x8xf32> to vector<1xf32>
func.func @row_sum_of_index(%x: tensor<4x64xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%v: f32, %a: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %v, %f : f32
    %s = arith.addf %m, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A reduction whose vector is a strided loop (the innermost, contiguous
// loop, 7 long, takes no vector of 8) is not split: each vector of it is a
// gather, and the partial results would go through memory.
// CHECK-LABEL: func.func @strided_sum
// CHECK-NOT:     tensor.expand_shape
// CHECK:         vector.multi_reduction <add>
func.func @strided_sum(%x: tensor<4x64x7xf32>, %acc: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<4x64x7xf32>) outs(%acc : tensor<4x7xf32>) {
  ^bb0(%v: f32, %a: f32):
    %s = arith.addf %v, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}


// -----

// A reduction of a whole tensor (three reduction loops, one contiguous run
// in every operand): collapsed into one loop, split into 16 chunks of
// partial results that threads take (an scf.forall), each chunk into 32
// lanes (four independent vectors of adds); the chunks' lanes and then the
// chunks are reduced after.
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<4x64x1024xf32> into tensor<262144xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [16, 16384]
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [16, 512, 32]
// CHECK:         scf.forall (%{{.*}}) in (16)
// CHECK:           scf.for {{.*}} -> (tensor<1x32xf32>, vector<1x32xf32>)
// CHECK:             arith.mulf {{.*}} : vector<1x1x32xf32>
// CHECK:             arith.addf {{.*}} : vector<1x32xf32>
// CHECK:         vector.multi_reduction <add>, {{.*}} [1] : vector<1x8xf32> to vector<1xf32>
// CHECK:         vector.multi_reduction <add>, {{.*}} [0] : vector<8xf32> to f32
#all = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#scalar = affine_map<(d0, d1, d2) -> ()>
func.func @sum_of_squares(%x: tensor<4x64x1024xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [#all, #scalar], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : tensor<4x64x1024xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Rows too few for threads but long: each row's reduction is split into
// chunks the threads share (4 rows x 16 chunks).
// CHECK-LABEL: func.func @few_long_rows
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 16, 8192]
// CHECK:         scf.forall
// CHECK:         vector.multi_reduction <add>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @few_long_rows(%x: tensor<4x131072xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x131072xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Wide lanes only for elementwise ops that read in loop order on 32-bit
// elements, along an innermost loop the width divides: a transpose (a tile
// of vector-width by vector-width), an f64 op and rows of 24 keep
// vector-width.
// WIDE-LABEL: func.func @transpose_and_f64
// WIDE:         vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<8x8xf32>, vector<8x8xf32>
// WIDE-NOT:     vector<{{.*}}16
// WIDE:         vector<1x8xf64>
// WIDE-NOT:     vector<{{.*}}16
// WIDE:         math.exp {{.*}} : vector<1x8xf32>
func.func @transpose_and_f64(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>, %d: tensor<64x64xf64>, %e: tensor<64x64xf64>,
                             %x24: tensor<64x24xf32>, %y24: tensor<64x24xf32>) -> (tensor<64x64xf32>, tensor<64x64xf64>, tensor<64x24xf32>) {
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%y : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<64x64xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<64x64xf64>) outs(%e : tensor<64x64xf64>) {
  ^bb0(%a: f64, %o: f64):
    %m = arith.negf %a : f64
    linalg.yield %m : f64
  } -> tensor<64x64xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x24 : tensor<64x24xf32>) outs(%y24 : tensor<64x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ex = math.exp %a : f32
    linalg.yield %ex : f32
  } -> tensor<64x24xf32>
  return %t, %n, %r : tensor<64x64xf32>, tensor<64x64xf64>, tensor<64x24xf32>
}

// -----

// A transposing op (NHWC read, NCHW written): tiles of 8 x 8, read along
// the channels, transposed in registers, written along the rows. The rows
// (36) are split at 32 first; the rest (4) gets vectors along the channels.
// FILL-LABEL: func.func @transposed_rows_split
// FILL:         vector.transfer_read {{.*}}permutation_map{{.*}} : tensor<1x1x8x8xf32>, vector<1x1x8x8xf32>
// FILL:         vector.transfer_write {{.*}}permutation_map{{.*}} : vector<1x1x8x8xf32>, tensor<1x8x1x8xf32>
// FILL:         vector.transfer_read {{.*}} : tensor<1x1x1x8xf32>, vector<1x1x1x8xf32>
func.func @transposed_rows_split(%x: tensor<2x10x36x16xf32>) -> tensor<2x16x10x36xf32> {
  %e = tensor.empty() : tensor<2x16x10x36xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x10x36x16xf32>) outs(%e : tensor<2x16x10x36xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %a = arith.addf %in, %c : f32
    linalg.yield %a : f32
  } -> tensor<2x16x10x36xf32>
  return %t : tensor<2x16x10x36xf32>
}

// -----

// A convolution's bias, broadcast into its output by a generic, is
// computed per register tile: the accumulators start from the bias vector
// instead of a broadcast written out first.
// FILL-LABEL: func.func @conv_bias_init
// FILL:         scf.forall
// FILL:           vector.transfer_read %arg2{{.*}} : tensor<32xf32>, vector<32xf32>
// FILL:           vector.broadcast {{.*}} : vector<32xf32> to vector<1x1x8x32xf32>
// FILL:           scf.for
// FILL:             vector.fma
// FILL-NOT:     linalg.generic
func.func @conv_bias_init(%x: tensor<1x10x18x8xf32>, %w: tensor<3x3x8x32xf32>, %bias: tensor<32xf32>) -> tensor<1x8x16x32xf32> {
  %e = tensor.empty() : tensor<1x8x16x32xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<32xf32>) outs(%e : tensor<1x8x16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x16x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x10x18x8xf32>, tensor<3x3x8x32xf32>) outs(%init : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  return %c : tensor<1x8x16x32xf32>
}

// -----

// A reduction over several loops (per-channel sums over n, h and w) splits
// its innermost loop into 8 lanes, innermost: partial sums in one vector
// across n, h and the rest of w, read contiguously, then the lanes folded.
// FILL-LABEL: func.func @per_channel_sums
// FILL:         tensor.expand_shape %arg0 {{\[}}[0], [1], [2], [3, 4]] output_shape [2, 16, 8, 16, 8]
// FILL:         scf.forall
// FILL:           scf.for {{.*}} -> (vector<1x8xf64>)
// FILL:             scf.for {{.*}} -> (vector<1x8xf64>)
// FILL:               scf.for {{.*}} -> (vector<1x8xf64>)
// FILL:                 vector.transfer_read {{.*}} vector<1x1x1x1x8xf32>
// FILL-NOT:             vector.multi_reduction
// FILL:                 arith.addf {{.*}} : vector<1x8xf64>
// FILL:         vector.multi_reduction <add>, {{.*}} [1] : vector<1x8xf64> to vector<1xf64>
func.func @per_channel_sums(%x: tensor<2x16x8x128xf32>) -> tensor<16xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<16xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<16xf64>) -> tensor<16xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x16x8x128xf32>) outs(%f : tensor<16xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %s = arith.addf %w, %acc : f64
    linalg.yield %s : f64
  } -> tensor<16xf64>
  return %r : tensor<16xf64>
}

// -----

// A reduction whose vector runs along a parallel loop with the reduced
// loops outside it in memory (channel sums over NHWC): the tile takes up to
// four vectors of channels (whole cache lines, one sweep of the input per
// tile), and the unit loops go before the vector loop, so the accumulator
// is one vector<1x32xf32>, not 32 one-lane vectors (vector<1x32x1xf32>).
// FILL-LABEL: func.func @channel_means_nhwc
// FILL:         scf.forall {{.*}} step (1, 32)
// FILL:           scf.for {{.*}} -> (vector<1x32xf32>)
// FILL:             vector.transfer_read {{.*}} vector<1x1x32xf32>
// FILL:             arith.addf {{.*}} : vector<1x32xf32>
func.func @channel_means_nhwc(%x: tensor<2x16x16x64xf32>) -> tensor<2x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x16x16x64xf32>) outs(%f : tensor<2x64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// -----

// A convolution 29 pixels wide (prime) would get one pixel per tile: one
// accumulator vector, each FMA waiting on the last. Its first 24 pixels are
// split off (12-pixel tiles, 12 independent FMAs per step), the last 5 get
// a 5-pixel tile.
// CHECK-LABEL: func.func @conv_prime_width
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 4, 24, 16]
// CHECK:         scf.forall {{.*}} -> (tensor<1x4x24x16xf32>)
// CHECK:           -> (tensor<1x1x12x16xf32>, vector<1x12x16xf32>)
// CHECK-COUNT-12:    vector.fma {{.*}} : vector<16xf32>
// CHECK:         tensor.insert_slice {{.*}} [1, 4, 24, 16]
// CHECK:         -> (tensor<1x1x5x16xf32>, vector<1x5x16xf32>)
// CHECK-COUNT-5:   vector.fma {{.*}} : vector<16xf32>
func.func @conv_prime_width(%x: tensor<1x6x31x8xf32>, %w: tensor<3x3x8x16xf32>, %init: tensor<1x4x29x16xf32>) -> tensor<1x4x29x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x31x8xf32>, tensor<3x3x8x16xf32>) outs(%init : tensor<1x4x29x16xf32>) -> tensor<1x4x29x16xf32>
  return %r : tensor<1x4x29x16xf32>
}

// -----

// B's packed panels (ke-pack-contraction-panels' copy) are packed inside the
// thread chunks that read them, right before their rows sweep them, where at
// most two chunks read the same panels: here each of the 16 chunks takes all
// 64 rows and 2 panels, so the packing has no pass (and no threads) of its
// own. With 1024 rows (16 chunks of 64 rows, all reading the same 4 panels)
// it would be done 16 times: it stays a pass of its own.
// CHECK-LABEL: func.func @packed_panels_in_chunks
// CHECK-NOT:     -> (tensor<32x512x32xf32>)
// CHECK:         scf.forall (%{{.*}}) = (0) to (32) step (2) {{.*}} -> (tensor<64x32x32xf32>)
// CHECK:           scf.for {{.*}} -> (tensor<2x512x32xf32>)
// CHECK:             vector.transfer_write {{.*}} : vector<1x1x8xf32>, tensor<1x1x8xf32>
// CHECK:           scf.for {{.*}} -> (tensor<64x2x32xf32>)
// CHECK:             vector.transfer_read {{.*}} : tensor<2x512x32xf32>, vector<1x1x32xf32>
// CHECK-LABEL: func.func @packed_panels_read_by_all_chunks
// CHECK:         scf.for {{.*}} -> (tensor<4x64x32xf32>)
// CHECK:         scf.forall (%{{.*}}) = (0) to (1024) step (64)
// CHECK-NOT:       -> (tensor<{{.*}}x64x32xf32>)
// CHECK:           vector.transfer_read {{.*}} : tensor<4x64x32xf32>, vector<1x1x32xf32>
#packing_panel_read = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#packing_panel_write = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#packing_rows = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#packing_panels = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#packing_blocks = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @packed_panels_in_chunks(%a: tensor<64x512xf32>, %b: tensor<512x1024xf32>, %c: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<32x512x32xf32>
  %bx = tensor.expand_shape %b [[0], [1, 2]] output_shape [512, 32, 32] : tensor<512x1024xf32> into tensor<512x32x32xf32>
  %p = linalg.generic {indexing_maps = [#packing_panel_read, #packing_panel_write], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bx : tensor<512x32x32xf32>) outs(%e : tensor<32x512x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x512x32xf32>
  %cx = tensor.expand_shape %c [[0], [1, 2]] output_shape [64, 32, 32] : tensor<64x1024xf32> into tensor<64x32x32xf32>
  %r = linalg.contract indexing_maps = [#packing_rows, #packing_panels, #packing_blocks] ins(%a, %p : tensor<64x512xf32>, tensor<32x512x32xf32>) outs(%cx : tensor<64x32x32xf32>) -> tensor<64x32x32xf32>
  %rc = tensor.collapse_shape %r [[0], [1, 2]] : tensor<64x32x32xf32> into tensor<64x1024xf32>
  return %rc : tensor<64x1024xf32>
}
func.func @packed_panels_read_by_all_chunks(%a: tensor<1024x64xf32>, %b: tensor<64x128xf32>, %c: tensor<1024x128xf32>) -> tensor<1024x128xf32> {
  %e = tensor.empty() : tensor<4x64x32xf32>
  %bx = tensor.expand_shape %b [[0], [1, 2]] output_shape [64, 4, 32] : tensor<64x128xf32> into tensor<64x4x32xf32>
  %p = linalg.generic {indexing_maps = [#packing_panel_read, #packing_panel_write], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bx : tensor<64x4x32xf32>) outs(%e : tensor<4x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x64x32xf32>
  %cx = tensor.expand_shape %c [[0], [1, 2]] output_shape [1024, 4, 32] : tensor<1024x128xf32> into tensor<1024x4x32xf32>
  %r = linalg.contract indexing_maps = [#packing_rows, #packing_panels, #packing_blocks] ins(%a, %p : tensor<1024x64xf32>, tensor<4x64x32xf32>) outs(%cx : tensor<1024x4x32xf32>) -> tensor<1024x4x32xf32>
  %rc = tensor.collapse_shape %r [[0], [1, 2]] : tensor<1024x4x32xf32> into tensor<1024x128xf32>
  return %rc : tensor<1024x128xf32>
}

// -----

// A mask of i1 (one byte per element in memory, bits in LLVM's vectors):
// never vectorized, but still split across the threads, element by
// element in each chunk.
// CHECK-LABEL: func.func @boolean_mask_in_threads
// CHECK:         scf.forall
// CHECK-NOT:       vector.transfer_read
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<{{[0-9]+}}x32768xf32>, tensor<{{[0-9]+}}x32768xi1>)
// CHECK-NOT:       vector.transfer_read
// CHECK:           scf.forall.in_parallel
func.func @boolean_mask_in_threads(%x: tensor<64x32768xf32>, %mask: tensor<64x32768xi1>) -> tensor<64x32768xf32> {
  %e = tensor.empty() : tensor<64x32768xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mask : tensor<64x32768xf32>, tensor<64x32768xi1>) outs(%e : tensor<64x32768xf32>) {
  ^bb0(%in: f32, %m: i1, %out: f32):
    %f = arith.uitofp %m : i1 to f32
    %p = arith.mulf %in, %f : f32
    linalg.yield %p : f32
  } -> tensor<64x32768xf32>
  return %r : tensor<64x32768xf32>
}

// -----

// An elementwise op whose rows (23) the width does not divide, over
// contiguous tensors: its loops collapse into one of 32384 elements, in
// vectors of 8, instead of vectors along the 64 channels (gathers 253
// elements apart). Operands that are slices (strided) would be copied to
// collapse: that op keeps its loops.
// CHECK-LABEL: func.func @odd_rows
// CHECK:         tensor.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : tensor<2x64x11x23xf32> into tensor<32384xf32>
// CHECK:         vector.transfer_read {{.*}} : tensor<8xf32>, vector<8xf32>
// CHECK:         arith.divf {{.*}} : vector<8xf32>
// CHECK:         tensor.expand_shape {{.*}} output_shape [2, 64, 11, 23]
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return
func.func @odd_rows(%x: tensor<2x64x11x23xf32>, %big: tensor<2x64x22x23xf32>) -> (tensor<2x64x11x23xf32>, tensor<2x64x11x23xf32>) {
  %c = arith.constant 1.210000e+02 : f32
  %e = tensor.empty() : tensor<2x64x11x23xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x64x11x23xf32>) outs(%e : tensor<2x64x11x23xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c : f32
    linalg.yield %d : f32
  } -> tensor<2x64x11x23xf32>
  %rows = tensor.extract_slice %big[0, 0, 0, 0] [2, 64, 11, 23] [1, 1, 2, 1] : tensor<2x64x22x23xf32> to tensor<2x64x11x23xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%rows : tensor<2x64x11x23xf32>) outs(%e : tensor<2x64x11x23xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %c : f32
    linalg.yield %d : f32
  } -> tensor<2x64x11x23xf32>
  return %r, %s : tensor<2x64x11x23xf32>, tensor<2x64x11x23xf32>
}

// -----

// Two sums of one input in one op (ke-fuse-sibling-reductions' output, a
// group norm's f32 and f64 means): the reduction loop split into 32 lanes
// for both results at once, one vector accumulator each, then the lanes of
// both folded in one op.
// CHECK-LABEL: func.func @sibling_sums
// CHECK:         tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [24, 128, 32]
// CHECK:         scf.for {{.*}} -> ({{.*}}, vector<1x32xf32>, vector<1x32xf64>)
// CHECK:           arith.addf {{.*}} : vector<1x32xf32>
// CHECK:           arith.extf {{.*}} to vector<1x1x32xf64>
// CHECK:           arith.addf {{.*}} : vector<1x32xf64>
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<1x8xf32> to vector<1xf32>
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<1x8xf64> to vector<1xf64>
#sibling_in = affine_map<(d0, d1) -> (d0, d1)>
#sibling_out = affine_map<(d0, d1) -> (d0)>
func.func @sibling_sums(%x: tensor<24x4096xf32>) -> (tensor<24xf32>, tensor<24xf64>) {
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24xf32>) -> tensor<24xf32>
  %e64 = tensor.empty() : tensor<24xf64>
  %f64 = linalg.fill ins(%zero64 : f64) outs(%e64 : tensor<24xf64>) -> tensor<24xf64>
  %r:2 = linalg.generic {indexing_maps = [#sibling_in, #sibling_out, #sibling_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<24x4096xf32>) outs(%f, %f64 : tensor<24xf32>, tensor<24xf64>) {
  ^bb0(%v: f32, %a: f32, %b: f64):
    %s = arith.addf %v, %a : f32
    %w = arith.extf %v : f32 to f64
    %t = arith.addf %w, %b : f64
    linalg.yield %s, %t : f32, f64
  } -> (tensor<24xf32>, tensor<24xf64>)
  return %r#0, %r#1 : tensor<24xf32>, tensor<24xf64>
}

// -----

// An argmax over a middle dimension: the vector runs along the contiguous
// columns and each tile's reduction loop is one iteration long, but the
// position select is no combiner the vectorizer takes as a reduction; with
// that unit loop dropped the tile is elementwise and vectorizes.
// CHECK-LABEL: func.func @argmax_over_rows
// CHECK:         scf.for {{.*}} to %c64
// CHECK:           arith.cmpf ogt, {{.*}} : vector<1x32xf32>
// CHECK:           arith.select {{.*}}, vector<1x32xi64>
// CHECK-NOT:     linalg.generic
#argmax_in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#argmax_out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @argmax_over_rows(%x: tensor<2x64x32xf32>) -> tensor<2x32xi64> {
  %zero = arith.constant 0 : i64
  %neg = arith.constant 0xFF800000 : f32
  %ei = tensor.empty() : tensor<2x32xi64>
  %fi = linalg.fill ins(%zero : i64) outs(%ei : tensor<2x32xi64>) -> tensor<2x32xi64>
  %ef = tensor.empty() : tensor<2x32xf32>
  %ff = linalg.fill ins(%neg : f32) outs(%ef : tensor<2x32xf32>) -> tensor<2x32xf32>
  %r:2 = linalg.generic {indexing_maps = [#argmax_in, #argmax_out, #argmax_out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<2x64x32xf32>) outs(%ff, %fi : tensor<2x32xf32>, tensor<2x32xi64>) {
  ^bb0(%in: f32, %max: f32, %at: i64):
    %i = linalg.index 1 : index
    %p = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %max : f32
    %gt = arith.cmpf ogt, %in, %max : f32
    %s = arith.select %gt, %p, %at : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<2x32xf32>, tensor<2x32xi64>)
  return %r#1 : tensor<2x32xi64>
}

// -----

// Two sums of one input over two long rows (a layer norm's means over a
// whole sample): too few outputs for threads, so the rows are split into
// 16 chunks of partial results for both results at once, the threads take
// the chunks, and each chunk sums in vector lanes.
// CHECK-LABEL: func.func @sibling_sums_of_long_rows
// CHECK:         tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [2, 16, 16384]
// CHECK:         scf.forall ({{.*}}) = (0, 0) to (2, 16) {{.*}} -> (tensor<2x16x32xf32>, tensor<2x16x32xf64>)
// CHECK:           scf.for {{.*}} -> ({{.*}}, vector<1x1x32xf32>, vector<1x1x32xf64>)
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<1x1x8xf64> to vector<1x1xf64>
// CHECK:         vector.multi_reduction <add>, {{.*}} : vector<1x8xf64> to vector<1xf64>
#long_in = affine_map<(d0, d1) -> (d0, d1)>
#long_out = affine_map<(d0, d1) -> (d0)>
func.func @sibling_sums_of_long_rows(%x: tensor<2x262144xf32>) -> (tensor<2xf32>, tensor<2xf64>) {
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %e64 = tensor.empty() : tensor<2xf64>
  %f64 = linalg.fill ins(%zero64 : f64) outs(%e64 : tensor<2xf64>) -> tensor<2xf64>
  %r:2 = linalg.generic {indexing_maps = [#long_in, #long_out, #long_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x262144xf32>) outs(%f, %f64 : tensor<2xf32>, tensor<2xf64>) {
  ^bb0(%v: f32, %a: f32, %b: f64):
    %s = arith.addf %v, %a : f32
    %w = arith.extf %v : f32 to f64
    %t = arith.addf %w, %b : f64
    linalg.yield %s, %t : f32, f64
  } -> (tensor<2xf32>, tensor<2xf64>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf64>
}

// -----

// A min over the middle dimension, 36 wide: split at 32 along the vector
// loop. Each part gets its own tile of the fill; the reduction's chunks do
// not compute it in their blocks, so the 32-wide tile is vectorized on its
// own (splat stores), as the whole fill would have been, and the 4-wide
// one is left to the loops, as before.
// FILL-LABEL: func.func @min_rows_split_with_fill
// FILL-NOT:     linalg.fill {{.*}} tensor<2x32xf32>
// FILL:         vector.transfer_write %cst, {{.*}} : vector<1x8xf32>, tensor<1x8xf32>
// FILL:         scf.for {{.*}} -> (vector<1x32xf32>)
// FILL:         linalg.fill {{.*}} -> tensor<2x4xf32>
// FILL:         return
func.func @min_rows_split_with_fill(%x: tensor<2x64x36xf32>) -> tensor<2x36xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<2x36xf32>
  %init = linalg.fill ins(%inf : f32) outs(%e : tensor<2x36xf32>) -> tensor<2x36xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : tensor<2x64x36xf32>) outs(%init : tensor<2x36xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<2x36xf32>
  return %r : tensor<2x36xf32>
}

// -----

// (Its checks are with the other AVX2 ones, at the top of this file.)
#split_packing_panel_read = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#split_packing_panel_write = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#split_packing_rows = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
#split_packing_panels = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#split_packing_blocks = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @packed_panels_rows_split_in_chunks(%a: tensor<256x256xf32>, %b: tensor<256x2048xf32>) -> tensor<256x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256x32xf32>
  %bx = tensor.expand_shape %b [[0], [1, 2]] output_shape [256, 64, 32] : tensor<256x2048xf32> into tensor<256x64x32xf32>
  %p = linalg.generic {indexing_maps = [#split_packing_panel_read, #split_packing_panel_write], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bx : tensor<256x64x32xf32>) outs(%e : tensor<64x256x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x256x32xf32>
  %ce = tensor.empty() : tensor<256x64x32xf32>
  %cx = linalg.fill ins(%zero : f32) outs(%ce : tensor<256x64x32xf32>) -> tensor<256x64x32xf32>
  %r = linalg.contract indexing_maps = [#split_packing_rows, #split_packing_panels, #split_packing_blocks] ins(%a, %p : tensor<256x256xf32>, tensor<64x256x32xf32>) outs(%cx : tensor<256x64x32xf32>) -> tensor<256x64x32xf32>
  %rc = tensor.collapse_shape %r [[0], [1, 2]] : tensor<256x64x32xf32> into tensor<256x2048xf32>
  return %rc : tensor<256x2048xf32>
}

// -----

// A long reduction is cut into blocks of 4096 steps (a column block of B
// over a block, 4096 x 32 f32, is 512 KiB, kept in L2 while the chunk's row
// blocks sweep it; over all 8192 steps it would be 1 MiB), the blocks
// outside the register tiles; the output's fill is a vectorized op over the
// chunk before them.
// CHECK-LABEL: func.func @long_reduction_matmul
// CHECK:         scf.forall
// CHECK:           scf.for {{.*}} to %c32
// CHECK:             scf.for {{.*}} step %c8
// CHECK:               vector.transfer_write %{{.*}} : vector<1x8xf32>, tensor<1x8xf32>
// CHECK:           scf.for {{.*}} to %c8192{{.*}} step %c4096
// CHECK:             scf.for {{.*}} step %c32
// CHECK:               scf.for {{.*}} step %c8
// CHECK:                 scf.for {{.*}} to %c4096{{.*}} -> (tensor<8x32xf32>, vector<8x32xf32>)
// CHECK-COUNT-8:           vector.fma {{.*}} : vector<32xf32>
func.func @long_reduction_matmul(%a: tensor<256x8192xf32>, %b: tensor<8192x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x8192xf32>, tensor<8192x128xf32>) outs(%c : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// -----

// Too few outputs for threads: the fill before the blocks is the function's
// own op, scheduled as the blocks are made (vectorized, with threads of its
// own where it pays) and not visited again after.
// CHECK-LABEL: func.func @long_reduction_unthreaded
// CHECK-NOT:     linalg.fill
// CHECK:         vector.transfer_write %{{.*}} : vector<1x8xf32>, tensor<1x8xf32>
// CHECK:         scf.for {{.*}} to %c16384{{.*}} step %c4096
// CHECK:           scf.for {{.*}} to %c4096{{.*}} -> (tensor<8x32xf32>, vector<8x32xf32>)
func.func @long_reduction_unthreaded(%a: tensor<16x16384xf32>, %b: tensor<16384x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x16384xf32>, tensor<16384x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

// -----

// A convolution over zero padding (a transposed convolution's, or its own):
// the filter-window loops run over just the taps whose input window meets
// the data, [2, 10) of 12 rows and [2, 18) of 20 columns. Row oh's taps
// are kh in [max(2 - oh, 0), min(10 - oh, 3)); a block of 8 pixels from ow
// has kw in [max(-ow - 5, 0), min(18 - ow, 5)).
// TAPS-LABEL: func.func @conv_over_padded_input
// TAPS:         scf.forall (%[[OH:.*]], %[[OW:.*]]) = (0, 0) to (10, 16) step (1, 8)
// TAPS:           %[[KH0:.*]] = affine.max affine_map<()[s0] -> (-s0 + 2, 0)>()[%[[OH]]]
// TAPS:           %[[KH1:.*]] = affine.min affine_map<()[s0] -> (-s0 + 10, 3)>()[%[[OH]]]
// TAPS:           scf.for %{{.*}} = %[[KH0]] to %[[KH1]] step
// TAPS:             %[[KW0:.*]] = affine.max affine_map<()[s0] -> (-s0 - 5, 0)>()[%[[OW]]]
// TAPS:             %[[KW1:.*]] = affine.min affine_map<()[s0] -> (-s0 + 18, 5)>()[%[[OW]]]
// TAPS:             scf.for %{{.*}} = %[[KW0]] to %[[KW1]] step
// TAPS-COUNT-8:       vector.fma
func.func @conv_over_padded_input(%x: tensor<1x8x16x8xf32>, %w: tensor<3x5x8x32xf32>, %init: tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x20x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x20x8xf32>) -> tensor<1x12x20x8xf32>
  %p = tensor.insert_slice %x into %z[0, 2, 2, 0] [1, 8, 16, 8] [1, 1, 1, 1] : tensor<1x8x16x8xf32> into tensor<1x12x20x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x12x20x8xf32>, tensor<3x5x8x32xf32>) outs(%init : tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32>
  return %r : tensor<1x10x16x32xf32>
}

// -----

// The same through a channels-last transpose of the padded NCHW input.
// TAPS-LABEL: func.func @conv_over_permuted_padding
// TAPS:         affine.max affine_map<()[s0] -> (-s0 + 2, 0)>
// TAPS:         affine.min affine_map<()[s0] -> (-s0 + 10, 3)>
// TAPS:         affine.max affine_map<()[s0] -> (-s0 - 5, 0)>
// TAPS:         affine.min affine_map<()[s0] -> (-s0 + 18, 5)>
func.func @conv_over_permuted_padding(%x: tensor<1x8x8x16xf32>, %w: tensor<3x5x8x32xf32>, %init: tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x12x20xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x12x20xf32>) -> tensor<1x8x12x20xf32>
  %p = tensor.insert_slice %x into %z[0, 0, 2, 2] [1, 8, 8, 16] [1, 1, 1, 1] : tensor<1x8x8x16xf32> into tensor<1x8x12x20xf32>
  %e2 = tensor.empty() : tensor<1x12x20x8xf32>
  %t = linalg.transpose ins(%p : tensor<1x8x12x20xf32>) outs(%e2 : tensor<1x12x20x8xf32>) permutation = [0, 2, 3, 1]
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%t, %w : tensor<1x12x20x8xf32>, tensor<3x5x8x32xf32>) outs(%init : tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32>
  return %r : tensor<1x10x16x32xf32>
}

// -----

// Dilated taps step 2 along the input: row oh's taps kh from
// ceil((2 - oh) / 2), while 2 * kh + oh < 10.
// TAPS-LABEL: func.func @dilated_conv_over_padded_input
// TAPS:         affine.max affine_map<()[s0] -> ((-s0 + 2) ceildiv 2, 0)>
// TAPS:         affine.min affine_map<()[s0] -> ((-s0 + 10) ceildiv 2, 3)>
func.func @dilated_conv_over_padded_input(%x: tensor<1x8x16x8xf32>, %w: tensor<3x5x8x32xf32>, %init: tensor<1x8x12x32xf32>) -> tensor<1x8x12x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x20x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x20x8xf32>) -> tensor<1x12x20x8xf32>
  %p = tensor.insert_slice %x into %z[0, 2, 2, 0] [1, 8, 16, 8] [1, 1, 1, 1] : tensor<1x8x16x8xf32> into tensor<1x12x20x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x12x20x8xf32>, tensor<3x5x8x32xf32>) outs(%init : tensor<1x8x12x32xf32>) -> tensor<1x8x12x32xf32>
  return %r : tensor<1x8x12x32xf32>
}

// -----

// Padding of ones is data: every tap runs.
// TAPS-LABEL: func.func @conv_over_nonzero_padding
// TAPS-NOT:     affine.max
// TAPS:         scf.for %{{.*}} = %c0{{.*}} to %c3
// TAPS:           scf.for %{{.*}} = %c0{{.*}} to %c5
func.func @conv_over_nonzero_padding(%x: tensor<1x8x16x8xf32>, %w: tensor<3x5x8x32xf32>, %init: tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x12x20x8xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<1x12x20x8xf32>) -> tensor<1x12x20x8xf32>
  %p = tensor.insert_slice %x into %z[0, 2, 2, 0] [1, 8, 16, 8] [1, 1, 1, 1] : tensor<1x8x16x8xf32> into tensor<1x12x20x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x12x20x8xf32>, tensor<3x5x8x32xf32>) outs(%init : tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32>
  return %r : tensor<1x10x16x32xf32>
}

// -----

// One row of padding in 17 (a stride-2 transposed convolution's phase):
// under 1/16 of the dimension, its loops keep their constant bounds.
// TAPS-LABEL: func.func @conv_over_thin_padding
// TAPS-NOT:     affine.max
// TAPS:         scf.for %{{.*}} = %c0{{.*}} to %c3
// TAPS:           scf.for %{{.*}} = %c0{{.*}} to %c5
func.func @conv_over_thin_padding(%x: tensor<1x16x16x8xf32>, %w: tensor<3x5x8x32xf32>, %init: tensor<1x15x13x32xf32>) -> tensor<1x15x13x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x17x17x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x17x17x8xf32>) -> tensor<1x17x17x8xf32>
  %p = tensor.insert_slice %x into %z[0, 1, 1, 0] [1, 16, 16, 8] [1, 1, 1, 1] : tensor<1x16x16x8xf32> into tensor<1x17x17x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x17x17x8xf32>, tensor<3x5x8x32xf32>) outs(%init : tensor<1x15x13x32xf32>) -> tensor<1x15x13x32xf32>
  return %r : tensor<1x15x13x32xf32>
}

// -----

// A max pool's zeros count; a sum pool's add nothing.
// TAPS-LABEL: func.func @max_pool_over_zero_padding
// TAPS-NOT:     affine.max
// TAPS-LABEL: func.func @sum_pool_over_zero_padding
// TAPS:         affine.max affine_map<(d0)[s0] -> (-(d0 + s0) + 2, 0)>
// TAPS:         affine.min affine_map<(d0)[s0] -> (-(d0 + s0) + 10, 3)>
func.func @max_pool_over_zero_padding(%x: tensor<1x8x16x32xf32>, %init: tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x20x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x20x32xf32>) -> tensor<1x12x20x32xf32>
  %p = tensor.insert_slice %x into %z[0, 2, 2, 0] [1, 8, 16, 32] [1, 1, 1, 1] : tensor<1x8x16x32xf32> into tensor<1x12x20x32xf32>
  %win = tensor.empty() : tensor<3x5xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %win : tensor<1x12x20x32xf32>, tensor<3x5xf32>) outs(%init : tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32>
  return %r : tensor<1x10x16x32xf32>
}

func.func @sum_pool_over_zero_padding(%x: tensor<1x8x16x32xf32>, %init: tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x20x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x20x32xf32>) -> tensor<1x12x20x32xf32>
  %p = tensor.insert_slice %x into %z[0, 2, 2, 0] [1, 8, 16, 32] [1, 1, 1, 1] : tensor<1x8x16x32xf32> into tensor<1x12x20x32xf32>
  %win = tensor.empty() : tensor<3x5xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %win : tensor<1x12x20x32xf32>, tensor<3x5xf32>) outs(%init : tensor<1x10x16x32xf32>) -> tensor<1x10x16x32xf32>
  return %r : tensor<1x10x16x32xf32>
}
