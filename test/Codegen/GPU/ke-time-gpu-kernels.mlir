// RUN: ke-opt %s --split-input-file --ke-time-gpu-kernels | FileCheck %s
// RUN: ke-opt %s --split-input-file --ke-time-gpu-kernels=vendor=amd | FileCheck %s --check-prefix=AMD
// RUN: not ke-opt %s --split-input-file --ke-time-gpu-kernels=vendor=intel 2>&1 | FileCheck %s --check-prefix=VENDOR
// RUN: ke-opt %s --split-input-file --ke-time-gpu-kernels --verify-diagnostics -o /dev/null

// A profiled module (it has probes): each kernel gets a public timer global
// of two words; thread (0,0,0) of every block folds the global timer into
// word 0 (min) at entry and, after a barrier, into word 1 (max) at the end.
// Functions that are not kernels are left alone.

// CHECK-LABEL: gpu.module @kernels
// CHECK: memref.global "public" @__ke_timer_scale : memref<2xi64, #gpu.address_space<global>> = dense<0>
// CHECK: gpu.func @scale(
// CHECK-NEXT: %[[TIMER:.*]] = memref.get_global @__ke_timer_scale
// CHECK: %[[X:.*]] = gpu.thread_id x
// CHECK: arith.cmpi eq, %[[X]]
// CHECK: gpu.thread_id y
// CHECK: gpu.thread_id z
// CHECK: scf.if
// CHECK-NEXT: %[[START:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: memref.atomic_rmw minu %[[START]], %[[TIMER]][%{{.*}}]
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: %[[END:.*]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: memref.atomic_rmw maxu %[[END]], %[[TIMER]][%{{.*}}]
// CHECK: gpu.return
// CHECK: gpu.func @helper()
// CHECK-NEXT: gpu.return

// AMD-LABEL: gpu.func @scale(
// AMD: llvm.call_intrinsic "llvm.amdgcn.s.memrealtime"() : () -> i64
// AMD: memref.atomic_rmw minu
// AMD: llvm.call_intrinsic "llvm.amdgcn.s.memrealtime"() : () -> i64
// AMD: memref.atomic_rmw maxu

// VENDOR: ke-time-gpu-kernels: unknown vendor 'intel' (nvidia or amd)

module attributes {gpu.container_module} {
  func.func @host(%buffer: memref<256xf32>) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    ke.probe_start 0 "0:linalg.generic"
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%buffer : memref<256xf32>)
    ke.probe_stop 0
    return
  }
  gpu.module @kernels {
    gpu.func @scale(%buffer: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buffer[%i] : memref<256xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %buffer[%i] : memref<256xf32>
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
  }
}

// -----

// Without probes the module is what gets timed: untouched.
// CHECK-LABEL: gpu.module @untimed
// CHECK-NOT: __ke_timer
// CHECK-NOT: globaltimer
// CHECK: gpu.return

module attributes {gpu.container_module} {
  gpu.module @untimed {
    gpu.func @scale(%buffer: memref<256xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A barrier before one of several returns could deadlock: left untimed.
// CHECK-LABEL: gpu.module @branchy
// CHECK-NOT: gpu.barrier

module attributes {gpu.container_module} {
  func.func @host() {
    ke.probe_start 0 "0:scf.for"
    ke.probe_stop 0
    return
  }
  gpu.module @branchy {
    // expected-warning @+1 {{ke-time-gpu-kernels: kernel 'early' does not end in exactly one top-level return; left untimed}}
    gpu.func @early(%flag: i1) kernel {
      cf.cond_br %flag, ^done, ^more
    ^more:
      gpu.return
    ^done:
      gpu.return
    }
  }
}
