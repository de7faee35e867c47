// NCHW convolutions as PyTorch front ends write them, lowered channels-last
// by ke-lower-cpu: see channels-last.test.
func.func @strided_dilated(%x: tensor<2x3x17x19xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<2x8x7x5xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x7x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x7x5xf32>) -> tensor<2x8x7x5xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x17x19xf32>, tensor<8x3x3x3xf32>) outs(%init : tensor<2x8x7x5xf32>) -> tensor<2x8x7x5xf32>
  return %r : tensor<2x8x7x5xf32>
}

// 64 output channels (a 32-channel register tile), 13 pixels per tile, and
// a bias added after the convolution.
func.func @conv_bias(%x: tensor<1x16x9x15xf32>, %w: tensor<64x16x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x7x13xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x7x13xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x7x13xf32>) -> tensor<1x64x7x13xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x9x15xf32>, tensor<64x16x3x3xf32>) outs(%init : tensor<1x64x7x13xf32>) -> tensor<1x64x7x13xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, f, h, w) -> (n, f, h, w)>, affine_map<(n, f, h, w) -> (f)>, affine_map<(n, f, h, w) -> (n, f, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x64x7x13xf32>, tensor<64xf32>) outs(%e : tensor<1x64x7x13xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  } -> tensor<1x64x7x13xf32>
  return %r : tensor<1x64x7x13xf32>
}

// A strided, dilated 3-D convolution (NCDHW) with 32 output channels.
func.func @conv3d(%x: tensor<1x4x7x9x12xf32>, %w: tensor<32x4x3x3x3xf32>) -> tensor<1x32x5x3x8xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x5x3x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x5x3x8xf32>) -> tensor<1x32x5x3x8xf32>
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<[1, 1, 2]> : tensor<3xi64>, strides = dense<[1, 3, 1]> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x7x9x12xf32>, tensor<32x4x3x3x3xf32>) outs(%init : tensor<1x32x5x3x8xf32>) -> tensor<1x32x5x3x8xf32>
  return %r : tensor<1x32x5x3x8xf32>
}

// A depthwise convolution (NCHW input, CHW filter) with 32 channels, enough
// to go channels-last.
func.func @depthwise(%x: tensor<2x32x9x20xf32>, %w: tensor<32x3x5xf32>) -> tensor<2x32x7x16xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x7x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x7x16xf32>) -> tensor<2x32x7x16xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x32x9x20xf32>, tensor<32x3x5xf32>) outs(%init : tensor<2x32x7x16xf32>) -> tensor<2x32x7x16xf32>
  return %r : tensor<2x32x7x16xf32>
}

// A dilated 1-D convolution, large enough for the default's threads: 254
// pixels (2 x 127, tiles of 2) by 32 channels.
func.func @conv1d(%x: tensor<2x16x258xf32>, %w: tensor<32x16x3xf32>) -> tensor<2x32x254xf32> attributes {ke.kernel} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x32x254xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x254xf32>) -> tensor<2x32x254xf32>
  %r = linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<2x16x258xf32>, tensor<32x16x3xf32>) outs(%init : tensor<2x32x254xf32>) -> tensor<2x32x254xf32>
  return %r : tensor<2x32x254xf32>
}
