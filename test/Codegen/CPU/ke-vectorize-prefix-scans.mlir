// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-vectorize-prefix-scans{vector-width=8}))' | FileCheck %s
// RUN: not ke-opt %s -pass-pipeline='builtin.module(func.func(ke-vectorize-prefix-scans{vector-width=0}))' 2>&1 | FileCheck %s --check-prefix=BADWIDTH

// BADWIDTH: ke-vectorize-prefix-scans: vector-width must be positive, got 0

// A cumsum along rows of 10 (shifts 1, 2, 4, 8): rows in parallel, 8
// elements at a time (the last vector masked), scanned in registers in 3
// shuffle steps, the running sum in f64.
// CHECK-LABEL: func.func @cumsum_rows
// CHECK-NOT:     tensor.concat
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall (%[[ROW:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[ROW]], 0] [1, 10] [1, 1] : tensor<4x10xf32> to tensor<10xf32>
// CHECK:           scf.for %[[AT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ROWOUT:.*]] = %[[SLICE]], %[[RUNNING:.*]] = %{{.*}}) -> (tensor<10xf32>, vector<8xf64>)
// CHECK:             %[[CHUNK:.*]] = vector.transfer_read %arg0[%[[ROW]], %[[AT]]], %{{.*}} : tensor<4x10xf32>, vector<8xf32>
// CHECK:             vector.shuffle %{{.*}}, %[[CHUNK]] [0, 8, 9, 10, 11, 12, 13, 14]
// CHECK:             vector.shuffle {{.*}} [0, 1, 8, 9, 10, 11, 12, 13]
// CHECK:             %[[SCANNED:.*]] = arith.addf
// CHECK:             vector.shuffle {{.*}} [0, 1, 2, 3, 8, 9, 10, 11]
// CHECK:             %[[INROW:.*]] = arith.addf
// CHECK:             %[[WIDE:.*]] = arith.extf %[[INROW]] : vector<8xf32> to vector<8xf64>
// CHECK:             %[[TOTAL:.*]] = arith.addf %[[WIDE]], %[[RUNNING]] : vector<8xf64>
// CHECK:             %[[NARROW:.*]] = arith.truncf %[[TOTAL]]
// CHECK:             %[[WRITTEN:.*]] = vector.transfer_write %[[NARROW]], %[[ROWOUT]][%[[AT]]] : vector<8xf32>, tensor<10xf32>
// CHECK:             %[[LAST:.*]] = vector.shuffle %[[TOTAL]], %[[TOTAL]] [7, 7, 7, 7, 7, 7, 7, 7]
// CHECK:             scf.yield %[[WRITTEN]], %[[LAST]]
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[ROW]], 0] [1, 10] [1, 1]
func.func @cumsum_rows(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %e = tensor.empty() : tensor<4x10xf32>
  %c0 = arith.constant dense<0.000000e+00> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [4, 9] [1, 1] : tensor<4x10xf32> to tensor<4x9xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xf32>, tensor<4x9xf32>) -> tensor<4x10xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c1 = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 8] [1, 1] : tensor<4x10xf32> to tensor<4x8xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c2 = arith.constant dense<0.000000e+00> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 6] [1, 1] : tensor<4x10xf32> to tensor<4x6xf32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x10xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c3 = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 2] [1, 1] : tensor<4x10xf32> to tensor<4x2xf32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  return %r3 : tensor<4x10xf32>
}

// -----

// A cumprod along the outer dimension, the shifted operand first: every
// (middle index, 8 columns) in parallel, sequential over the 5 rows, the
// running product in f64 and combined in the original operand order.
// CHECK-LABEL: func.func @cumprod_columns
// CHECK-NOT:     tensor.concat
// CHECK:         scf.forall (%[[MID:.*]], %[[COLS:.*]]) in (2, 2)
// CHECK:           tensor.extract_slice %{{.*}}[0, %[[MID]], %{{.*}}] [5, 1, 8] [1, 1, 1] : tensor<5x2x16xf32> to tensor<5x8xf32>
// CHECK:           scf.for %[[POS:.*]] = {{.*}} iter_args({{.*}}, %[[RUNNING:.*]] = %{{.*}}) -> (tensor<5x8xf32>, vector<8xf64>)
// CHECK:             %[[ROW:.*]] = vector.transfer_read %arg0[%[[POS]], %[[MID]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<5x2x16xf32>, vector<8xf32>
// CHECK:             %[[WIDE:.*]] = arith.extf %[[ROW]]
// CHECK:             arith.mulf %[[RUNNING]], %[[WIDE]] : vector<8xf64>
// CHECK-NOT:     linalg.generic
func.func @cumprod_columns(%arg0: tensor<5x2x16xf32>) -> tensor<5x2x16xf32> {
  %e = tensor.empty() : tensor<5x2x16xf32>
  %c0 = arith.constant dense<1.000000e+00> : tensor<1x2x16xf32>
  %s0 = tensor.extract_slice %arg0[0, 0, 0] [4, 2, 16] [1, 1, 1] : tensor<5x2x16xf32> to tensor<4x2x16xf32>
  %k0 = tensor.concat dim(0) %c0, %s0 : (tensor<1x2x16xf32>, tensor<4x2x16xf32>) -> tensor<5x2x16xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k0, %arg0 : tensor<5x2x16xf32>, tensor<5x2x16xf32>) outs(%e : tensor<5x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<5x2x16xf32>
  %c1 = arith.constant dense<1.000000e+00> : tensor<2x2x16xf32>
  %s1 = tensor.extract_slice %r0[0, 0, 0] [3, 2, 16] [1, 1, 1] : tensor<5x2x16xf32> to tensor<3x2x16xf32>
  %k1 = tensor.concat dim(0) %c1, %s1 : (tensor<2x2x16xf32>, tensor<3x2x16xf32>) -> tensor<5x2x16xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k1, %r0 : tensor<5x2x16xf32>, tensor<5x2x16xf32>) outs(%e : tensor<5x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<5x2x16xf32>
  %c2 = arith.constant dense<1.000000e+00> : tensor<4x2x16xf32>
  %s2 = tensor.extract_slice %r1[0, 0, 0] [1, 2, 16] [1, 1, 1] : tensor<5x2x16xf32> to tensor<1x2x16xf32>
  %k2 = tensor.concat dim(0) %c2, %s2 : (tensor<4x2x16xf32>, tensor<1x2x16xf32>) -> tensor<5x2x16xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k2, %r1 : tensor<5x2x16xf32>, tensor<5x2x16xf32>) outs(%e : tensor<5x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<5x2x16xf32>
  return %r2 : tensor<5x2x16xf32>
}

// -----

// A running maximum of integers over a 1-D tensor shorter than a vector:
// one masked vector, no loops, no widening.
// CHECK-LABEL: func.func @running_max
// CHECK-NOT:     scf.forall
// CHECK:         %[[V:.*]] = vector.transfer_read %arg0[%{{.*}}], %{{.*}} : tensor<6xi32>, vector<8xi32>
// CHECK:         arith.maxsi %[[V]], %{{.*}} : vector<8xi32>
// CHECK-NOT:     arith.extf
// CHECK:         vector.transfer_write {{.*}} : vector<8xi32>, tensor<6xi32>
// CHECK-NOT:     linalg.generic
func.func @running_max(%arg0: tensor<6xi32>) -> tensor<6xi32> {
  %e = tensor.empty() : tensor<6xi32>
  %c0 = arith.constant dense<-2147483648> : tensor<1xi32>
  %s0 = tensor.extract_slice %arg0[0] [5] [1] : tensor<6xi32> to tensor<5xi32>
  %k0 = tensor.concat dim(0) %c0, %s0 : (tensor<1xi32>, tensor<5xi32>) -> tensor<6xi32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %k0 : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.maxsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<6xi32>
  %c1 = arith.constant dense<-2147483648> : tensor<2xi32>
  %s1 = tensor.extract_slice %r0[0] [4] [1] : tensor<6xi32> to tensor<4xi32>
  %k1 = tensor.concat dim(0) %c1, %s1 : (tensor<2xi32>, tensor<4xi32>) -> tensor<6xi32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r0, %k1 : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.maxsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<6xi32>
  %c2 = arith.constant dense<-2147483648> : tensor<4xi32>
  %s2 = tensor.extract_slice %r1[0] [2] [1] : tensor<6xi32> to tensor<2xi32>
  %k2 = tensor.concat dim(0) %c2, %s2 : (tensor<4xi32>, tensor<2xi32>) -> tensor<6xi32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r1, %k2 : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.maxsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<6xi32>
  return %r2 : tensor<6xi32>
}

// -----

// Two steps of a length-10 scan are a windowed sum, not a scan: left alone.
// CHECK-LABEL: func.func @windowed_sum
// CHECK-COUNT-2: tensor.concat
// CHECK-NOT:     vector.
func.func @windowed_sum(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %e = tensor.empty() : tensor<4x10xf32>
  %c0 = arith.constant dense<0.000000e+00> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [4, 9] [1, 1] : tensor<4x10xf32> to tensor<4x9xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xf32>, tensor<4x9xf32>) -> tensor<4x10xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c1 = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 8] [1, 1] : tensor<4x10xf32> to tensor<4x8xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  return %r1 : tensor<4x10xf32>
}

// -----

// A fill that is not the sum's identity: left alone.
// CHECK-LABEL: func.func @wrong_fill
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     vector.
func.func @wrong_fill(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %e = tensor.empty() : tensor<4x10xf32>
  %c0 = arith.constant dense<1.000000e+00> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [4, 9] [1, 1] : tensor<4x10xf32> to tensor<4x9xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xf32>, tensor<4x9xf32>) -> tensor<4x10xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c1 = arith.constant dense<1.000000e+00> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 8] [1, 1] : tensor<4x10xf32> to tensor<4x8xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c2 = arith.constant dense<1.000000e+00> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 6] [1, 1] : tensor<4x10xf32> to tensor<4x6xf32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x10xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c3 = arith.constant dense<1.000000e+00> : tensor<4x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 2] [1, 1] : tensor<4x10xf32> to tensor<4x2xf32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  return %r3 : tensor<4x10xf32>
}

// -----

// An intermediate step that is also returned: left alone.
// CHECK-LABEL: func.func @shared_step
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     vector.
func.func @shared_step(%arg0: tensor<4x10xf32>) -> (tensor<4x10xf32>, tensor<4x10xf32>) {
  %e = tensor.empty() : tensor<4x10xf32>
  %c0 = arith.constant dense<0.000000e+00> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [4, 9] [1, 1] : tensor<4x10xf32> to tensor<4x9xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xf32>, tensor<4x9xf32>) -> tensor<4x10xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c1 = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 8] [1, 1] : tensor<4x10xf32> to tensor<4x8xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c2 = arith.constant dense<0.000000e+00> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 6] [1, 1] : tensor<4x10xf32> to tensor<4x6xf32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x10xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c3 = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 2] [1, 1] : tensor<4x10xf32> to tensor<4x2xf32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  return %r3, %r1 : tensor<4x10xf32>, tensor<4x10xf32>
}
