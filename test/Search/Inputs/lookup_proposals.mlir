// Hand-written candidates for @lookup, served in order by proposer=file.

// 1. Correct: v + v instead of v * 2.
func.func @add_twice(%table: tensor<256xf32>, %ids: tensor<1024xi32>) -> tensor<1024xf32> attributes {ke.strategy = "add instead of multiply"} {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<1024xi32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%id: i32, %o: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<256xf32>
    %d = arith.addf %v, %v : f32
    linalg.yield %d : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// 2. Segfaults: the index is scaled far outside the table.
func.func @wild(%table: tensor<256xf32>, %ids: tensor<1024xi32>) -> tensor<1024xf32> attributes {ke.strategy = "out of bounds"} {
  %e = tensor.empty() : tensor<1024xf32>
  %big = arith.constant 1000000000 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<1024xi32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%id: i32, %o: f32):
    %i = arith.index_cast %id : i32 to index
    %j = arith.addi %i, %big : index
    %k = arith.muli %j, %big : index
    %v = tensor.extract %table[%k] : tensor<256xf32>
    linalg.yield %v : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// 3. Never terminates.
func.func @forever(%table: tensor<256xf32>, %ids: tensor<1024xi32>) -> tensor<1024xf32> attributes {ke.strategy = "infinite loop"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %n = scf.while (%i = %c0) : (index) -> index {
    scf.condition(%true) %i : index
  } do {
  ^bb0(%i: index):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  %v = tensor.extract %table[%n] : tensor<256xf32>
  %r = tensor.splat %v : tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// 4. Wrong: forgets to double.
func.func @wrong(%table: tensor<256xf32>, %ids: tensor<1024xi32>) -> tensor<1024xf32> attributes {ke.strategy = "forgets the factor"} {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%ids : tensor<1024xi32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%id: i32, %o: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<256xf32>
    linalg.yield %v : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

// 5. Does not even have the kernel's type.
func.func @mistyped(%table: tensor<256xf32>) -> tensor<256xf32> {
  return %table : tensor<256xf32>
}

// 6. Verifies, but does not lower for the CPU (a GPU-only op): caught
// in-process, before any ke-run is spent.
func.func @gpu_only(%table: tensor<256xf32>, %ids: tensor<1024xi32>) -> tensor<1024xf32> attributes {ke.strategy = "uses a gpu op"} {
  %t = gpu.thread_id x
  %v = tensor.extract %table[%t] : tensor<256xf32>
  %r = tensor.splat %v : tensor<1024xf32>
  return %r : tensor<1024xf32>
}
