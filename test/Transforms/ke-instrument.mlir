// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-instrument))' | FileCheck %s
// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-instrument),ke-lower-probes)' | FileCheck %s --check-prefix=LOWERED
// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-instrument),ke-lower-probes{runtime=gpu})' | FileCheck %s --check-prefix=GPU
// RUN: not ke-opt %s --pass-pipeline='builtin.module(func.func(ke-instrument),ke-lower-probes{runtime=tpu})' 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-instrument,ke-instrument))' | FileCheck %s --check-prefix=ONCE
// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-instrument))' | ke-opt --ke-lower-cpu=naive=true | FileCheck %s --check-prefix=LLVM

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>) -> tensor<16x16xf32> attributes {ke.kernel} {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %l = scf.for %i = %c0 to %c16 step %c1 iter_args(%t = %m) -> tensor<16x16xf32> {
    scf.yield %t : tensor<16x16xf32>
  }
  return %l : tensor<16x16xf32>
}

// Every top-level linalg op and loop is bracketed, constants are not.
// CHECK-LABEL: func.func @k
// CHECK:         arith.constant
// CHECK:         tensor.empty
// CHECK-NEXT:    ke.probe_start 0 "0:linalg.fill"
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    ke.probe_stop 0
// CHECK-NEXT:    ke.probe_start 1 "1:linalg.matmul"
// CHECK-NEXT:    linalg.matmul
// CHECK-NEXT:    ke.probe_stop 1
// CHECK-NEXT:    ke.probe_start 2 "2:scf.for"
// CHECK-NEXT:    scf.for
// CHECK:         ke.probe_stop 2
// CHECK-NEXT:    return

// LOWERED:     func.func private @ke_probe_start(i64)
// LOWERED:     func.func private @ke_probe_stop(i64)
// LOWERED:     %[[ID:.*]] = arith.constant 1 : i64
// LOWERED-NEXT: call @ke_probe_start(%[[ID]]) : (i64) -> ()
// LOWERED-NEXT: linalg.matmul
// LOWERED-NOT: ke.probe

// On GPUs the host only marks the region its launches belong to.
// GPU:     func.func private @ke_gpu_probe_start(i64)
// GPU:     func.func private @ke_gpu_probe_stop(i64)
// GPU:     call @ke_gpu_probe_start(%{{.*}}) : (i64) -> ()
// GPU-NEXT: linalg.fill
// GPU-NEXT: arith.constant 0 : i64
// GPU-NEXT: call @ke_gpu_probe_stop(%{{.*}}) : (i64) -> ()

// RUNTIME: ke-lower-probes: unknown runtime 'tpu' (cpu or gpu)

// ONCE-COUNT-3: ke.probe_start
// ONCE-NOT:     ke.probe_start

// LLVM: llvm.func @ke_probe_start(i64)
// LLVM: llvm.call @ke_probe_start
// LLVM: llvm.call @ke_probe_stop
