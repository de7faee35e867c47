// Prefix scans as front ends write them (log-step), run by ke-run against
// their naive lowering: see prefix-scans.test.

func.func @cumsum_rows(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<4x10xf32>
  %c0 = arith.constant dense<0.000000e+00> : tensor<4x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [4, 9] [1, 1] : tensor<4x10xf32> to tensor<4x9xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<4x1xf32>, tensor<4x9xf32>) -> tensor<4x10xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c1 = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [4, 8] [1, 1] : tensor<4x10xf32> to tensor<4x8xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<4x2xf32>, tensor<4x8xf32>) -> tensor<4x10xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c2 = arith.constant dense<0.000000e+00> : tensor<4x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [4, 6] [1, 1] : tensor<4x10xf32> to tensor<4x6xf32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<4x4xf32>, tensor<4x6xf32>) -> tensor<4x10xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  %c3 = arith.constant dense<0.000000e+00> : tensor<4x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [4, 2] [1, 1] : tensor<4x10xf32> to tensor<4x2xf32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<4x8xf32>, tensor<4x2xf32>) -> tensor<4x10xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<4x10xf32>, tensor<4x10xf32>) outs(%e : tensor<4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x10xf32>
  return %r3 : tensor<4x10xf32>
}

func.func @cumsum_long(%arg0: tensor<3x1000xf32>) -> tensor<3x1000xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<3x1000xf32>
  %c0 = arith.constant dense<0.000000e+00> : tensor<3x1xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [3, 999] [1, 1] : tensor<3x1000xf32> to tensor<3x999xf32>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<3x1xf32>, tensor<3x999xf32>) -> tensor<3x1000xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c1 = arith.constant dense<0.000000e+00> : tensor<3x2xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [3, 998] [1, 1] : tensor<3x1000xf32> to tensor<3x998xf32>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<3x2xf32>, tensor<3x998xf32>) -> tensor<3x1000xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c2 = arith.constant dense<0.000000e+00> : tensor<3x4xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [3, 996] [1, 1] : tensor<3x1000xf32> to tensor<3x996xf32>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<3x4xf32>, tensor<3x996xf32>) -> tensor<3x1000xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c3 = arith.constant dense<0.000000e+00> : tensor<3x8xf32>
  %s3 = tensor.extract_slice %r2[0, 0] [3, 992] [1, 1] : tensor<3x1000xf32> to tensor<3x992xf32>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<3x8xf32>, tensor<3x992xf32>) -> tensor<3x1000xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c4 = arith.constant dense<0.000000e+00> : tensor<3x16xf32>
  %s4 = tensor.extract_slice %r3[0, 0] [3, 984] [1, 1] : tensor<3x1000xf32> to tensor<3x984xf32>
  %k4 = tensor.concat dim(1) %c4, %s4 : (tensor<3x16xf32>, tensor<3x984xf32>) -> tensor<3x1000xf32>
  %r4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r3, %k4 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c5 = arith.constant dense<0.000000e+00> : tensor<3x32xf32>
  %s5 = tensor.extract_slice %r4[0, 0] [3, 968] [1, 1] : tensor<3x1000xf32> to tensor<3x968xf32>
  %k5 = tensor.concat dim(1) %c5, %s5 : (tensor<3x32xf32>, tensor<3x968xf32>) -> tensor<3x1000xf32>
  %r5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r4, %k5 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c6 = arith.constant dense<0.000000e+00> : tensor<3x64xf32>
  %s6 = tensor.extract_slice %r5[0, 0] [3, 936] [1, 1] : tensor<3x1000xf32> to tensor<3x936xf32>
  %k6 = tensor.concat dim(1) %c6, %s6 : (tensor<3x64xf32>, tensor<3x936xf32>) -> tensor<3x1000xf32>
  %r6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r5, %k6 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c7 = arith.constant dense<0.000000e+00> : tensor<3x128xf32>
  %s7 = tensor.extract_slice %r6[0, 0] [3, 872] [1, 1] : tensor<3x1000xf32> to tensor<3x872xf32>
  %k7 = tensor.concat dim(1) %c7, %s7 : (tensor<3x128xf32>, tensor<3x872xf32>) -> tensor<3x1000xf32>
  %r7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r6, %k7 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c8 = arith.constant dense<0.000000e+00> : tensor<3x256xf32>
  %s8 = tensor.extract_slice %r7[0, 0] [3, 744] [1, 1] : tensor<3x1000xf32> to tensor<3x744xf32>
  %k8 = tensor.concat dim(1) %c8, %s8 : (tensor<3x256xf32>, tensor<3x744xf32>) -> tensor<3x1000xf32>
  %r8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r7, %k8 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  %c9 = arith.constant dense<0.000000e+00> : tensor<3x512xf32>
  %s9 = tensor.extract_slice %r8[0, 0] [3, 488] [1, 1] : tensor<3x1000xf32> to tensor<3x488xf32>
  %k9 = tensor.concat dim(1) %c9, %s9 : (tensor<3x512xf32>, tensor<3x488xf32>) -> tensor<3x1000xf32>
  %r9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r8, %k9 : tensor<3x1000xf32>, tensor<3x1000xf32>) outs(%e : tensor<3x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<3x1000xf32>
  return %r9 : tensor<3x1000xf32>
}

func.func @cumprod_columns(%arg0: tensor<5x2x16xf32>) -> tensor<5x2x16xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<5x2x16xf32>
  %c0 = arith.constant dense<1.000000e+00> : tensor<1x2x16xf32>
  %s0 = tensor.extract_slice %arg0[0, 0, 0] [4, 2, 16] [1, 1, 1] : tensor<5x2x16xf32> to tensor<4x2x16xf32>
  %k0 = tensor.concat dim(0) %c0, %s0 : (tensor<1x2x16xf32>, tensor<4x2x16xf32>) -> tensor<5x2x16xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k0, %arg0 : tensor<5x2x16xf32>, tensor<5x2x16xf32>) outs(%e : tensor<5x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<5x2x16xf32>
  %c1 = arith.constant dense<1.000000e+00> : tensor<2x2x16xf32>
  %s1 = tensor.extract_slice %r0[0, 0, 0] [3, 2, 16] [1, 1, 1] : tensor<5x2x16xf32> to tensor<3x2x16xf32>
  %k1 = tensor.concat dim(0) %c1, %s1 : (tensor<2x2x16xf32>, tensor<3x2x16xf32>) -> tensor<5x2x16xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k1, %r0 : tensor<5x2x16xf32>, tensor<5x2x16xf32>) outs(%e : tensor<5x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<5x2x16xf32>
  %c2 = arith.constant dense<1.000000e+00> : tensor<4x2x16xf32>
  %s2 = tensor.extract_slice %r1[0, 0, 0] [1, 2, 16] [1, 1, 1] : tensor<5x2x16xf32> to tensor<1x2x16xf32>
  %k2 = tensor.concat dim(0) %c2, %s2 : (tensor<4x2x16xf32>, tensor<1x2x16xf32>) -> tensor<5x2x16xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k2, %r1 : tensor<5x2x16xf32>, tensor<5x2x16xf32>) outs(%e : tensor<5x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<5x2x16xf32>
  return %r2 : tensor<5x2x16xf32>
}

func.func @running_max(%arg0: tensor<6xi32>) -> tensor<6xi32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<6xi32>
  %c0 = arith.constant dense<-2147483648> : tensor<1xi32>
  %s0 = tensor.extract_slice %arg0[0] [5] [1] : tensor<6xi32> to tensor<5xi32>
  %k0 = tensor.concat dim(0) %c0, %s0 : (tensor<1xi32>, tensor<5xi32>) -> tensor<6xi32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%arg0, %k0 : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.maxsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<6xi32>
  %c1 = arith.constant dense<-2147483648> : tensor<2xi32>
  %s1 = tensor.extract_slice %r0[0] [4] [1] : tensor<6xi32> to tensor<4xi32>
  %k1 = tensor.concat dim(0) %c1, %s1 : (tensor<2xi32>, tensor<4xi32>) -> tensor<6xi32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r0, %k1 : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.maxsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<6xi32>
  %c2 = arith.constant dense<-2147483648> : tensor<4xi32>
  %s2 = tensor.extract_slice %r1[0] [2] [1] : tensor<6xi32> to tensor<2xi32>
  %k2 = tensor.concat dim(0) %c2, %s2 : (tensor<4xi32>, tensor<2xi32>) -> tensor<6xi32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r1, %k2 : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %v = arith.maxsi %a, %b : i32
    linalg.yield %v : i32
  } -> tensor<6xi32>
  return %r2 : tensor<6xi32>
}

func.func @running_min(%arg0: tensor<7x3xf32>) -> tensor<7x3xf32> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<7x3xf32>
  %c0 = arith.constant dense<0x7F800000> : tensor<1x3xf32>
  %s0 = tensor.extract_slice %arg0[0, 0] [6, 3] [1, 1] : tensor<7x3xf32> to tensor<6x3xf32>
  %k0 = tensor.concat dim(0) %c0, %s0 : (tensor<1x3xf32>, tensor<6x3xf32>) -> tensor<7x3xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<7x3xf32>, tensor<7x3xf32>) outs(%e : tensor<7x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.minimumf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<7x3xf32>
  %c1 = arith.constant dense<0x7F800000> : tensor<2x3xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [5, 3] [1, 1] : tensor<7x3xf32> to tensor<5x3xf32>
  %k1 = tensor.concat dim(0) %c1, %s1 : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<7x3xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<7x3xf32>, tensor<7x3xf32>) outs(%e : tensor<7x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.minimumf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<7x3xf32>
  %c2 = arith.constant dense<0x7F800000> : tensor<4x3xf32>
  %s2 = tensor.extract_slice %r1[0, 0] [3, 3] [1, 1] : tensor<7x3xf32> to tensor<3x3xf32>
  %k2 = tensor.concat dim(0) %c2, %s2 : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<7x3xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<7x3xf32>, tensor<7x3xf32>) outs(%e : tensor<7x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.minimumf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<7x3xf32>
  return %r2 : tensor<7x3xf32>
}

func.func @cumsum_f16(%arg0: tensor<3x40xf16>) -> tensor<3x40xf16> attributes {ke.kernel} {
  %e = tensor.empty() : tensor<3x40xf16>
  %c0 = arith.constant dense<0.000000e+00> : tensor<3x1xf16>
  %s0 = tensor.extract_slice %arg0[0, 0] [3, 39] [1, 1] : tensor<3x40xf16> to tensor<3x39xf16>
  %k0 = tensor.concat dim(1) %c0, %s0 : (tensor<3x1xf16>, tensor<3x39xf16>) -> tensor<3x40xf16>
  %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %k0 : tensor<3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<3x40xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<3x40xf16>
  %c1 = arith.constant dense<0.000000e+00> : tensor<3x2xf16>
  %s1 = tensor.extract_slice %r0[0, 0] [3, 38] [1, 1] : tensor<3x40xf16> to tensor<3x38xf16>
  %k1 = tensor.concat dim(1) %c1, %s1 : (tensor<3x2xf16>, tensor<3x38xf16>) -> tensor<3x40xf16>
  %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r0, %k1 : tensor<3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<3x40xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<3x40xf16>
  %c2 = arith.constant dense<0.000000e+00> : tensor<3x4xf16>
  %s2 = tensor.extract_slice %r1[0, 0] [3, 36] [1, 1] : tensor<3x40xf16> to tensor<3x36xf16>
  %k2 = tensor.concat dim(1) %c2, %s2 : (tensor<3x4xf16>, tensor<3x36xf16>) -> tensor<3x40xf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1, %k2 : tensor<3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<3x40xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<3x40xf16>
  %c3 = arith.constant dense<0.000000e+00> : tensor<3x8xf16>
  %s3 = tensor.extract_slice %r2[0, 0] [3, 32] [1, 1] : tensor<3x40xf16> to tensor<3x32xf16>
  %k3 = tensor.concat dim(1) %c3, %s3 : (tensor<3x8xf16>, tensor<3x32xf16>) -> tensor<3x40xf16>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r2, %k3 : tensor<3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<3x40xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<3x40xf16>
  %c4 = arith.constant dense<0.000000e+00> : tensor<3x16xf16>
  %s4 = tensor.extract_slice %r3[0, 0] [3, 24] [1, 1] : tensor<3x40xf16> to tensor<3x24xf16>
  %k4 = tensor.concat dim(1) %c4, %s4 : (tensor<3x16xf16>, tensor<3x24xf16>) -> tensor<3x40xf16>
  %r4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r3, %k4 : tensor<3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<3x40xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<3x40xf16>
  %c5 = arith.constant dense<0.000000e+00> : tensor<3x32xf16>
  %s5 = tensor.extract_slice %r4[0, 0] [3, 8] [1, 1] : tensor<3x40xf16> to tensor<3x8xf16>
  %k5 = tensor.concat dim(1) %c5, %s5 : (tensor<3x32xf16>, tensor<3x8xf16>) -> tensor<3x40xf16>
  %r5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r4, %k5 : tensor<3x40xf16>, tensor<3x40xf16>) outs(%e : tensor<3x40xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %v = arith.addf %a, %b : f16
    linalg.yield %v : f16
  } -> tensor<3x40xf16>
  return %r5 : tensor<3x40xf16>
}
