// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="math=approx; c=[] r=[1,8] v" print-script=true}))' 2>&1 | FileCheck %s --check-prefix=APPROX
// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,8] v" print-script=true}))' 2>&1 | FileCheck %s --check-prefix=EXACT
// The clamped-math guard is part of every script, before the
// approximations (see @elu below).
// APPROX: %guarded = transform.apply_registered_pass "ke-guard-clamped-math" to %func
// APPROX: transform.apply_registered_pass "ke-approximate-math" to %guarded
// APPROX-LABEL: func.func @softplus
// APPROX-NOT:     math.exp
// APPROX:         vector.transfer_write
func.func @softplus(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// ELU's exp(min(x, 0)) runs only for vectors with a negative lane,
// approximated there.
// APPROX-LABEL: func.func @elu
// APPROX:         scf.if
// APPROX-NOT:       math.exp
// APPROX:         } else {
// APPROX-NOT:       math.exp
// APPROX:           math.fma
// APPROX:         vector.transfer_write
// EXACT: transform.apply_registered_pass "ke-guard-clamped-math" to %func
// EXACT-NOT: "ke-approximate-math"
// EXACT-LABEL: func.func @elu
// EXACT:         scf.if
// EXACT:         } else {
// EXACT-NEXT:      math.exp {{.*}} : vector<1x8xf32>
func.func @elu(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %positive = arith.cmpf olt, %zero, %a : f32
    %clamped = arith.select %positive, %zero, %a : f32
    %y = math.exp %clamped : f32
    %ym1 = arith.subf %y, %one : f32
    linalg.yield %ym1 : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
