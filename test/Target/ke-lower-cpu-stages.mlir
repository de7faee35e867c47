// RUN: ke-opt %s --ke-lower-cpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: ke-opt %s '--ke-lower-cpu=x86-transposes=false' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-X86
// RUN: ke-opt %s --ke-lower-riscv --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-X86
// RUN: ke-opt %s '--ke-lower-cpu=approximate-math=false' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT

// After the front-end cleanup: gathers' index operands read in the body,
// transposed weights read in place by products of a few rows, 16-bit
// contractions on f32 extensions of their inputs, long sums that no
// schedule splits accumulated in f64, sibling reductions merged, then row
// chains computed per chunk of rows.
// CHECK:      ke-extract-index-operands,
// CHECK-NEXT: ke-fold-transposes-into-thin-matmuls{any-f32-product=false most-rows=8},
// CHECK-NEXT: ke-widen-contraction-inputs,
// CHECK-NEXT: ke-widen-long-sums{least-terms=65536},
// CHECK-NEXT: ke-fuse-sibling-reductions,
// CHECK-NEXT: ke-fuse-row-chains{chunk-bytes=262144 least-chunks=8 min-bytes=1048576 whole-input-bytes=1048576},
// With approximate math (the default), shared divisors are inverted once
// before the math approximations; never without it.
// CHECK-NEXT: ke-divisions-to-reciprocals{min-reuse=8},
// CHECK-NEXT: ke-approximate-math{
// EXACT-NOT:  ke-divisions-to-reciprocals
// Masked products are cut to what their masks keep (ke-skip-masked-blocks),
// then broadcasts read through reshapes are folded, right before the
// schedule (ke-fold-reshapes-into-initializers).
// CHECK:      ke-skip-masked-blocks{blocks=4},
// CHECK-NEXT: ke-fold-reshapes-into-initializers,
// CHECK-NEXT: ke-pads-to-copies,
// CHECK:      convert-vector-to-scf{full-unroll=true
// The unrolled transfers' transposes are lowered to AVX shuffle sequences
// on an x86 host with AVX (ke-lower-cpu-transposes.mlir), never for RISC-V's
// code or with the option off.
// NO-X86:     convert-vector-to-scf{full-unroll=true
// NO-X86-NOT: ke-lower-transposes-to-avx
module {
}
