// RUN: ke-opt %s -pass-pipeline='builtin.module(func.func(ke-warpgroup-contractions-for-gpu{min-blocks=1}))' | FileCheck %s

// x @ W.T as front ends write it: W copied transposed into a temporary
// that only the product reads. The product reads W along K itself; the
// copy, the temporary and its deallocation go.
// CHECK-LABEL: func.func @linear
// CHECK-NOT:     memref.alloc
// CHECK:         %[[W:.*]] = memref.cast %arg1
// CHECK:         nvgpu.tma.create.descriptor %[[W]] box[%c256{{.*}}, %c64{{.*}}]
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.dealloc
// A temporary that something else reads too keeps its copy, read N-major.
// CHECK-LABEL: func.func @linear_shared_transpose
// CHECK:         memref.alloc
// CHECK:         linalg.generic
// CHECK:         nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}]
// CHECK:         nvgpu.warpgroup.mma {{.*}} {transposeB}
// CHECK:         linalg.copy
#transposed = affine_map<(d0, d1) -> (d1, d0)>
#identity = affine_map<(d0, d1) -> (d0, d1)>
func.func @linear(%x: memref<256x512xbf16>, %w: memref<512x512xbf16>, %y: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %wt = memref.alloc() : memref<512x512xbf16>
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<512x512xbf16>) outs(%wt : memref<512x512xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<256x512xf32>)
  linalg.matmul ins(%x, %wt : memref<256x512xbf16>, memref<512x512xbf16>) outs(%y : memref<256x512xf32>)
  memref.dealloc %wt : memref<512x512xbf16>
  return
}
func.func @linear_shared_transpose(%x: memref<256x512xbf16>, %w: memref<512x512xbf16>, %y: memref<256x512xf32>, %copy: memref<512x512xbf16>) {
  %zero = arith.constant 0.0 : f32
  %wt = memref.alloc() : memref<512x512xbf16>
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<512x512xbf16>) outs(%wt : memref<512x512xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<256x512xf32>)
  linalg.matmul ins(%x, %wt : memref<256x512xbf16>, memref<512x512xbf16>) outs(%y : memref<256x512xf32>)
  linalg.copy ins(%wt : memref<512x512xbf16>) outs(%copy : memref<512x512xbf16>)
  memref.dealloc %wt : memref<512x512xbf16>
  return
}

// W written (through a view) between the copy and the product: the copy
// holds the old W, so the product keeps reading it, N-major.
// CHECK-LABEL: func.func @linear_weight_written_between
// CHECK:         memref.alloc
// CHECK:         linalg.generic
// CHECK:         linalg.fill
// CHECK:         nvgpu.tma.create.descriptor %{{.*}} box[%c64{{.*}}, %c64{{.*}}]
// CHECK:         nvgpu.warpgroup.mma {{.*}} {transposeB}
func.func @linear_weight_written_between(%x: memref<256x512xbf16>, %w: memref<512x512xbf16>, %y: memref<256x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : bf16
  %wt = memref.alloc() : memref<512x512xbf16>
  linalg.generic {indexing_maps = [#transposed, #identity], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<512x512xbf16>) outs(%wt : memref<512x512xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  }
  %row = memref.subview %w[0, 0] [1, 512] [1, 1] : memref<512x512xbf16> to memref<512xbf16, strided<[1]>>
  linalg.fill ins(%zero16 : bf16) outs(%row : memref<512xbf16, strided<[1]>>)
  linalg.fill ins(%zero : f32) outs(%y : memref<256x512xf32>)
  linalg.matmul ins(%x, %wt : memref<256x512xbf16>, memref<512x512xbf16>) outs(%y : memref<256x512xf32>)
  memref.dealloc %wt : memref<512x512xbf16>
  return
}
