// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{chunk=16}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{chunk=64}))' | FileCheck %s --check-prefix=ONE
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-prefix-scans-for-gpu{chunk=0}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: ke-prefix-scans-for-gpu: chunk must be positive, got 0

// A cumsum over rows of 64 as torch-mlir writes it: six log-step steps
// (shifts 1 to 32). With chunks of 16: each row's 4 chunk totals (a
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
