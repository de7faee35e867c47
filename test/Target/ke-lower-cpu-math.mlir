// The default ke-lower-cpu approximates exp, expm1, tanh, erf, erfc and log
// with polynomials that vectorize (libm's calls do not; log's inputs are
// scaled out of the denormals first, and log(x * x) below meets them on the
// special-values seed); approximate-math=false keeps libm for all. ke-run checks the approximations against the naive
// reference (libm) on random inputs and on the special-values seed.
// RUN: ke-opt %s --ke-lower-cpu=elementwise-vector-width=8 | FileCheck %s --check-prefix=APPROX
// RUN: ke-opt %s --ke-lower-cpu="approximate-math=false elementwise-vector-width=8" | FileCheck %s --check-prefix=LIBM
// RUN: ke-run %s --check-only --json | FileCheck %s --check-prefix=EXEC

// Vector math stays an LLVM intrinsic (LLVM calls libm per element), erf
// and erfc become calls.
// APPROX-NOT: {{llvm.intr.(exp|expm1|tanh|log)|llvm.call @erf}}
// APPROX:     llvm.fmul {{.*}} : vector<8xf32>
// APPROX-NOT: {{llvm.intr.(exp|expm1|tanh|log)|llvm.call @erf}}
// LIBM-DAG:   llvm.intr.exp
// LIBM-DAG:   llvm.intr.tanh
// LIBM-DAG:   llvm.call @erff
// LIBM-DAG:   llvm.call @erfcf
// LIBM-DAG:   llvm.intr.log
// EXEC:       "correct":true
func.func @math_chain(%x: tensor<4096xf32>) -> tensor<4096xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4096xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 30.0 : f32
    %s = arith.mulf %in, %c : f32
    %a = math.exp %s : f32
    %b = math.expm1 %in : f32
    %t = math.tanh %s : f32
    %f = math.erf %in : f32
    %g = math.erfc %in : f32
    %sq = arith.mulf %in, %in : f32
    %l = math.log %sq : f32
    %1 = arith.addf %a, %b : f32
    %2 = arith.addf %1, %t : f32
    %3 = arith.addf %2, %f : f32
    %4 = arith.addf %3, %g : f32
    %5 = arith.addf %4, %l : f32
    linalg.yield %5 : f32
  } -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
