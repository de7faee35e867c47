// RUN: ke-opt %s --ke-expand-constant-powers | FileCheck %s

// Squares and cubes become multiplications, -1 and -2 a division, 0 and 1
// the constant and the base.
// CHECK-LABEL: func.func @integral
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[SQUARED:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[CUBE:.*]] = arith.mulf %[[SQUARED]], %[[X]] : f32
// CHECK-NEXT:    %[[INVERSE:.*]] = arith.divf %[[ONE]], %[[X]] : f32
// CHECK-NEXT:    %[[SQUARED_AGAIN:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:    %[[INVERSE_SQUARE:.*]] = arith.divf %[[ONE]], %[[SQUARED_AGAIN]] : f32
// CHECK-NEXT:    return %[[ONE]], %[[X]], %[[SQUARE]], %[[CUBE]], %[[INVERSE]], %[[INVERSE_SQUARE]]
func.func @integral(%x: f32) -> (f32, f32, f32, f32, f32, f32) {
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %cm1 = arith.constant -1.0 : f32
  %cm2 = arith.constant -2.0 : f32
  %p0 = math.powf %x, %c0 : f32
  %p1 = math.powf %x, %c1 : f32
  %p2 = math.powf %x, %c2 : f32
  %p3 = math.powf %x, %c3 : f32
  %pm1 = math.powf %x, %cm1 : f32
  %pm2 = math.powf %x, %cm2 : f32
  return %p0, %p1, %p2, %p3, %pm1, %pm2 : f32, f32, f32, f32, f32, f32
}

// Square roots on vectors (splat exponents) keep pow's answers at -inf.
// CHECK-LABEL: func.func @roots
// CHECK-SAME:    (%[[V:.*]]: vector<8xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-DAG:     %[[INF:.*]] = arith.constant dense<0x7F800000> : vector<8xf32>
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK:         %[[SQRT:.*]] = math.sqrt %[[V]] : vector<8xf32>
// CHECK-NEXT:    %[[AT_INF:.*]] = arith.cmpf oeq, %[[V]], %[[NEGINF]] : vector<8xf32>
// CHECK-NEXT:    %[[ROOT:.*]] = arith.select %[[AT_INF]], %[[INF]], %[[SQRT]]
// CHECK-NEXT:    %[[RSQRT:.*]] = math.rsqrt %[[V]] : vector<8xf32>
// CHECK-NEXT:    %[[AT_INF_AGAIN:.*]] = arith.cmpf oeq, %[[V]], %[[NEGINF]] : vector<8xf32>
// CHECK-NEXT:    %[[INVERSE_ROOT:.*]] = arith.select %[[AT_INF_AGAIN]], %[[ZERO]], %[[RSQRT]]
// CHECK-NEXT:    return %[[ROOT]], %[[INVERSE_ROOT]]
func.func @roots(%v: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %half = arith.constant dense<0.5> : vector<8xf32>
  %minus_half = arith.constant dense<-0.5> : vector<8xf32>
  %s = math.powf %v, %half : vector<8xf32>
  %r = math.powf %v, %minus_half : vector<8xf32>
  return %s, %r : vector<8xf32>, vector<8xf32>
}

// Other and non-constant exponents stay libm's.
// CHECK-LABEL: func.func @kept
// CHECK:         math.powf %{{.*}}, %{{.*}} : f32
// CHECK:         math.powf %{{.*}}, %{{.*}} : f32
func.func @kept(%x: f32, %y: f32) -> (f32, f32) {
  %c = arith.constant 2.5 : f32
  %a = math.powf %x, %c : f32
  %b = math.powf %x, %y : f32
  return %a, %b : f32, f32
}

// torch-mlir's x.pow(2) with an integer exponent (math.fpowi, i64): the
// same products; a variable exponent is left alone.
// CHECK-LABEL: func.func @integer_exponents
// CHECK-SAME:    (%[[X:.*]]: f32, %[[N:.*]]: i64, %[[T:.*]]: tensor<4xf32>)
// CHECK:         %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:         %[[TENSOR_SQUARE:.*]] = arith.mulf %[[T]], %[[T]] : tensor<4xf32>
// CHECK:         %[[VARIABLE:.*]] = math.fpowi %[[X]], %[[N]] : f32, i64
// CHECK:         return %[[SQUARE]], %[[TENSOR_SQUARE]], %[[VARIABLE]]
func.func @integer_exponents(%x: f32, %n: i64, %t: tensor<4xf32>) -> (f32, tensor<4xf32>, f32) {
  %two = arith.constant 2 : i64
  %twos = arith.constant dense<2> : tensor<4xi64>
  %square = math.fpowi %x, %two : f32, i64
  %tensor_square = math.fpowi %t, %twos : tensor<4xf32>, tensor<4xi64>
  %variable = math.fpowi %x, %n : f32, i64
  return %square, %tensor_square, %variable : f32, tensor<4xf32>, f32
}
