// Candidates for test/Target/Inputs/vadd.mlir on a GPU host: a correct one,
// and one that carries the fault-injection marker (ke_test_wild_store), so
// that with KE_GPU_INJECT_FAULT=ke_test_wild_store its process faults on
// the device (an illegal address) as a miscompiled candidate would.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @split(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {ke.strategy = "two elementwise ops"} {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.add ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.mul ins(%s, %a : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}
func.func @wild(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {ke.strategy = "faults on the device"} {
  %e = tensor.empty() : tensor<16x64xf32>
  %s = linalg.add {ke_test_wild_store} ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m = linalg.mul ins(%s, %a : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %m : tensor<16x64xf32>
}
