// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-guard-asserts-for-gpu))' | FileCheck %s
// RUN: ke-opt %s --pass-pipeline='builtin.module(func.func(ke-guard-asserts-for-gpu,convert-parallel-loops-to-gpu))' | FileCheck %s --check-prefix=MAPPED

// An index check directly in a mapped parallel body (what a gather with
// torch-mlir's asserts becomes): guarded, and then the loop maps.
// CHECK-LABEL: func.func @checked_gather
// CHECK: scf.parallel
// CHECK: %[[BAD:.*]] = arith.xori %{{.*}}, %true
// CHECK: scf.if %[[BAD]] {
// CHECK: cf.assert %false{{.*}}, "index must be smaller than dim size"
// CHECK-NOT: cf.assert %{{.*}}, "index
// MAPPED-LABEL: func.func @checked_gather
// MAPPED-NOT: scf.parallel
// MAPPED: gpu.launch
// MAPPED: cf.assert
func.func @checked_gather(%labels: memref<64xi64>, %table: memref<64x32xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %label = memref.load %labels[%i] : memref<64xi64>
    %j = arith.index_cast %label : i64 to index
    %ok = arith.cmpi slt, %j, %c32 : index
    cf.assert %ok, "index must be smaller than dim size"
    %v = memref.load %table[%i, %j] : memref<64x32xf32>
    memref.store %v, %out[%i] : memref<64xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}

// Asserts outside parallel loops are left alone.
// CHECK-LABEL: func.func @host_assert
// CHECK-NEXT: cf.assert %arg0, "on the host"
func.func @host_assert(%ok: i1) {
  cf.assert %ok, "on the host"
  return
}
