// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="math=approx; c=[] r=[1,8] v" print-script=true}))' 2>&1 | FileCheck %s --check-prefix=APPROX
// APPROX: transform.apply_registered_pass "ke-approximate-math" to %func
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
