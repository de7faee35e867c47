// A kernel with candidates: one correct, one wrong, one correct and faster.
ke.kernel @double target("cpu") {
  func.func @double(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %0 = arith.addf %x, %x : tensor<1024xf32>
    return %0 : tensor<1024xf32>
  }
  ke.candidate @mul by "library" status correct metrics {time_ns = 500.0 : f64} {
    func.func @payload(%x: tensor<1024xf32>) -> tensor<1024xf32> {
      %c = arith.constant dense<2.0> : tensor<1024xf32>
      %0 = arith.mulf %x, %c : tensor<1024xf32>
      return %0 : tensor<1024xf32>
    }
  }
  ke.candidate @square from @mul by "library" status unevaluated {
    func.func @payload(%x: tensor<1024xf32>) -> tensor<1024xf32> {
      %0 = arith.mulf %x, %x : tensor<1024xf32>
      return %0 : tensor<1024xf32>
    }
  }
  ke.candidate @fast from @mul by "library" status correct metrics {time_ns = 100.0 : f64} {
    func.func @payload(%x: tensor<1024xf32>) -> tensor<1024xf32> {
      %c = arith.constant dense<2.0> : tensor<1024xf32>
      %0 = arith.mulf %c, %x : tensor<1024xf32>
      return %0 : tensor<1024xf32>
    }
  }
}
