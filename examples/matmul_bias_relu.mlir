// relu(A * B + bias) for f32 256x256x256 matmul, bias (256) broadcast along rows (small example).
//
// How to run: the function @matmul_bias_relu is tagged `ke.kernel`; hand this file to
// the ke optimizer like any kernel in bench/kernels/. To check that it lowers with
// upstream MLIR alone:
//   mlir-opt examples/matmul_bias_relu.mlir --linalg-generalize-named-ops \
//     --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
//     --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine \
//     --finalize-memref-to-llvm --convert-math-to-llvm --convert-math-to-libm \
//     --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts
// To execute it, add a caller (e.g. @main building constant inputs and printing the result with
// printMemrefF32) and run the lowered module with
//   mlir-runner -e main -entry-point-result=void -shared-libs=libmlir_runner_utils.so,libmlir_c_runner_utils.so
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_col = affine_map<(d0, d1) -> (d1)>
module {
  func.func @matmul_bias_relu(%A: tensor<256x256xf32>, %B: tensor<256x256xf32>, %bias: tensor<256xf32>) -> tensor<256x256xf32> attributes {ke.kernel} {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<256x256xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<256x256xf32>, tensor<256x256xf32>)
                        outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
    // Bias add: bias[j] broadcast along rows.
    %e1 = tensor.empty() : tensor<256x256xf32>
    %biased = linalg.generic {indexing_maps = [#map_id, #map_col, #map_id],
                              iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<256x256xf32>, tensor<256xf32>)
        outs(%e1 : tensor<256x256xf32>) {
    ^bb0(%x: f32, %b: f32, %out: f32):
      %s = arith.addf %x, %b : f32
      linalg.yield %s : f32
    } -> tensor<256x256xf32>
    // ReLU: max(x, 0).
    %e2 = tensor.empty() : tensor<256x256xf32>
    %relu = linalg.generic {indexing_maps = [#map_id, #map_id],
                            iterator_types = ["parallel", "parallel"]}
        ins(%biased : tensor<256x256xf32>)
        outs(%e2 : tensor<256x256xf32>) {
    ^bb0(%x: f32, %out: f32):
      %r = arith.maximumf %x, %zero : f32
      linalg.yield %r : f32
    } -> tensor<256x256xf32>
    return %relu : tensor<256x256xf32>
  }
}
