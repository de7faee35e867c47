// A schedule whose cache tiles run on threads (`p`) becomes scf.forall, and
// ke-lower-cpu turns that into OpenMP; ke-run loads the OpenMP runtime and
// the kernel is correct on two threads.
// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-apply-schedule{schedule="c=[] r=[1,16] v; c=[32,64,0] r=[4,16,1] v p"}))' -o %t.mlir
// RUN: FileCheck %s --check-prefix=FORALL --input-file=%t.mlir
// RUN: ke-opt %t.mlir --ke-lower-cpu=naive=true | FileCheck %s --check-prefix=OMP
// RUN: ke-run %t.mlir --reference %s --naive --threads 2 --check-only --json | FileCheck %s --check-prefix=RUN2

// FORALL: scf.forall (%{{.*}}, %{{.*}}) in (4, 2) shared_outs
// OMP: omp.parallel
// OMP: omp.wsloop
// RUN2: "correct":true,{{.*}}"threads":2
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> attributes {ke.kernel} {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// The default schedule threads large ops itself (ke-tile-and-vectorize's
// scf.forall), and the result is correct on two threads.
// RUN: ke-opt %s --ke-lower-cpu | FileCheck %s --check-prefix=OMP
// RUN: ke-run %s --threads 2 --check-only --json | FileCheck %s --check-prefix=RUN2
