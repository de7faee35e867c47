// REQUIRES: x86-avx
// RUN: ke-opt %s --ke-lower-cpu | FileCheck %s
// RUN: ke-opt %s '--ke-lower-cpu=x86-transposes=false' | FileCheck %s --check-prefix=ELEMENTWISE
// RUN: ke-run %s --json --check-only --seeds=2 --threads=2 | FileCheck %s --check-prefix=CORRECT

// On an AVX host the transposing reads' 8 x 8 blocks are lowered with AVX's
// shuffle sequence (ke-lower-transposes-to-avx), blends as inline assembly;
// without it, element by element. Both against the naive loops.
// CHECK-LABEL: llvm.func @transpose
// CHECK:         llvm.inline_asm {{.*}}vblendps
// ELEMENTWISE-LABEL: llvm.func @transpose
// ELEMENTWISE-NOT:   llvm.inline_asm
// ELEMENTWISE:       llvm.return
// CORRECT: "correct":true,{{.*}}"kernel":"transpose"
func.func @transpose(%x: tensor<64x48xf32>) -> tensor<48x64xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<48x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x48xf32>) outs(%e : tensor<48x64xf32>) permutation = [1, 0]
  return %t : tensor<48x64xf32>
}
