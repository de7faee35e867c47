// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-convolutions-to-channels-last{min-depthwise-channels=4}))' | FileCheck %s
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-convolutions-to-channels-last{min-depthwise-channels=4},cse))' | FileCheck %s --check-prefix=SHARED
// RUN: ke-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(ke-convolutions-to-channels-last))' | FileCheck %s --check-prefix=DEFAULT

// A strided, dilated NCHW convolution: the input to NHWC, the filter to
// HWCF, the init to NHWC (copies as generics, which elementwise fusion can
// merge with producers and consumers), the same strides and dilations, the
// result back to NCHW.
// CHECK-DAG:     #[[TO_NHWC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-DAG:     #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:     #[[TO_HWCF:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2, d0, d1)>
// CHECK-DAG:     #[[TO_NCHW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-LABEL: func.func @strided
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x17x19xf32>, %[[W:.*]]: tensor<8x3x3x3xf32>, %[[INIT:.*]]: tensor<2x8x7x5xf32>)
// CHECK:         %[[XT:.*]] = linalg.generic {indexing_maps = [#[[TO_NHWC]], #[[ID]]], {{.*}} ins(%[[X]] : tensor<2x3x17x19xf32>) outs(%{{.*}} : tensor<2x17x19x3xf32>)
// CHECK:         %[[WT:.*]] = linalg.generic {indexing_maps = [#[[TO_HWCF]], #[[ID]]], {{.*}} ins(%[[W]] : tensor<8x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x8xf32>)
// CHECK:         %[[IT:.*]] = linalg.generic {indexing_maps = [#[[TO_NHWC]], #[[ID]]], {{.*}} ins(%[[INIT]] : tensor<2x8x7x5xf32>) outs(%{{.*}} : tensor<2x7x5x8xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>} ins(%[[XT]], %[[WT]] : tensor<2x17x19x3xf32>, tensor<3x3x3x8xf32>) outs(%[[IT]] : tensor<2x7x5x8xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[TO_NCHW]], #[[ID]]], {{.*}} ins(%[[C]] : tensor<2x7x5x8xf32>) outs(%{{.*}} : tensor<2x8x7x5xf32>)
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @strided(%x: tensor<2x3x17x19xf32>, %w: tensor<8x3x3x3xf32>, %init: tensor<2x8x7x5xf32>) -> tensor<2x8x7x5xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x17x19xf32>, tensor<8x3x3x3xf32>) outs(%init : tensor<2x8x7x5xf32>) -> tensor<2x8x7x5xf32>
  return %r : tensor<2x8x7x5xf32>
}

// -----

// Channels-last convolutions are left as they are, and so is a convolution
// with dynamic shapes; a depthwise one becomes NHWC with an HWC filter.
// CHECK-DAG:     #[[TO_HWC:.*]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-LABEL: func.func @others
// CHECK:         linalg.conv_2d_nhwc_hwcf ins(%arg0, %arg1
// CHECK:         linalg.generic {indexing_maps = [#[[TO_HWC]], {{.*}} ins(%arg4 : tensor<4x3x3xf32>) outs(%{{.*}} : tensor<3x3x4xf32>)
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {{.*}} -> tensor<1x4x4x4xf32>
// CHECK:         linalg.conv_2d_nchw_fchw ins(%arg6, %arg7
// CHECK-NOT:     linalg.depthwise_conv_2d_nchw_chw
func.func @others(%x: tensor<1x6x6x4xf32>, %w: tensor<3x3x4x8xf32>, %init: tensor<1x4x4x8xf32>,
                  %dx: tensor<1x4x6x6xf32>, %dw: tensor<4x3x3xf32>, %dinit: tensor<1x4x4x4xf32>,
                  %yx: tensor<?x4x6x6xf32>, %yw: tensor<8x4x3x3xf32>, %yinit: tensor<?x8x4x4xf32>)
    -> (tensor<1x4x4x8xf32>, tensor<1x4x4x4xf32>, tensor<?x8x4x4xf32>) {
  %a = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x6x6x4xf32>, tensor<3x3x4x8xf32>) outs(%init : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %b = linalg.depthwise_conv_2d_nchw_chw ins(%dx, %dw : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%dinit : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%yx, %yw : tensor<?x4x6x6xf32>, tensor<8x4x3x3xf32>) outs(%yinit : tensor<?x8x4x4xf32>) -> tensor<?x8x4x4xf32>
  return %a, %b, %c : tensor<1x4x4x8xf32>, tensor<1x4x4x4xf32>, tensor<?x8x4x4xf32>
}

// -----

// A filled init is filled again channels-last, not transposed.
// CHECK-LABEL: func.func @filled
// CHECK:         %[[ZERO:.*]] = arith.constant 0.0
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x4x4x8xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<1x4x4x8xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[F]] : tensor<1x4x4x8xf32>)
func.func @filled(%x: tensor<1x3x6x6xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// A 3-D convolution (NCDHW, FCDHW) becomes an NDHWC, DHWCF one.
// CHECK-DAG:     #[[TO_NDHWC:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d1, d2, d3)>
// CHECK-DAG:     #[[TO_DHWCF:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d3, d0, d1, d2)>
// CHECK-DAG:     #[[TO_NCDHW:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4, d1)>
// CHECK-LABEL: func.func @conv3d
// CHECK:         linalg.generic {indexing_maps = [#[[TO_NDHWC]], {{.*}} outs(%{{.*}} : tensor<1x6x7x8x3xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[TO_DHWCF]], {{.*}} outs(%{{.*}} : tensor<3x3x3x3x4xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<[1, 2, 1]> : tensor<3xi64>} {{.*}} -> tensor<1x4x3x6x4xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[TO_NCDHW]], {{.*}} ins(%[[C]] {{.*}} outs(%{{.*}} : tensor<1x4x4x3x6xf32>)
// CHECK-NOT:     linalg.conv_3d_ncdhw_fcdhw
func.func @conv3d(%x: tensor<1x3x6x7x8xf32>, %w: tensor<4x3x3x3x3xf32>, %init: tensor<1x4x4x3x6xf32>) -> tensor<1x4x4x3x6xf32> {
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<[1, 2, 1]> : tensor<3xi64>}
      ins(%x, %w : tensor<1x3x6x7x8xf32>, tensor<4x3x3x3x3xf32>) outs(%init : tensor<1x4x4x3x6xf32>) -> tensor<1x4x4x3x6xf32>
  return %r : tensor<1x4x4x3x6xf32>
}

// -----

// A depthwise convolution with fewer channels than min-depthwise-channels
// keeps its layout (the transposes would cost more than they save).
// CHECK-LABEL: func.func @few_channels
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
func.func @few_channels(%x: tensor<1x2x6x6xf32>, %w: tensor<2x3x3xf32>, %init: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw ins(%x, %w : tensor<1x2x6x6xf32>, tensor<2x3x3xf32>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// -----

// By default no depthwise convolution goes channels-last, however many
// channels it has: ke-tile-and-vectorize vectorizes it along its width.
// DEFAULT-LABEL: func.func @many_channels
// DEFAULT-NOT:     linalg.generic
// DEFAULT:         linalg.depthwise_conv_2d_nchw_chw
func.func @many_channels(%x: tensor<1x64x6x6xf32>, %w: tensor<64x3x3xf32>, %init: tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw ins(%x, %w : tensor<1x64x6x6xf32>, tensor<64x3x3xf32>) outs(%init : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  return %r : tensor<1x64x4x4xf32>
}

// -----

// A 1-D convolution: NCW to NWC, the filter FCW to WCF, the result back.
// CHECK-DAG:     #[[NWC:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG:     #[[WCF:.*]] = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
// CHECK-LABEL: func.func @conv1d
// CHECK:         linalg.generic {indexing_maps = [#[[NWC]], {{.*}} outs(%{{.*}} : tensor<2x34x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[WCF]], {{.*}} outs(%{{.*}} : tensor<3x4x16xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_1d_nwc_wcf {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} {{.*}} -> tensor<2x30x16xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<2x30x16xf32>) outs(%{{.*}} : tensor<2x16x30xf32>)
// CHECK-NOT:     linalg.conv_1d_ncw_fcw
func.func @conv1d(%x: tensor<2x4x34xf32>, %w: tensor<16x4x3xf32>, %init: tensor<2x16x30xf32>) -> tensor<2x16x30xf32> {
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<2x4x34xf32>, tensor<16x4x3xf32>) outs(%init : tensor<2x16x30xf32>) -> tensor<2x16x30xf32>
  return %r : tensor<2x16x30xf32>
}

// -----

// A grouped convolution (2 groups, GFCHW filter) becomes one channels-last
// convolution per group, on the group's slices of the input and filter
// (its filled init filled again per group), each transposed back into its
// group's slice of one output tensor.
// CHECK-LABEL: func.func @grouped(
// CHECK-SAME:    %[[X:.*]]: tensor<1x2x3x6x8xf32>, %[[W:.*]]: tensor<2x4x3x3x3xf32>)
// CHECK:         linalg.fill {{.*}} -> tensor<1x2x4x4x4xf32>
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<1x2x4x4x4xf32>
// CHECK:         %[[S0:.*]] = tensor.extract_slice %[[OUT]][0, 0, 0, 0, 0] [1, 1, 4, 4, 4] [1, 1, 1, 1, 1] : tensor<1x2x4x4x4xf32> to tensor<1x4x4x4xf32>
// CHECK:         %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0, 0] [1, 1, 3, 6, 8] [1, 1, 1, 1, 1] : tensor<1x2x3x6x8xf32> to tensor<1x3x6x8xf32>
// CHECK:         %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0, 0] [1, 4, 3, 3, 3] [1, 1, 1, 1, 1] : tensor<2x4x3x3x3xf32> to tensor<4x3x3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[X0]] : tensor<1x3x6x8xf32>) outs(%{{.*}} : tensor<1x6x8x3xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[W0]] : tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x4xf32>)
// CHECK:         linalg.fill {{.*}} -> tensor<1x4x4x4xf32>
// CHECK:         %[[C0:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK:         %[[R0:.*]] = linalg.generic {{.*}} ins(%[[C0]] : tensor<1x4x4x4xf32>) outs(%[[S0]] : tensor<1x4x4x4xf32>)
// CHECK:         %[[I0:.*]] = tensor.insert_slice %[[R0]] into %[[OUT]][0, 0, 0, 0, 0] [1, 1, 4, 4, 4] [1, 1, 1, 1, 1]
// CHECK:         %[[S1:.*]] = tensor.extract_slice %[[I0]][0, 1, 0, 0, 0] [1, 1, 4, 4, 4]
// CHECK:         tensor.extract_slice %[[X]][0, 1, 0, 0, 0] [1, 1, 3, 6, 8]
// CHECK:         tensor.extract_slice %[[W]][1, 0, 0, 0, 0] [1, 4, 3, 3, 3]
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[R1:.*]] = linalg.generic {{.*}} ins(%[[C1]] : tensor<1x4x4x4xf32>) outs(%[[S1]] : tensor<1x4x4x4xf32>)
// CHECK:         %[[I1:.*]] = tensor.insert_slice %[[R1]] into %[[I0]][0, 1, 0, 0, 0] [1, 1, 4, 4, 4]
// CHECK:         return %[[I1]]
// CHECK-NOT:     linalg.conv_2d_ngchw_gfchw
func.func @grouped(%x: tensor<1x2x3x6x8xf32>, %w: tensor<2x4x3x3x3xf32>) -> tensor<1x2x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x3x6x8xf32>, tensor<2x4x3x3x3xf32>) outs(%init : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  return %r : tensor<1x2x4x4x4xf32>
}

// -----

// With an FGCHW filter the group is the filter's second dimension; an init
// that is not a fill is sliced per group and written in place. More groups
// than max-groups (here 16 < 17) stay grouped.
// CHECK-LABEL: func.func @grouped_fgchw
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x3x6x6xf32>, %[[W:.*]]: tensor<4x2x3x3x3xf32>, %[[INIT:.*]]: tensor<1x2x4x4x4xf32>
// CHECK:         tensor.extract_slice %[[INIT]][0, 0, 0, 0, 0] [1, 1, 4, 4, 4]
// CHECK:         tensor.extract_slice %[[W]][0, 0, 0, 0, 0] [4, 1, 3, 3, 3] [1, 1, 1, 1, 1] : tensor<4x2x3x3x3xf32> to tensor<4x3x3x3xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         tensor.insert_slice %{{.*}} into %[[INIT]][0, 0, 0, 0, 0]
// CHECK:         tensor.extract_slice %[[W]][0, 1, 0, 0, 0] [4, 1, 3, 3, 3]
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.conv_2d_ngchw_fgchw
// CHECK:         linalg.conv_2d_ngchw_gfchw {{.*}} -> tensor<1x17x1x4x4xf32>
func.func @grouped_fgchw(%x: tensor<1x2x3x6x6xf32>, %w: tensor<4x2x3x3x3xf32>, %init: tensor<1x2x4x4x4xf32>,
                         %mx: tensor<1x17x1x6x6xf32>, %mw: tensor<17x1x1x3x3xf32>, %minit: tensor<1x17x1x4x4xf32>)
    -> (tensor<1x2x4x4x4xf32>, tensor<1x17x1x4x4xf32>) {
  %r = linalg.conv_2d_ngchw_fgchw ins(%x, %w : tensor<1x2x3x6x6xf32>, tensor<4x2x3x3x3xf32>) outs(%init : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %m = linalg.conv_2d_ngchw_gfchw ins(%mx, %mw : tensor<1x17x1x6x6xf32>, tensor<17x1x1x3x3xf32>) outs(%minit : tensor<1x17x1x4x4xf32>) -> tensor<1x17x1x4x4xf32>
  return %r, %m : tensor<1x2x4x4x4xf32>, tensor<1x17x1x4x4xf32>
}

// -----

// Two convolutions over differently padded slices of one input (a
// transposed convolution's phases): the input is transposed once and the
// pads and slices are taken channels-last, so CSE shares the transpose.
// SHARED-LABEL: func.func @padded_phases
// SHARED-SAME:    %[[X:.*]]: tensor<1x4x6x6xf32>
// SHARED:         %[[XT:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>)
// SHARED:         %[[P0:.*]] = tensor.pad %[[XT]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// SHARED:         linalg.conv_2d_nhwc_hwcf{{.*}} ins(%[[P0]], %{{.*}} : tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.*}} : tensor<1x6x6x8xf32>)
// SHARED-NOT:     ins(%[[X]]
// SHARED:         %[[P1:.*]] = tensor.pad %[[XT]] low[0, 0, 1, 0] high[0, 1, 0, 0]
// SHARED:         %[[S1:.*]] = tensor.extract_slice %[[P1]][0, 1, 0, 0] [1, 6, 7, 4] [1, 1, 1, 1] : tensor<1x7x7x4xf32> to tensor<1x6x7x4xf32>
// SHARED:         linalg.conv_2d_nhwc_hwcf{{.*}} ins(%[[S1]], %{{.*}} : tensor<1x6x7x4xf32>, tensor<1x2x4x8xf32>)
// SHARED-NOT:     linalg.conv_2d_nchw_fchw
func.func @padded_phases(%x: tensor<1x4x6x6xf32>, %w0: tensor<8x4x3x3xf32>, %w1: tensor<8x4x1x2xf32>, %bias: tensor<8xf32>)
    -> (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %p0 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %b0 = linalg.broadcast ins(%bias : tensor<8xf32>) outs(%e : tensor<1x8x6x6xf32>) dimensions = [0, 2, 3]
  %r0 = linalg.conv_2d_nchw_fchw ins(%p0, %w0 : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%b0 : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %p1 = tensor.pad %x low[0, 0, 0, 1] high[0, 0, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x7x7xf32>
  %s1 = tensor.extract_slice %p1[0, 0, 1, 0] [1, 4, 6, 7] [1, 1, 1, 1] : tensor<1x4x7x7xf32> to tensor<1x4x6x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %r1 = linalg.conv_2d_nchw_fchw ins(%s1, %w1 : tensor<1x4x6x7xf32>, tensor<8x4x1x2xf32>) outs(%f : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %r0, %r1 : tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>
}

// -----

// The transposes go through pads and slices only where they can: a pad
// whose constant is made inside its region is re-made with a clone of it;
// a slice of a dynamically shaped tensor is transposed as it is.
// SHARED-LABEL: func.func @not_through
// SHARED:         %[[C:.*]] = arith.constant 1.0
// SHARED:         %[[XT:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x4x6x6xf32>)
// SHARED:         tensor.pad %[[XT]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// SHARED:           tensor.yield %[[C]]
// SHARED:         %[[S:.*]] = tensor.extract_slice %arg2[0, 0, 0, 0] [1, 4, 8, 8]
// SHARED:         linalg.generic {{.*}} ins(%[[S]] : tensor<1x4x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x4xf32>)
func.func @not_through(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32>, %dx: tensor<?x4x8x8xf32>, %b: tensor<8x6xf32>)
    -> (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) {
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    %one = arith.constant 1.0 : f32
    tensor.yield %one : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %bb = linalg.broadcast ins(%b : tensor<8x6xf32>) outs(%e : tensor<1x8x6x6xf32>) dimensions = [0, 2]
  %r0 = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%bb : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %s = tensor.extract_slice %dx[0, 0, 0, 0] [1, 4, 8, 8] [1, 1, 1, 1] : tensor<?x4x8x8xf32> to tensor<1x4x8x8xf32>
  %r1 = linalg.conv_2d_nchw_fchw ins(%s, %w : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%bb : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %r0, %r1 : tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>
}
