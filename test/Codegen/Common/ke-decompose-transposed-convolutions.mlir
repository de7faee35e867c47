// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-decompose-transposed-convolutions))' | FileCheck %s

// A 1-D transposed convolution with stride 2 and dilation 2 as torch-mlir
// writes it: the input spread into a zero fill at offset 3 with stride 2,
// then a dilated convolution. Output o reads spread[o + 2k] = x[(o + 2k -
// 3) / 2], a whole number only for odd o: the odd outputs are one dense
// convolution over x (padded by one on each side, dilation 1, all three
// taps), written with stride 2 from offset 1; the even ones keep the
// init's zeros.
// CHECK-LABEL: func.func @spread_1d
// CHECK:         %[[ZERO:.*]] = arith.constant 0.0
// CHECK:         %[[O:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x8x65xf32>)
// CHECK:         %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0, 1] high[0, 0, 1]
// CHECK:           tensor.yield %[[ZERO]]
// CHECK:         %[[READ:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 0] [2, 4, 34] [1, 1, 1]
// CHECK:         %[[TAPS:.*]] = tensor.extract_slice %arg1[0, 0, 0] [8, 4, 3] [1, 1, 1]
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8x32xf32>)
// CHECK:         %[[CONV:.*]] = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%[[READ]], %[[TAPS]] : tensor<2x4x34xf32>, tensor<8x4x3xf32>) outs(%[[INIT]] : tensor<2x8x32xf32>)
// CHECK:         %[[OUT:.*]] = tensor.insert_slice %[[CONV]] into %[[O]][0, 0, 1] [2, 8, 32] [1, 1, 2] : tensor<2x8x32xf32> into tensor<2x8x65xf32>
// CHECK-NOT:     linalg.conv_1d_ncw_fcw
// CHECK:         return %[[OUT]]
func.func @spread_1d(%x: tensor<2x4x32xf32>, %w: tensor<8x4x3xf32>) -> tensor<2x8x65xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x69xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x69xf32>) -> tensor<2x4x69xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 3] [2, 4, 32] [1, 1, 2] : tensor<2x4x32xf32> into tensor<2x4x69xf32>
  %oe = tensor.empty() : tensor<2x8x65xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x8x65xf32>) -> tensor<2x8x65xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
      ins(%spread, %w : tensor<2x4x69xf32>, tensor<8x4x3xf32>) outs(%o : tensor<2x8x65xf32>) -> tensor<2x8x65xf32>
  return %r : tensor<2x8x65xf32>
}

// -----

// Stride 2, dilation 1, offset 1 in 2-D with a bias: along each dimension
// the even outputs read tap 1 and the odd ones taps 0 and 2 (every other
// tap): four convolutions (1x1, 1x2, 2x1, 2x2 taps), each starting from
// the bias broadcast at its phase's shape. The phases write every output,
// so they are inserted into a new tensor, not over the whole bias.
// CHECK-LABEL: func.func @spread_2d_bias
// CHECK:         linalg.broadcast ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<2x8x31x31xf32>)
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<2x8x31x31xf32>
// CHECK:         tensor.extract_slice %arg1[0, 0, 1, 1] [8, 4, 1, 1] [1, 1, 2, 2]
// CHECK:         linalg.broadcast ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<2x8x16x16xf32>)
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} {{.*}} -> tensor<2x8x16x16xf32>
// CHECK:         %[[R0:.*]] = tensor.insert_slice %{{.*}} into %[[OUT]][0, 0, 0, 0] [2, 8, 16, 16] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %arg1[0, 0, 1, 0] [8, 4, 1, 2] [1, 1, 2, 2]
// CHECK:         %[[R1:.*]] = tensor.insert_slice %{{.*}} into %[[R0]][0, 0, 0, 1] [2, 8, 16, 15] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %arg1[0, 0, 0, 1] [8, 4, 2, 1] [1, 1, 2, 2]
// CHECK:         %[[R2:.*]] = tensor.insert_slice %{{.*}} into %[[R1]][0, 0, 1, 0] [2, 8, 15, 16] [1, 1, 2, 2]
// CHECK:         tensor.extract_slice %arg1[0, 0, 0, 0] [8, 4, 2, 2] [1, 1, 2, 2]
// CHECK:         linalg.broadcast ins(%arg2 : tensor<8xf32>) outs(%{{.*}} : tensor<2x8x15x15xf32>)
// CHECK:         %[[R3:.*]] = tensor.insert_slice %{{.*}} into %[[R2]][0, 0, 1, 1] [2, 8, 15, 15] [1, 1, 2, 2]
// CHECK:         return %[[R3]]
func.func @spread_2d_bias(%x: tensor<2x4x16x16xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<2x8x31x31xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x33x33xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x33x33xf32>) -> tensor<2x4x33x33xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1, 1] [2, 4, 16, 16] [1, 1, 2, 2] : tensor<2x4x16x16xf32> into tensor<2x4x33x33xf32>
  %oe = tensor.empty() : tensor<2x8x31x31xf32>
  %o = linalg.broadcast ins(%b : tensor<8xf32>) outs(%oe : tensor<2x8x31x31xf32>) dimensions = [0, 2, 3]
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%spread, %w : tensor<2x4x33x33xf32>, tensor<8x4x3x3xf32>) outs(%o : tensor<2x8x31x31xf32>) -> tensor<2x8x31x31xf32>
  return %r : tensor<2x8x31x31xf32>
}

// -----

// Plain padding (stride 1 everywhere) is left alone, and so is a spread
// into anything but zeros.
// CHECK-LABEL: func.func @not_spread
// CHECK-COUNT-2: linalg.conv_1d_ncw_fcw {dilations = dense<1>
// CHECK-NOT:     tensor.pad
func.func @not_spread(%x: tensor<2x4x32xf32>, %w: tensor<8x4x3xf32>) -> (tensor<2x8x34xf32>, tensor<2x8x63xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x4x36xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x36xf32>) -> tensor<2x4x36xf32>
  %padded = tensor.insert_slice %x into %z[0, 0, 2] [2, 4, 32] [1, 1, 1] : tensor<2x4x32xf32> into tensor<2x4x36xf32>
  %oe = tensor.empty() : tensor<2x8x34xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x8x34xf32>) -> tensor<2x8x34xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
      ins(%padded, %w : tensor<2x4x36xf32>, tensor<8x4x3xf32>) outs(%o : tensor<2x8x34xf32>) -> tensor<2x8x34xf32>
  %e1 = tensor.empty() : tensor<2x4x65xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e1 : tensor<2x4x65xf32>) -> tensor<2x4x65xf32>
  %spread = tensor.insert_slice %x into %ones[0, 0, 1] [2, 4, 32] [1, 1, 2] : tensor<2x4x32xf32> into tensor<2x4x65xf32>
  %oe1 = tensor.empty() : tensor<2x8x63xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%oe1 : tensor<2x8x63xf32>) -> tensor<2x8x63xf32>
  %r1 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
      ins(%spread, %w : tensor<2x4x65xf32>, tensor<8x4x3xf32>) outs(%o1 : tensor<2x8x63xf32>) -> tensor<2x8x63xf32>
  return %r, %r1 : tensor<2x8x34xf32>, tensor<2x8x63xf32>
}

// -----

// A grouped transposed convolution: torch-mlir splits the spread input's
// channels into groups (tensor.expand_shape after the insert). The phases
// split the same way, over the input itself with its channels split.
// CHECK-LABEL: func.func @spread_2d_grouped
// CHECK:         %[[GROUPED:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8]
// CHECK-COUNT-4: linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x{{[0-9]+}}x{{[0-9]+}}xf32>, tensor<2x3x2x{{[12]}}x{{[12]}}xf32>)
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 1, 1] [1, 2, 3, 7, 7] [1, 1, 1, 2, 2]
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @spread_2d_grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<2x3x2x3x3xf32>) -> tensor<1x2x3x15x15xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x17x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x17x17xf32>) -> tensor<1x4x17x17xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 2, 2] : tensor<1x4x8x8xf32> into tensor<1x4x17x17xf32>
  %grouped = tensor.expand_shape %spread [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 17, 17] : tensor<1x4x17x17xf32> into tensor<1x2x2x17x17xf32>
  %oe = tensor.empty() : tensor<1x2x3x15x15xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x3x15x15xf32>) -> tensor<1x2x3x15x15xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%grouped, %w : tensor<1x2x2x17x17xf32>, tensor<2x3x2x3x3xf32>) outs(%o : tensor<1x2x3x15x15xf32>) -> tensor<1x2x3x15x15xf32>
  return %r : tensor<1x2x3x15x15xf32>
}

// -----

// An init that is neither a fill nor a bias broadcast, with every phase
// computed: each phase starts from zero and adds the init's slice, and the
// phases go into a new tensor.
// CHECK-LABEL: func.func @spread_1d_init
// CHECK-SAME:    %[[INIT:[a-z0-9]+]]: tensor<2x8x33xf32>
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<2x8x33xf32>
// CHECK:         %[[I0:.*]] = tensor.extract_slice %[[INIT]][0, 0, 0] [2, 8, 17] [1, 1, 2]
// CHECK:         %[[SUM0:.*]] = linalg.generic {{.*}} ins(%[[I0]], %{{.*}} : tensor<2x8x17xf32>, tensor<2x8x17xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R0:.*]] = tensor.insert_slice %[[SUM0]] into %[[OUT]][0, 0, 0] [2, 8, 17] [1, 1, 2]
// CHECK:         tensor.extract_slice %[[INIT]][0, 0, 1] [2, 8, 16] [1, 1, 2]
// CHECK:         tensor.insert_slice %{{.*}} into %[[R0]][0, 0, 1] [2, 8, 16] [1, 1, 2]
func.func @spread_1d_init(%x: tensor<2x4x16xf32>, %w: tensor<8x4x3xf32>, %init: tensor<2x8x33xf32>) -> tensor<2x8x33xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x35xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x35xf32>) -> tensor<2x4x35xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 2] [2, 4, 16] [1, 1, 2] : tensor<2x4x16xf32> into tensor<2x4x35xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
      ins(%spread, %w : tensor<2x4x35xf32>, tensor<8x4x3xf32>) outs(%init : tensor<2x8x33xf32>) -> tensor<2x8x33xf32>
  return %r : tensor<2x8x33xf32>
}

// -----

// Phases that read past the input's end by different amounts share one
// pad, by the most any phase needs (one zero row and column here), each
// reading its window of it: the odd rows and columns read one past the
// end, the even ones do not.
// CHECK-LABEL: func.func @spread_2d_shared_pad
// CHECK:         %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK-NOT:     tensor.pad
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 2, 4, 5] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 2, 5, 4] [1, 1, 1, 1]
// CHECK:         tensor.extract_slice %[[PADDED]][0, 0, 0, 0] [1, 2, 5, 5] [1, 1, 1, 1]
// CHECK-NOT:     tensor.pad
func.func @spread_2d_shared_pad(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x10x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x10x10xf32>) -> tensor<1x2x10x10xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 2, 2] : tensor<1x2x4x4xf32> into tensor<1x2x10x10xf32>
  %oe = tensor.empty() : tensor<1x3x8x8xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%spread, %w : tensor<1x2x10x10xf32>, tensor<3x2x3x3xf32>) outs(%o : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %r : tensor<1x3x8x8xf32>
}

// -----

// A grouped 1-D convolution as torch-mlir writes the ones no named op
// covers (grouped 3-D ones): a generic reading the spread input with its
// channels split into groups (n, g, c, o + 2k), stride 2, offset 1,
// dilation 2. Only the odd outputs read nonzero inputs, through all three
// taps: one generic over the input itself, its map's dilation now 1; the
// even outputs keep the init's zeros.
// CHECK-DAG:   #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 + d5)>
// CHECK-LABEL: func.func @grouped_generic_1d
// CHECK:         %[[O:.*]] = linalg.fill {{.*}} -> tensor<1x2x3x13xf32>
// CHECK:         %[[GROUPS:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3]] output_shape [1, 2, 2, 8]
// CHECK:         %[[READ_SLICE:.*]] = tensor.extract_slice %[[GROUPS]][0, 0, 0, 0] [1, 2, 2, 8] [1, 1, 1, 1]
// CHECK:         %[[TAPS:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [2, 3, 2, 3] [1, 1, 1, 1]
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x6xf32>)
// CHECK:         %[[PHASE:.*]] = linalg.generic {indexing_maps = [#[[READ]], {{.*}}]
// CHECK-SAME:        ins(%[[READ_SLICE]], %[[TAPS]] : tensor<1x2x2x8xf32>, tensor<2x3x2x3xf32>) outs(%[[INIT]] : tensor<1x2x3x6xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[OUT:.*]] = tensor.insert_slice %[[PHASE]] into %[[O]][0, 0, 0, 1] [1, 2, 3, 6] [1, 1, 1, 2]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[OUT]]
#spread_read = affine_map<(n, g, f, o, c, k) -> (n, g, c, o + k * 2)>
#filter = affine_map<(n, g, f, o, c, k) -> (g, f, c, k)>
#output = affine_map<(n, g, f, o, c, k) -> (n, g, f, o)>
func.func @grouped_generic_1d(%x: tensor<1x4x8xf32>, %w: tensor<2x3x2x3xf32>) -> tensor<1x2x3x13xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x17xf32>) -> tensor<1x4x17xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1] [1, 4, 8] [1, 1, 2] : tensor<1x4x8xf32> into tensor<1x4x17xf32>
  %groups = tensor.expand_shape %spread [[0], [1, 2], [3]] output_shape [1, 2, 2, 17] : tensor<1x4x17xf32> into tensor<1x2x2x17xf32>
  %oe = tensor.empty() : tensor<1x2x3x13xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x3x13xf32>) -> tensor<1x2x3x13xf32>
  %r = linalg.generic {indexing_maps = [#spread_read, #filter, #output],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%groups, %w : tensor<1x2x2x17xf32>, tensor<2x3x2x3xf32>) outs(%o : tensor<1x2x3x13xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %m = arith.mulf %in, %wt : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x2x3x13xf32>
  return %r : tensor<1x2x3x13xf32>
}

// -----

// Generics whose zeros would count are left alone: a max over the spread
// input, and a product whose result is not accumulated; so is a strided
// read of the spread input (its phases mix).
// CHECK-LABEL: func.func @generic_not_convolution
// CHECK-COUNT-3: ins(%[[SPREAD:.*]], %arg1 : tensor<1x4x17xf32>, tensor<4x3xf32>)
func.func @generic_not_convolution(%x: tensor<1x4x8xf32>, %w: tensor<4x3xf32>) -> (tensor<1x4x15xf32>, tensor<1x4x15xf32>, tensor<1x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x17xf32>) -> tensor<1x4x17xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1] [1, 4, 8] [1, 1, 2] : tensor<1x4x8xf32> into tensor<1x4x17xf32>
  %oe = tensor.empty() : tensor<1x4x15xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x15xf32>) -> tensor<1x4x15xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(n, c, o, k) -> (n, c, o + k)>, affine_map<(n, c, o, k) -> (c, k)>, affine_map<(n, c, o, k) -> (n, c, o)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%spread, %w : tensor<1x4x17xf32>, tensor<4x3xf32>) outs(%o : tensor<1x4x15xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %m = arith.mulf %in, %wt : f32
    %s = arith.maximumf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x15xf32>
  %last = linalg.generic {indexing_maps = [affine_map<(n, c, o, k) -> (n, c, o + k)>, affine_map<(n, c, o, k) -> (c, k)>, affine_map<(n, c, o, k) -> (n, c, o)>],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%spread, %w : tensor<1x4x17xf32>, tensor<4x3xf32>) outs(%o : tensor<1x4x15xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %m = arith.mulf %in, %wt : f32
    linalg.yield %m : f32
  } -> tensor<1x4x15xf32>
  %oe2 = tensor.empty() : tensor<1x4x8xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%oe2 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %strided = linalg.generic {indexing_maps = [affine_map<(n, c, o, k) -> (n, c, o * 2 + k)>, affine_map<(n, c, o, k) -> (c, k)>, affine_map<(n, c, o, k) -> (n, c, o)>],
                             iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%spread, %w : tensor<1x4x17xf32>, tensor<4x3xf32>) outs(%o2 : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %m = arith.mulf %in, %wt : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8xf32>
  return %max, %last, %strided : tensor<1x4x15xf32>, tensor<1x4x15xf32>, tensor<1x4x8xf32>
}

// -----

// Also left alone: a body that reads the input through a function (exp(x)
// * w: exp(0) is 1, so the zeros count), a locally connected layer (its
// filter indexed by the output position too: a phase would read the wrong
// filter rows), and a spread f16 input accumulated in f32 (the phases
// would be made in the input's type).
// CHECK-LABEL: func.func @zeros_count_or_other_layouts
// CHECK-COUNT-2: ins(%{{.*}}, %arg1 : tensor<1x4x17xf32>, tensor<4x3xf32>)
// CHECK:         ins(%{{.*}}, %arg2 : tensor<1x4x17xf32>, tensor<4x15x3xf32>)
// CHECK:         linalg.conv_1d_ncw_fcw {{.*}} ins(%{{.*}}, %arg4 : tensor<1x4x17xf16>, tensor<4x4x3xf16>)
// CHECK-NOT:     tensor.pad
func.func @zeros_count_or_other_layouts(%x: tensor<1x4x8xf32>, %w: tensor<4x3xf32>, %local: tensor<4x15x3xf32>, %xh: tensor<1x4x8xf16>, %wh: tensor<4x4x3xf16>) -> (tensor<1x4x15xf32>, tensor<1x4x15xf32>, tensor<1x4x15xf32>, tensor<1x4x15xf32>) {
  %zero = arith.constant 0.0 : f32
  %zeroh = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x4x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x17xf32>) -> tensor<1x4x17xf32>
  %spread = tensor.insert_slice %x into %z[0, 0, 1] [1, 4, 8] [1, 1, 2] : tensor<1x4x8xf32> into tensor<1x4x17xf32>
  %oe = tensor.empty() : tensor<1x4x15xf32>
  %o = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x15xf32>) -> tensor<1x4x15xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(n, c, o, k) -> (n, c, o + k)>, affine_map<(n, c, o, k) -> (c, k)>, affine_map<(n, c, o, k) -> (n, c, o)>],
                         iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%spread, %w : tensor<1x4x17xf32>, tensor<4x3xf32>) outs(%o : tensor<1x4x15xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %ex = math.exp %in : f32
    %m = arith.mulf %ex, %wt : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x15xf32>
  %tanh = linalg.generic {indexing_maps = [affine_map<(n, c, o, k) -> (n, c, o + k)>, affine_map<(n, c, o, k) -> (c, k)>, affine_map<(n, c, o, k) -> (n, c, o)>],
                          iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%spread, %w : tensor<1x4x17xf32>, tensor<4x3xf32>) outs(%o : tensor<1x4x15xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %m = arith.mulf %in, %wt : f32
    %s = arith.addf %acc, %m : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<1x4x15xf32>
  %lc = linalg.generic {indexing_maps = [affine_map<(n, c, o, k) -> (n, c, o + k)>, affine_map<(n, c, o, k) -> (c, o, k)>, affine_map<(n, c, o, k) -> (n, c, o)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%spread, %local : tensor<1x4x17xf32>, tensor<4x15x3xf32>) outs(%o : tensor<1x4x15xf32>) {
  ^bb0(%in: f32, %wt: f32, %acc: f32):
    %m = arith.mulf %in, %wt : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x15xf32>
  %eh = tensor.empty() : tensor<1x4x17xf16>
  %zh = linalg.fill ins(%zeroh : f16) outs(%eh : tensor<1x4x17xf16>) -> tensor<1x4x17xf16>
  %spreadh = tensor.insert_slice %xh into %zh[0, 0, 1] [1, 4, 8] [1, 1, 2] : tensor<1x4x8xf16> into tensor<1x4x17xf16>
  %mixed = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>}
      ins(%spreadh, %wh : tensor<1x4x17xf16>, tensor<4x4x3xf16>) outs(%o : tensor<1x4x15xf32>) -> tensor<1x4x15xf32>
  return %exp, %tanh, %lc, %mixed : tensor<1x4x15xf32>, tensor<1x4x15xf32>, tensor<1x4x15xf32>, tensor<1x4x15xf32>
}
