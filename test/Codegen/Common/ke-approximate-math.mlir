// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math))' | FileCheck %s

// CHECK-LABEL: func.func @exp_tanh
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.tanh
// CHECK:         arith.mulf {{.*}} : vector<8xf32>
// CHECK:         return
func.func @exp_tanh(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  %t = math.tanh %e : vector<8xf32>
  return %t : vector<8xf32>
}

// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math{ops=exp,erf}))' | FileCheck %s --check-prefix=SOME

// Only the ops named: exp and erf are approximated, tanh and log stay.
// SOME-LABEL: func.func @exp_tanh
// SOME-NOT:     math.exp
// SOME:         math.tanh
// SOME-LABEL: func.func @erf_log
// SOME-NOT:     math.erf
// SOME:         math.log {{.*}} : vector<8xf32>
// SOME-NOT:     math.erf
func.func @erf_log(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.erf %x : vector<8xf32>
  %l = math.log %e : vector<8xf32>
  return %l : vector<8xf32>
}

// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math{ops=log,log2}))' | FileCheck %s --check-prefix=LOG

// Positive denormals are scaled by 2^24 before the approximation (which
// reads the exponent field) and 24 log(2) is taken off after: log1p and
// other ops are left alone.
// LOG-LABEL: func.func @log_denormals
// LOG-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// LOG-DAG:     %[[MIN:.*]] = arith.constant dense<1.17549435E-38> : vector<8xf32>
// LOG-DAG:     %[[SCALE:.*]] = arith.constant dense<0x4B800000> : vector<8xf32>
// LOG-DAG:     %[[LN2X24:.*]] = arith.constant dense<16.6355324> : vector<8xf32>
// LOG:         %[[POSITIVE:.*]] = arith.cmpf ogt, %[[X:.*]], %[[ZERO]] : vector<8xf32>
// LOG:         %[[BELOW:.*]] = arith.cmpf olt, %[[X]], %[[MIN]] : vector<8xf32>
// LOG:         %[[DENORMAL:.*]] = arith.andi %[[POSITIVE]], %[[BELOW]]
// LOG:         %[[SCALED:.*]] = arith.mulf %[[X]], %[[SCALE]] : vector<8xf32>
// LOG:         arith.select %[[DENORMAL]], %[[SCALED]], %[[X]]
// LOG-NOT:     math.log {{.*}} : vector<8xf32>
// LOG:         %[[CORRECTED:.*]] = arith.subf %[[LOG:.*]], %[[LN2X24]] : vector<8xf32>
// LOG:         %[[RESULT:.*]] = arith.select %[[DENORMAL]], %[[CORRECTED]], %[[LOG]]
// LOG:         math.log1p %[[RESULT]]
// LOG-LABEL: func.func @log2_denormals
// LOG-DAG:     %[[TWENTYFOUR:.*]] = arith.constant 2.400000e+01 : f32
// LOG:         arith.subf %{{.*}}, %[[TWENTYFOUR]] : f32
// LOG-NOT:     math.log2
func.func @log_denormals(%x: vector<8xf32>) -> vector<8xf32> {
  %l = math.log %x : vector<8xf32>
  %p = math.log1p %l : vector<8xf32>
  return %p : vector<8xf32>
}
func.func @log2_denormals(%x: f32) -> f32 {
  %l = math.log2 %x : f32
  return %l : f32
}

// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math{ops=exp keep-clamped=true}))' | FileCheck %s --check-prefix=KEEP

// keep-clamped: the exp of min(x, 0) stays for ke-guard-clamped-math; the
// exp of x itself is approximated.
// KEEP-LABEL: func.func @clamped_and_free_exp
// KEEP:         %[[MIN:.*]] = arith.minimumf
// KEEP:         math.exp %[[MIN]] : vector<8xf32>
// KEEP-NOT:     math.exp
// KEEP:         return
func.func @clamped_and_free_exp(%x: vector<8xf32>) -> vector<8xf32> {
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %min = arith.minimumf %x, %zero : vector<8xf32>
  %clamped = math.exp %min : vector<8xf32>
  %free = math.exp %x : vector<8xf32>
  %sum = arith.addf %clamped, %free : vector<8xf32>
  return %sum : vector<8xf32>
}

// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-approximate-math{ops=erf}))' | FileCheck %s --check-prefix=ERF

// f32 erf is one rational function on x clamped to [-4, 4]: two
// NaN-preserving clamps, the numerator x P(x^2) (six fmas), the
// denominator Q(x^2) (four), one division, the quotient clamped to
// [-1, 1], and no interval selects. f16 is extended to f32 for it.
// ERF-LABEL: func.func @erf_rational
// ERF-DAG:     %[[FOUR:.*]] = arith.constant dense<4.000000e+00> : vector<8xf32>
// ERF-DAG:     %[[MINUSFOUR:.*]] = arith.constant dense<-4.000000e+00> : vector<8xf32>
// ERF-DAG:     %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<8xf32>
// ERF-DAG:     %[[MINUSONE:.*]] = arith.constant dense<-1.000000e+00> : vector<8xf32>
// ERF-DAG:     %[[TWOBYSQRTPI:.*]] = arith.constant dense<1.12837923> : vector<8xf32>
// ERF:         %[[ABOVE:.*]] = arith.cmpf ogt, %arg0, %[[FOUR]]
// ERF:         %[[X1:.*]] = arith.select %[[ABOVE]], %[[FOUR]], %arg0
// ERF:         %[[BELOW:.*]] = arith.cmpf olt, %[[X1]], %[[MINUSFOUR]]
// ERF:         %[[X:.*]] = arith.select %[[BELOW]], %[[MINUSFOUR]], %[[X1]]
// ERF:         %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]]
// ERF-COUNT-5: math.fma {{.*}}, %[[SQUARE]]
// ERF:         %[[P:.*]] = math.fma {{.*}}, %[[SQUARE]], %[[TWOBYSQRTPI]]
// ERF:         %[[NUMERATOR:.*]] = arith.mulf %[[P]], %[[X]]
// ERF-COUNT-4: math.fma {{.*}}, %[[SQUARE]]
// ERF-NEXT:    %[[QUOTIENT:.*]] = arith.divf %[[NUMERATOR]]
// ERF-NEXT:    %[[OVER:.*]] = arith.cmpf ogt, %[[QUOTIENT]], %[[ONE]]
// ERF-NEXT:    %[[Q1:.*]] = arith.select %[[OVER]], %[[ONE]], %[[QUOTIENT]]
// ERF-NEXT:    %[[UNDER:.*]] = arith.cmpf olt, %[[Q1]], %[[MINUSONE]]
// ERF-NEXT:    %[[ERF:.*]] = arith.select %[[UNDER]], %[[MINUSONE]], %[[Q1]]
// ERF-NOT:     arith.select
// ERF:         arith.extf %arg1 : vector<8xf16> to vector<8xf32>
// ERF-NOT:     math.erf
// ERF:         arith.divf
// ERF-COUNT-2: arith.select
// ERF-NEXT:    %[[HALF:.*]] = arith.truncf
// ERF:         return %[[ERF]], %[[HALF]]
func.func @erf_rational(%x: vector<8xf32>, %h: vector<8xf16>) -> (vector<8xf32>, vector<8xf16>) {
  %e = math.erf %x : vector<8xf32>
  %f = math.erf %h : vector<8xf16>
  return %e, %f : vector<8xf32>, vector<8xf16>
}
