// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-distribute-reductions-for-gpu{warp-row-length=0}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-distribute-reductions-for-gpu{max-threads=64 warp-row-length=0}))' | FileCheck %s --check-prefix=SMALL
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-distribute-reductions-for-gpu{max-threads=0}))' | FileCheck %s --check-prefix=NONE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-distribute-reductions-for-gpu{thread-tile=2,2 warp-row-length=0}))' | FileCheck %s --check-prefix=TILE
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-distribute-reductions-for-gpu{fuse-rows=false warp-row-length=0}))' | FileCheck %s --check-prefix=UNFUSED
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-distribute-reductions-for-gpu))' | FileCheck %s --check-prefix=WARPS

// A row sum: one block per row, a quarter of the row's 2048 elements in
// threads (512) each folding a strided slice (thread t reads t, t+512,
// ...), the partials combined by gpu.all_reduce, and thread 0 adds the
// total to the output (its init still counts).
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:     %[[ROWS:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[THREADS:.*]] = arith.constant 512 : index
// CHECK:         gpu.launch blocks(%[[ROW:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[THREADS]],
// CHECK:           %[[PART:.*]] = scf.for %{{.*}} = %[[T]] to %{{.*}} step %{{.*}} iter_args
// CHECK:             memref.load %arg0[%{{.*}}, %{{.*}}]
// CHECK:             arith.addf
// CHECK:           %[[TOTAL:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK:           scf.if
// CHECK:             %[[OLD:.*]] = memref.load %arg1
// CHECK:             %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOTAL]]
// CHECK:             memref.store %[[NEW]], %arg1
// CHECK-NOT:     linalg.reduce
// NONE-LABEL: func.func @row_sum
// NONE-NOT:     gpu.all_reduce
// NONE:         scf.parallel
// NONE:           scf.for
// SMALL-LABEL: func.func @row_sum
// SMALL:         arith.constant 64 : index
// SMALL:         gpu.launch
func.func @row_sum(%x: memref<64x2048xf32>, %y: memref<64xf32>) {
  linalg.reduce ins(%x : memref<64x2048xf32>) outs(%y : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A per-row operand (the mean) and an elementwise prologue before the
// combiner (a max here): cloned into the strided loop.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @centered_max
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             %[[X:.*]] = memref.load %arg0
// CHECK:             %[[M:.*]] = memref.load %arg1
// CHECK:             %[[D:.*]] = arith.subf %[[X]], %[[M]]
// CHECK:             arith.maximumf
// CHECK:           gpu.all_reduce maximumf
func.func @centered_max(%x: memref<16x512xf32>, %mean: memref<16xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : memref<16x512xf32>, memref<16xf32>) outs(%y : memref<16xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %r = arith.maximumf %d, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A column sum (the reduction along the outer loop): 32 columns on
// threadIdx.x, chunks of 16 rows on threadIdx.y and the grid's y, each
// thread's partial added to the output atomically.
// CHECK-LABEL: func.func @column_sum
// CHECK-DAG:     %[[GX:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads({{.*}}) in (%{{.*}} = %[[C32]], %{{.*}} = %[[C8]],
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               memref.load %arg0
// CHECK:               arith.addf
// CHECK:             memref.atomic_rmw addf %{{.*}}, %arg1[
func.func @column_sum(%x: memref<256x128xf32>, %y: memref<128xf32>) {
  linalg.reduce ins(%x : memref<256x128xf32>) outs(%y : memref<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Not distributed across threads: a matmul (operands shared between
// outputs), a column max (no float max atomic) and i16 (only f32, f64, i32
// and i64 rows are taken). Each becomes one thread per output element (an scf.parallel)
// whose reduction loop carries the accumulator in a register: the output
// is loaded once before the loop and stored once after it.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     gpu.launch
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:           %[[INIT:.*]] = memref.load %arg2
// CHECK:           %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK:             %[[A:.*]] = memref.load %arg0
// CHECK:             %[[B:.*]] = memref.load %arg1
// CHECK:             %[[P:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK-NOT:         memref.store
// CHECK:             arith.addf %[[ACC]], %[[P]]
// CHECK:           memref.store %[[SUM]], %arg2
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:             arith.maximumf
// CHECK:         scf.parallel
// CHECK:           scf.for {{.*}} -> (i16)
// CHECK-NOT:     linalg.
func.func @left_alone(%a: memref<32x64xf32>, %b: memref<64x32xf32>, %c: memref<32x32xf32>,
                      %x: memref<64x128xf32>, %col: memref<128xf32>,
                      %d: memref<8x64xi16>, %drow: memref<8xi16>) {
  linalg.matmul ins(%a, %b : memref<32x64xf32>, memref<64x32xf32>) outs(%c : memref<32x32xf32>)
  linalg.reduce ins(%x : memref<64x128xf32>) outs(%col : memref<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%d : memref<8x64xi16>) outs(%drow : memref<8xi16>) dimensions = [1]
    (%in: i16, %acc: i16) {
      %s = arith.addi %in, %acc : i16
      linalg.yield %s : i16
    }
  return
}

// -----

// A count in i64 of a loss's non-ignored targets (i1 flags summed to a
// scalar): one block whose threads stride over the flags and combine with
// gpu.all_reduce on i64, not one thread walking all 1024.
// CHECK-LABEL: func.func @count_flags
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK:           %[[PART:.*]] = scf.for {{.*}} -> (i64)
// CHECK:             memref.load %arg0
// CHECK:             arith.extui
// CHECK:           gpu.all_reduce add %[[PART]]
// CHECK-NOT:     linalg.generic
func.func @count_flags(%flags: memref<1024xi1>, %count: memref<i64>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%flags : memref<1024xi1>) outs(%count : memref<i64>) {
  ^bb0(%in: i1, %out: i64):
    %w = arith.extui %in : i1 to i64
    %s = arith.addi %w, %out : i64
    linalg.yield %s : i64
  }
  return
}

// -----

// A mean over C, H and W with a per-channel scale fused in (a group norm's
// affine step before it): the scale is the same for every row, read in
// each thread's loop.
// CHECK-LABEL: func.func @scaled_mean
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             %[[C:.*]]:2 = affine.delinearize_index %{{.*}} into (24, 900)
// CHECK:             memref.load %arg1[%[[C]]#0]
// CHECK:           gpu.all_reduce add
func.func @scaled_mean(%x: memref<16x24x900xf32>, %scale: memref<24xf32>, %mean: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %scale : memref<16x24x900xf32>, memref<24xf32>) outs(%mean : memref<16xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %p = arith.mulf %in, %s : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Rows shorter than a warp (a group norm over groups of 4 channels): one
// thread per row accumulating in registers, not a block of mostly idle
// threads.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     gpu.launch
// CHECK:         scf.parallel
// CHECK:           scf.for {{.*}} -> (f32)
func.func @short_rows(%x: memref<4096x4xf32>, %y: memref<4096xf32>) {
  linalg.reduce ins(%x : memref<4096x4xf32>) outs(%y : memref<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Statistics over N, H and W with C between them (a batch norm's sum of
// squares, in f64 as front ends write it): one row per channel, its three
// reduction loops one linearized space (W fastest: neighbouring threads
// read neighbouring elements), and gpu.all_reduce on f64.
// CHECK-LABEL: func.func @batch_norm_statistics
// CHECK:         %[[CHANNELS:.*]] = arith.constant 4 : index
// CHECK:         gpu.launch blocks(%[[C:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[CHANNELS]], {{.*}} threads(%[[T:.*]], %{{.*}}, %{{.*}}) in
// CHECK:           %[[PART:.*]] = scf.for %[[R:.*]] = %[[T]] to %c2048 step %{{.*}} iter_args(%{{.*}}) -> (f64)
// CHECK:             %[[NHW:.*]]:3 = affine.delinearize_index %[[R]] into (2, 16, 64)
// CHECK:             %[[X:.*]] = memref.load %arg0[%[[NHW]]#0, %[[C]], %[[NHW]]#1, %[[NHW]]#2]
// CHECK:             arith.mulf %[[X]], %[[X]] : f64
// CHECK:           %[[TOTAL:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK-NEXT:      } : (f64) -> f64
// CHECK:           scf.if
// CHECK:             %[[OLD:.*]] = memref.load %arg1[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}]
// CHECK:             arith.addf %[[OLD]], %[[TOTAL]] : f64
func.func @batch_norm_statistics(%x: memref<2x4x16x64xf64>, %sums: memref<1x4x1x1xf64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : memref<2x4x16x64xf64>) outs(%sums : memref<1x4x1x1xf64>) {
  ^bb0(%in: f64, %acc: f64):
    %sq = arith.mulf %in, %in : f64
    %s = arith.addf %sq, %acc : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// thread-tile=2,2: each thread owns a 2x2 tile of the output. The parallel
// loop runs over tiles with unit steps (corner = index x 2), four
// accumulators are loaded, carried and stored.
// TILE-LABEL: func.func @matmul_tiles
// TILE:         scf.parallel (%[[TI:.*]], %[[TJ:.*]]) = (%{{.*}}, %{{.*}}) to (%c16{{.*}}, %c8{{.*}}) step (%c1{{.*}}, %c1{{.*}})
// TILE:           %[[I:.*]] = arith.muli %[[TI]], %c2
// TILE:           %[[J:.*]] = arith.muli %[[TJ]], %c2
// TILE-COUNT-4:   memref.load %arg2
// TILE:           %[[SUMS:.*]]:4 = scf.for {{.*}} -> (f32, f32, f32, f32)
// TILE-COUNT-4:   memref.store %[[SUMS]]#{{[0-3]}}, %arg2
func.func @matmul_tiles(%a: memref<32x64xf32>, %b: memref<64x16xf32>, %c: memref<32x16xf32>) {
  linalg.matmul ins(%a, %b : memref<32x64xf32>, memref<64x16xf32>) outs(%c : memref<32x16xf32>)
  return
}

// -----

// The function's knob (set by the search) wins over the pass options.
// CHECK-LABEL: func.func @knob
// CHECK:         scf.parallel {{.*}} to (%c8{{.*}}, %c16{{.*}})
// CHECK:           scf.for {{.*}} -> (f32, f32, f32, f32)
func.func @knob(%a: memref<32x64xf32>, %b: memref<64x16xf32>, %c: memref<32x16xf32>) attributes {ke.gpu_thread_tile = array<i64: 4, 1>} {
  linalg.matmul ins(%a, %b : memref<32x64xf32>, memref<64x16xf32>) outs(%c : memref<32x16xf32>)
  return
}

// -----

// The fill right before a reduction is folded into it (one launch less):
// thread 0 combines the fill value with the total, no load of the output.
// A column sum keeps its fill (it adds atomically into it).
// CHECK-LABEL: func.func @filled
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     linalg.fill ins(%{{.*}}) outs(%arg1
// CHECK:         gpu.all_reduce add
// CHECK:         scf.if
// CHECK-NOT:       memref.load
// CHECK:           %[[NEW:.*]] = arith.addf %[[ZERO]], %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[NEW]], %arg1
// CHECK:         linalg.fill ins(%{{.*}}) outs(%arg2
// CHECK:         memref.atomic_rmw
func.func @filled(%x: memref<64x512xf32>, %rows: memref<64xf32>, %cols: memref<512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%rows : memref<64xf32>)
  linalg.reduce ins(%x : memref<64x512xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.fill ins(%zero : f32) outs(%cols : memref<512xf32>)
  linalg.reduce ins(%x : memref<64x512xf32>) outs(%cols : memref<512xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A kernel launched after the reduction that reads its output (a prefix
// scan's warps reading the chunk totals) does not keep the fill; one
// launched between the fill and the reduction, capturing the buffer
// without it as an operand, does.
// CHECK-LABEL: func.func @read_by_a_later_launch
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.all_reduce add
// CHECK:         gpu.launch
// CHECK:           memref.load %arg1
// CHECK-LABEL: func.func @read_by_an_earlier_launch
// CHECK:         linalg.fill
// CHECK:         gpu.launch
// CHECK:           memref.load %arg1
// CHECK:         gpu.all_reduce add
func.func @read_by_a_later_launch(%x: memref<64x512xf32>, %rows: memref<64xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  linalg.fill ins(%zero : f32) outs(%rows : memref<64xf32>)
  linalg.reduce ins(%x : memref<64x512xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %rows[%tx] : memref<64xf32>
    memref.store %v, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
func.func @read_by_an_earlier_launch(%x: memref<64x512xf32>, %rows: memref<64xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  linalg.fill ins(%zero : f32) outs(%rows : memref<64xf32>)
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %v = memref.load %rows[%tx] : memref<64xf32>
    memref.store %v, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  linalg.reduce ins(%x : memref<64x512xf32>) outs(%rows : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Softmax on buffers: max, exp(x - max), sum, divide over the same 64 rows
// of 1024 make one launch with a block per row. Each op strides over the
// columns from the thread's index; the max and the sum are all-reduced and
// kept in registers (the ops after read them, not the buffers), and their
// fills are folded. exp(x - max) goes to a temporary only the run reads,
// at the same (row, column): it is not stored but recomputed in the sum's
// and the divide's loops from x (read again, in cache), so the launch
// reads x and writes y, not also the temporary twice and once. Without
// fuse-rows, the two reductions are launches of their own.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.fill
// CHECK:         gpu.launch blocks(%[[ROW:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in
// CHECK:           %[[PMAX:.*]] = scf.for %{{.*}} = %[[T]] to %c1024{{.*}} step %c256{{.*}} iter_args
// CHECK:             arith.maximumf
// CHECK:           %[[MAX:.*]] = gpu.all_reduce maximumf %[[PMAX]] uniform
// CHECK:           %[[ROWMAX:.*]] = arith.maximumf %{{.*}}, %[[MAX]]
// CHECK:           scf.if
// CHECK:             memref.store %[[ROWMAX]], %[[MAXBUF:.*]][%{{.*}}]
// CHECK:           %[[PSUM:.*]] = scf.for %[[C:.*]] = %[[T]] to %c1024{{.*}} step %c256{{.*}} iter_args
// CHECK-NOT:         memref.load %[[MAXBUF]]
// CHECK:             %[[X:.*]] = memref.load %arg0[%[[ROW]], %[[C]]]
// CHECK:             %[[SHIFTED:.*]] = arith.subf %[[X]], %[[ROWMAX]]
// CHECK:             %[[EXP:.*]] = math.exp %[[SHIFTED]]
// CHECK:             arith.addf %[[EXP]]
// CHECK:           %[[SUM:.*]] = gpu.all_reduce add %[[PSUM]] uniform
// CHECK:           %[[ROWSUM:.*]] = arith.addf %{{.*}}, %[[SUM]]
// CHECK:           scf.for %[[C2:.*]] = %[[T]]
// CHECK:             %[[X2:.*]] = memref.load %arg0[%[[ROW]], %[[C2]]]
// CHECK:             %[[SHIFTED2:.*]] = arith.subf %[[X2]], %[[ROWMAX]]
// CHECK:             %[[EXP2:.*]] = math.exp %[[SHIFTED2]]
// CHECK:             arith.divf %[[EXP2]], %[[ROWSUM]]
// CHECK:             memref.store %{{.*}}, %arg1
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
// UNFUSED-LABEL: func.func @softmax
// UNFUSED-COUNT-2: gpu.all_reduce
// UNFUSED:         linalg.generic
#id = affine_map<(r, c) -> (r, c)>
#row = affine_map<(r, c) -> (r)>
func.func @softmax(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<64xf32>
  %exp = memref.alloc() : memref<64x1024xf32>
  %sum = memref.alloc() : memref<64xf32>
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1024xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<64x1024xf32>, memref<64xf32>) outs(%exp : memref<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : memref<64x1024xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : memref<64x1024xf32>, memref<64xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%e: f32, %s: f32, %out: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  }
  memref.dealloc %max : memref<64xf32>
  memref.dealloc %exp : memref<64x1024xf32>
  memref.dealloc %sum : memref<64xf32>
  return
}

// -----

// The same run with exp(x - max) written to an argument (a result the
// caller reads): it is stored, and the sum reads it back.
// CHECK-LABEL: func.func @softmax_with_exp_out
// CHECK:         gpu.launch
// CHECK:           math.exp
// CHECK:           memref.store %{{.*}}, %arg2
// CHECK:           scf.for {{.*}} iter_args
// CHECK:             memref.load %arg2
// CHECK-NOT:         math.exp
// CHECK:           gpu.all_reduce add
#id2 = affine_map<(r, c) -> (r, c)>
#row2 = affine_map<(r, c) -> (r)>
func.func @softmax_with_exp_out(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>, %exp: memref<64x1024xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<64xf32>
  %sum = memref.alloc() : memref<64xf32>
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<64xf32>)
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1024xf32>) outs(%max : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<64x1024xf32>, memref<64xf32>) outs(%exp : memref<64x1024xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%exp : memref<64x1024xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : memref<64x1024xf32>, memref<64xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%e: f32, %s: f32, %out: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  }
  memref.dealloc %max : memref<64xf32>
  memref.dealloc %sum : memref<64xf32>
  return
}

// -----

// Not fused: a row max read per column by the next op (another block's
// row: the elementwise op stays), a reduction whose body reads linalg.index
// (alone). Then a run cut by the deallocation of a buffer it uses: x - n
// (n from the earlier kernel, through memory), the max and the exp in one
// launch, the sum in another.
// CHECK-LABEL: func.func @not_fused
// CHECK:         gpu.all_reduce maximumf
// CHECK:         gpu.terminator
// CHECK:         linalg.generic
// CHECK:         gpu.all_reduce maximumf
// CHECK:         gpu.terminator
// CHECK-NOT:     linalg.generic
// CHECK:         gpu.launch
// CHECK:           memref.load %arg3
// CHECK:           gpu.all_reduce maximumf
// CHECK:           math.exp
// CHECK:         gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc
// CHECK:         gpu.launch
// CHECK:           gpu.all_reduce add
// CHECK-NOT:       math.exp
// CHECK:         gpu.terminator
#id2 = affine_map<(r, c) -> (r, c)>
#row2 = affine_map<(r, c) -> (r)>
#col2 = affine_map<(r, c) -> (c)>
func.func @not_fused(%x: memref<64x64xf32>, %y: memref<64x64xf32>, %m: memref<64xf32>,
                     %n: memref<64xf32>, %s: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %v: f32, %o: f32):
    %d = arith.subf %in, %v : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%n : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %v = arith.mulf %in, %cf : f32
    %r = arith.maximumf %v, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %n : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %v: f32, %o: f32):
    %d = arith.subf %in, %v : f32
    linalg.yield %d : f32
  }
  %t = memref.alloc() : memref<64xf32>
  %e = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x64xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %t : memref<64x64xf32>, memref<64xf32>) outs(%e : memref<64x64xf32>) {
  ^bb0(%in: f32, %v: f32, %o: f32):
    %d = arith.subf %in, %v : f32
    %x2 = math.exp %d : f32
    linalg.yield %x2 : f32
  }
  memref.dealloc %t : memref<64xf32>
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }
  memref.dealloc %e : memref<64x64xf32>
  return
}

// -----

// An argmax (two results: the running max and its index, from
// linalg.index) has no single combiner: each thread carries both outputs
// in registers, the whole body cloned per iteration with the loop's iv for
// the index, and stores each once after the loop.
// CHECK-LABEL: func.func @argmax
// CHECK-NOT:     gpu.launch
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-DAG:       %[[MAX0:.*]] = memref.load %arg1[%[[I]], %[[J]]]
// CHECK-DAG:       %[[IDX0:.*]] = memref.load %arg2[%[[I]], %[[J]]]
// CHECK:           %[[R:.*]]:2 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[MAX:.*]] = %[[MAX0]], %[[IDX:.*]] = %[[IDX0]]) -> (f32, i64)
// CHECK:             %[[X:.*]] = memref.load %arg0[%[[I]], %[[K]], %[[J]]]
// CHECK:             %[[K64:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-NOT:         memref.store
// CHECK:             %[[NEWMAX:.*]] = arith.maximumf %[[X]], %[[MAX]]
// CHECK:             %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[MAX]]
// CHECK:             %[[NEWIDX:.*]] = arith.select %[[GT]], %[[K64]], %[[IDX]]
// CHECK:             scf.yield %[[NEWMAX]], %[[NEWIDX]]
// CHECK:           memref.store %[[R]]#0, %arg1[%[[I]], %[[J]]]
// CHECK:           memref.store %[[R]]#1, %arg2[%[[I]], %[[J]]]
// CHECK-NOT:     linalg.generic
func.func @argmax(%x: memref<2x1024x100xf32>, %max: memref<2x100xf32>, %idx: memref<2x100xi64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x1024x100xf32>) outs(%max, %idx : memref<2x100xf32>, memref<2x100xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %new = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %sel = arith.select %gt, %k64, %i : i64
    linalg.yield %new, %sel : f32, i64
  }
  return
}

// -----

// An argmax whose two outputs are filled right before it (as torch-mlir
// writes it): each output starts from its own fill's value in registers,
// and both fills (two launches) go away.
// CHECK-LABEL: func.func @filled_argmax
// CHECK-NOT:     linalg.fill
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         scf.parallel
// CHECK-NOT:       memref.load %arg1
// CHECK-NOT:       memref.load %arg2
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[NEGINF]], %{{.*}} = %[[ZERO]]) -> (f32, i64)
// CHECK-NOT:     linalg.fill
func.func @filled_argmax(%x: memref<2x1024x100xf32>, %max: memref<2x100xf32>, %idx: memref<2x100xi64>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  linalg.fill ins(%zero : i64) outs(%idx : memref<2x100xi64>)
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<2x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<2x1024x100xf32>) outs(%max, %idx : memref<2x100xf32>, memref<2x100xi64>) {
  ^bb0(%in: f32, %m: f32, %i: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %new = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %sel = arith.select %gt, %k64, %i : i64
    linalg.yield %new, %sel : f32, i64
  }
  return
}

// -----

// The same argmax also reading its index buffer as an input: the filled
// indices are read, so that fill stays (the max's fill is still folded).
// CHECK-LABEL: func.func @argmax_reading_its_index
// CHECK:         linalg.fill ins(%{{.*}} : i64) outs(%arg2
// CHECK-NOT:     linalg.fill ins(%{{.*}} : f32)
// CHECK:         scf.parallel
func.func @argmax_reading_its_index(%x: memref<2x1024x100xf32>, %max: memref<2x100xf32>, %idx: memref<2x100xi64>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  linalg.fill ins(%zero : i64) outs(%idx : memref<2x100xi64>)
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<2x100xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %idx : memref<2x1024x100xf32>, memref<2x100xi64>) outs(%max, %idx : memref<2x100xf32>, memref<2x100xi64>) {
  ^bb0(%in: f32, %base: i64, %m: f32, %i: i64):
    %k = linalg.index 1 : index
    %k64 = arith.index_cast %k : index to i64
    %pos = arith.addi %k64, %base : i64
    %new = arith.maximumf %in, %m : f32
    %gt = arith.cmpf ogt, %in, %m : f32
    %sel = arith.select %gt, %pos, %i : i64
    linalg.yield %new, %sel : f32, i64
  }
  return
}

// -----

// A reduction to a scalar (a loss's mean over the batch) is one row: one
// block of threads (1024, the most, for 4096 elements) striding over it,
// then an all-reduce; not one thread.
// CHECK-LABEL: func.func @sum_to_scalar
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c1024
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK:             memref.load %arg0
// CHECK:           gpu.all_reduce add
// CHECK:           memref.store {{.*}}, %arg1[]
// NONE-LABEL: func.func @sum_to_scalar
// NONE-NOT:     gpu.launch
// NONE:         linalg.generic
func.func @sum_to_scalar(%x: memref<4096xf32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<4096xf32>) outs(%out : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows of 64 elements (a layer norm over the last dimension of 2 x 8 x 64)
// with the default options: a warp per row, 4 rows to a block (16 rows:
// 4 blocks of 32 x 4 threads), lanes striding by 32, a butterfly of 5
// shuffles, lane 0 storing. Rows of 512 keep a block each.
// WARPS-LABEL: func.func @short_rows_by_warps
// WARPS:         gpu.launch blocks({{.*}}) in ({{.*}} = %c4{{.*}}, {{.*}}) threads(%[[LANE:.*]], %[[WARP:.*]], %{{.*}}) in ({{.*}} = %c32{{.*}}, {{.*}} = %c4{{.*}}, {{.*}})
// WARPS:           %[[ROW:.*]] = arith.addi %{{.*}}, %[[WARP]]
// WARPS:           scf.if
// WARPS:             affine.delinearize_index %[[ROW]] into (2, 8)
// WARPS:             %[[PART:.*]] = scf.for %{{.*}} = %[[LANE]] to %c64{{.*}} step %c32{{.*}} iter_args
// WARPS:             gpu.shuffle  xor %[[PART]], %{{.*}}, %{{.*}} : f32
// WARPS-COUNT-4:     gpu.shuffle  xor
// WARPS-NOT:         gpu.all_reduce
// WARPS:             arith.cmpi eq, %[[LANE]]
// WARPS:             memref.store
// WARPS:         gpu.launch
// WARPS:           gpu.all_reduce add
func.func @short_rows_by_warps(%x: memref<2x8x64xf32>, %out: memref<2x8xf32>, %y: memref<16x512xf32>, %out2: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x8x64xf32>) outs(%out : memref<2x8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<16x512xf32>) outs(%out2 : memref<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A run over rows of 4 (a group norm's groups of 4 channels: a sum, then
// x - mean) is not fused: a block per row would leave 28 of its 32
// threads idle. The sum is accumulated in registers, one thread per row,
// and the elementwise op stays.
// CHECK-LABEL: func.func @short_rows_not_fused
// CHECK-NOT:     gpu.launch
// CHECK:         scf.parallel
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK:         linalg.generic
func.func @short_rows_not_fused(%x: memref<4096x4xf32>, %sum: memref<4096xf32>, %y: memref<4096x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4096x4xf32>) outs(%sum : memref<4096xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<4096x4xf32>, memref<4096xf32>) outs(%y : memref<4096x4xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %s : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A min over a batch row of (group, channel) whose body reads per-(batch,
// group) statistics (indexed by the row and one reduction loop): every
// operand belongs to one row, so the row gets a block (it was one thread
// walking 2048 elements).
// CHECK-LABEL: func.func @row_with_group_statistics
// CHECK:         gpu.launch
// CHECK:           memref.load %arg1
// CHECK:           gpu.all_reduce minimumf
func.func @row_with_group_statistics(%x: memref<256x512x4xf32>, %mean: memref<256x512xf32>, %out: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %mean : memref<256x512x4xf32>, memref<256x512xf32>) outs(%out : memref<256xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %r = arith.minimumf %d, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A group norm's normalization fused into the mean after it, its rows split
// into chunks: the per-(batch, group) statistics (a small buffer) are read
// along a parallel loop and an outer reduction loop, never the innermost
// one, so they come from cache and the mean still gets a block per row.
// CHECK-LABEL: func.func @normalized_mean
// CHECK:         gpu.launch
// CHECK:           memref.load %arg1
// CHECK:           gpu.all_reduce add
// CHECK-NOT:     scf.parallel
func.func @normalized_mean(%x: memref<2x4x3x64xf32>, %mean: memref<2x4xf32>, %out: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d2)>],
                  iterator_types = ["parallel", "reduction", "parallel", "reduction"]}
      ins(%x, %mean : memref<2x4x3x64xf32>, memref<2x4xf32>) outs(%out : memref<2x3xf32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %c = arith.subf %in, %m : f32
    %s = arith.addf %c, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A softmax over a single row (a Linear layer's output at batch 1): no row
// loops, the reductions go to 0-d buffers. Up to 32768 columns the run is
// one launch of one block, writing the result through a collapse of the
// caller's [1, N] buffer (one block: no row another block owns); from 32768
// on, each reduction is a launch of its own.
// CHECK-LABEL: func.func @single_row_softmax
// CHECK:         memref.collapse_shape %arg1
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads
// CHECK:           gpu.all_reduce maximumf
// CHECK:           gpu.all_reduce add
// CHECK:           arith.divf
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @long_single_row_softmax
// CHECK:         gpu.launch
// CHECK:         linalg.generic
// CHECK:         gpu.launch
// CHECK:         linalg.generic
#col = affine_map<(c) -> (c)>
#all = affine_map<(c) -> ()>
func.func @single_row_softmax(%x: memref<2048xf32>, %y: memref<1x2048xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<f32>
  %exp = memref.alloc() : memref<2048xf32>
  %sum = memref.alloc() : memref<f32>
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<f32>)
  linalg.generic {indexing_maps = [#col, #all], iterator_types = ["reduction"]}
      ins(%x : memref<2048xf32>) outs(%max : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#col, #all, #col], iterator_types = ["parallel"]}
      ins(%x, %max : memref<2048xf32>, memref<f32>) outs(%exp : memref<2048xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<f32>)
  linalg.generic {indexing_maps = [#col, #all], iterator_types = ["reduction"]}
      ins(%exp : memref<2048xf32>) outs(%sum : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  %flat = memref.collapse_shape %y [[0, 1]] : memref<1x2048xf32> into memref<2048xf32>
  linalg.generic {indexing_maps = [#col, #all, #col], iterator_types = ["parallel"]}
      ins(%exp, %sum : memref<2048xf32>, memref<f32>) outs(%flat : memref<2048xf32>) {
  ^bb0(%e: f32, %s: f32, %out: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  }
  memref.dealloc %max : memref<f32>
  memref.dealloc %exp : memref<2048xf32>
  memref.dealloc %sum : memref<f32>
  return
}
func.func @long_single_row_softmax(%x: memref<32768xf32>, %y: memref<32768xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<f32>
  %exp = memref.alloc() : memref<32768xf32>
  %sum = memref.alloc() : memref<f32>
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<f32>)
  linalg.generic {indexing_maps = [#col, #all], iterator_types = ["reduction"]}
      ins(%x : memref<32768xf32>) outs(%max : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#col, #all, #col], iterator_types = ["parallel"]}
      ins(%x, %max : memref<32768xf32>, memref<f32>) outs(%exp : memref<32768xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<f32>)
  linalg.generic {indexing_maps = [#col, #all], iterator_types = ["reduction"]}
      ins(%exp : memref<32768xf32>) outs(%sum : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#col, #all, #col], iterator_types = ["parallel"]}
      ins(%exp, %sum : memref<32768xf32>, memref<f32>) outs(%y : memref<32768xf32>) {
  ^bb0(%e: f32, %s: f32, %out: f32):
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  }
  memref.dealloc %max : memref<f32>
  memref.dealloc %exp : memref<32768xf32>
  memref.dealloc %sum : memref<f32>
  return
}

// -----

// LogSumExp over a single row: max, sum of exp(x - max), then an op over
// no loops (log(sum) + max, computed by every thread from registers): one
// launch. A result written through a collapse of a subview (not a whole
// buffer) keeps that op out of the run.
// CHECK-LABEL: func.func @single_row_logsumexp
// CHECK:         gpu.launch
// CHECK:           gpu.all_reduce maximumf
// CHECK:           gpu.all_reduce add
// CHECK:           math.log
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @single_row_softmax_into_subview
// CHECK:         gpu.launch
// CHECK:           gpu.terminator
// CHECK:         linalg.generic
#c = affine_map<(c) -> (c)>
#s = affine_map<(c) -> ()>
#none = affine_map<() -> ()>
func.func @single_row_logsumexp(%x: memref<2048xf32>, %y: memref<f32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<f32>
  %sum = memref.alloc() : memref<f32>
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<f32>)
  linalg.generic {indexing_maps = [#c, #s], iterator_types = ["reduction"]}
      ins(%x : memref<2048xf32>) outs(%max : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<f32>)
  linalg.generic {indexing_maps = [#c, #s, #s], iterator_types = ["reduction"]}
      ins(%x, %max : memref<2048xf32>, memref<f32>) outs(%sum : memref<f32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %a = arith.addf %e, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#none, #none, #none], iterator_types = []}
      ins(%sum, %max : memref<f32>, memref<f32>) outs(%y : memref<f32>) {
  ^bb0(%t: f32, %m: f32, %out: f32):
    %l = math.log %t : f32
    %r = arith.addf %l, %m : f32
    linalg.yield %r : f32
  }
  memref.dealloc %max : memref<f32>
  memref.dealloc %sum : memref<f32>
  return
}
func.func @single_row_softmax_into_subview(%x: memref<2048xf32>, %y: memref<2x2048xf32>) {
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<f32>
  %sum = memref.alloc() : memref<f32>
  linalg.fill ins(%neg_inf : f32) outs(%max : memref<f32>)
  linalg.generic {indexing_maps = [#c, #s], iterator_types = ["reduction"]}
      ins(%x : memref<2048xf32>) outs(%max : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  linalg.fill ins(%zero : f32) outs(%sum : memref<f32>)
  linalg.generic {indexing_maps = [#c, #s, #s], iterator_types = ["reduction"]}
      ins(%x, %max : memref<2048xf32>, memref<f32>) outs(%sum : memref<f32>) {
  ^bb0(%in: f32, %m: f32, %acc: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %a = arith.addf %e, %acc : f32
    linalg.yield %a : f32
  }
  %row = memref.subview %y[1, 0] [1, 2048] [1, 1] : memref<2x2048xf32> to memref<1x2048xf32, strided<[2048, 1], offset: 2048>>
  %flat = memref.collapse_shape %row [[0, 1]] : memref<1x2048xf32, strided<[2048, 1], offset: 2048>> into memref<2048xf32, strided<[1], offset: 2048>>
  linalg.generic {indexing_maps = [#c, #s, #s, #c], iterator_types = ["parallel"]}
      ins(%x, %max, %sum : memref<2048xf32>, memref<f32>, memref<f32>) outs(%flat : memref<2048xf32, strided<[1], offset: 2048>>) {
  ^bb0(%in: f32, %m: f32, %t: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %e = math.exp %d : f32
    %q = arith.divf %e, %t : f32
    linalg.yield %q : f32
  }
  memref.dealloc %max : memref<f32>
  memref.dealloc %sum : memref<f32>
  return
}
