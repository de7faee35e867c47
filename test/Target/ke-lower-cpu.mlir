// Elementwise ops take the host's widest vector by default: pinned here.
// RUN: ke-opt %s --ke-lower-cpu="elementwise-vector-width=8" | FileCheck %s --check-prefix=VECTOR
// RUN: ke-opt %s --ke-lower-cpu=naive=true | FileCheck %s --check-prefix=NAIVE
// RUN: ke-opt %s --ke-lower-cpu="vector-width=4 elementwise-vector-width=4" | FileCheck %s --check-prefix=WIDTH4
// RUN: ke-opt %s --ke-lower-cpu="elementwise-vector-width=16" | FileCheck %s --check-prefix=WIDE
// RUN: ke-opt %s --ke-lower-cpu | FileCheck %s --check-prefix=HOST
// RUN: ke-opt %s --ke-lower-cpu="naive=true reference-threads=3" | FileCheck %s --check-prefix=REFERENCE

// Both pipelines end in the LLVM dialect with no tensor, memref or linalg
// left; only the default one computes on vectors.
// VECTOR-LABEL: llvm.func @scale
// VECTOR:         llvm.fmul {{.*}} : vector<8xf32>
// VECTOR-NOT:     linalg.
// VECTOR-NOT:     memref.
// NAIVE-LABEL:  llvm.func @scale
// NAIVE-NOT:      vector<
// NAIVE:          llvm.fmul {{.*}} : f32
// NAIVE-NOT:      linalg.
// NAIVE-NOT:      memref.
// WIDTH4:         llvm.fmul {{.*}} : vector<4xf32>
// WIDE:           llvm.fmul {{.*}} : vector<16xf32>
// HOST:           llvm.fmul {{.*}} : vector<{{8|16}}xf32>
// The reference's independent elements on 3 OpenMP threads; plain naive
// loops (above) have no OpenMP region.
// NAIVE-NOT:      omp.parallel
// REFERENCE-LABEL: llvm.func @scale
// REFERENCE:       %[[THREADS:.*]] = llvm.mlir.constant(3 : i32) : i32
// REFERENCE:       omp.parallel num_threads(%[[THREADS]] : i32)
// REFERENCE:       omp.wsloop
// REFERENCE:       llvm.fmul {{.*}} : f32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
