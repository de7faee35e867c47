// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-guard-clamped-math))' | FileCheck %s

// ELU's exp(select(0 < x, 0, x)): when every lane is 0.0 (bit for bit) the
// result is exp(0) = 1, folded and splatted; otherwise the exp runs.
// CHECK-LABEL: func.func @elu_exp
// CHECK-SAME:    (%[[X:.*]]: vector<1x8xf32>)
// CHECK:         %[[CLAMPED:.*]] = arith.select
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[CLAMPED]] : vector<1x8xf32> to vector<1x8xi32>
// CHECK:         %[[ZERO_BITS:.*]] = arith.constant dense<0> : vector<1x8xi32>
// CHECK:         %[[EQUAL:.*]] = arith.cmpi eq, %[[BITS]], %[[ZERO_BITS]]
// CHECK:         %[[FLAT:.*]] = vector.shape_cast %[[EQUAL]] : vector<1x8xi1> to vector<8xi1>
// CHECK:         %[[ALL:.*]] = vector.reduction <and>, %[[FLAT]] : vector<8xi1> into i1
// CHECK:         %[[EXP:.*]] = scf.if %[[ALL]] -> (vector<1x8xf32>) {
// CHECK-NEXT:      %[[ONES:.*]] = arith.constant dense<1.000000e+00> : vector<1x8xf32>
// CHECK-NEXT:      scf.yield %[[ONES]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[SLOW:.*]] = math.exp %[[CLAMPED]] fastmath<afn> : vector<1x8xf32>
// CHECK-NEXT:      scf.yield %[[SLOW]]
// CHECK:         arith.subf %[[EXP]]
func.func @elu_exp(%x: vector<1x8xf32>) -> vector<1x8xf32> {
  %zero = arith.constant dense<0.0> : vector<1x8xf32>
  %one = arith.constant dense<1.0> : vector<1x8xf32>
  %positive = arith.cmpf olt, %zero, %x : vector<1x8xf32>
  %clamped = arith.select %positive, %zero, %x : vector<1x8xi1>, vector<1x8xf32>
  %e = math.exp %clamped fastmath<afn> : vector<1x8xf32>
  %em1 = arith.subf %e, %one : vector<1x8xf32>
  return %em1 : vector<1x8xf32>
}

// tanh(2) folds; the bits compared are 2.0's (0x40000000).
// CHECK-LABEL: func.func @tanh_of_max
// CHECK:         %[[MAX:.*]] = arith.maximumf
// CHECK:         arith.constant dense<1073741824> : vector<8xi32>
// CHECK:         scf.if
// CHECK-NEXT:      %[[IMAGE:.*]] = arith.constant dense<0.964027583> : vector<8xf32>
// CHECK-NEXT:      scf.yield %[[IMAGE]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      math.tanh %[[MAX]] : vector<8xf32>
func.func @tanh_of_max(%x: vector<8xf32>) -> vector<8xf32> {
  %two = arith.constant dense<2.0> : vector<8xf32>
  %max = arith.maximumf %two, %x : vector<8xf32>
  %t = math.tanh %max : vector<8xf32>
  return %t : vector<8xf32>
}

// cbrt does not fold: the scalar cbrt of the bound runs in the branch that
// needs it, splatted.
// CHECK-LABEL: func.func @cbrt_of_select
// CHECK:         scf.if
// CHECK-NEXT:      %[[BOUND:.*]] = arith.constant -8.000000e+00 : f32
// CHECK-NEXT:      %[[IMAGE:.*]] = math.cbrt %[[BOUND]] : f32
// CHECK-NEXT:      %[[SPLAT:.*]] = vector.broadcast %[[IMAGE]] : f32 to vector<8xf32>
// CHECK-NEXT:      scf.yield %[[SPLAT]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      math.cbrt %{{.*}} : vector<8xf32>
func.func @cbrt_of_select(%x: vector<8xf32>, %keep: vector<8xi1>) -> vector<8xf32> {
  %bound = arith.constant dense<-8.0> : vector<8xf32>
  %clamped = arith.select %keep, %x, %bound : vector<8xi1>, vector<8xf32>
  %c = math.cbrt %clamped : vector<8xf32>
  return %c : vector<8xf32>
}

// Left alone: a one-instruction op (sqrt), an operand that is not clamped,
// and scalars (the branch pays off across a vector's lanes).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     scf.if
// CHECK:         math.sqrt
// CHECK:         math.exp %{{.*}} : vector<8xf32>
// CHECK:         math.exp %{{.*}} : f32
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @left_alone(%x: vector<8xf32>, %y: f32) -> (vector<8xf32>, vector<8xf32>, f32) {
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %zero_scalar = arith.constant 0.0 : f32
  %min = arith.minimumf %x, %zero : vector<8xf32>
  %root = math.sqrt %min : vector<8xf32>
  %free = math.exp %x : vector<8xf32>
  %min_scalar = arith.minimumf %y, %zero_scalar : f32
  %scalar = math.exp %min_scalar : f32
  return %root, %free, %scalar : vector<8xf32>, vector<8xf32>, f32
}
