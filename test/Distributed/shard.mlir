// RUN: matc-opt %s -split-input-file --matrix-shard='ranks=2 min-elements=64' | FileCheck %s

// A product of large matrices: the rows of the result are split, the left
// operand is read by rows and the right one whole; a large splat constant
// is split like a fill.
// CHECK: shard.grid @matc_grid(shape = 2) {sym_visibility = "private"}
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[REPL:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\]\]}}
// CHECK-DAG: %[[ROWS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[}}0]]
// CHECK: %[[A:.*]] = shard.shard %{{.*}} to %[[ROWS]] : tensor<16x16xf64>
// CHECK: %[[LHS:.*]] = shard.shard %[[A]] to %[[ROWS]] annotate_for_users
// CHECK-NEXT: %[[RHS:.*]] = shard.shard %[[A]] to %[[REPL]] annotate_for_users
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf64>
// CHECK-NEXT: %[[EA:.*]] = shard.shard %[[E]] to %[[ROWS]] : tensor<16x16xf64>
// CHECK-NEXT: %[[INIT:.*]] = shard.shard %[[EA]] to %[[ROWS]] annotate_for_users
// CHECK-NEXT: %[[C:.*]] = linalg.matmul ins(%[[LHS]], %[[RHS]] : {{.*}}) outs(%[[INIT]] : {{.*}})
// CHECK-NEXT: %[[CA:.*]] = shard.shard %[[C]] to %[[ROWS]] : tensor<16x16xf64>
// CHECK-NEXT: %[[P:.*]] = shard.shard %[[CA]] to %[[REPL]] annotate_for_users
// CHECK-NEXT: matrix.print %[[P]]
func.func @main() {
  %a = arith.constant dense<1.0> : tensor<16x16xf64>
  %e = tensor.empty() : tensor<16x16xf64>
  %c = linalg.matmul ins(%a, %a : tensor<16x16xf64>, tensor<16x16xf64>) outs(%e : tensor<16x16xf64>) -> tensor<16x16xf64>
  matrix.print %c : tensor<16x16xf64>
  return
}

// -----

// A small result of a split input: the reduction loop is split (each rank
// multiplies its rows), partitioning adds the partial products up. The
// left operand, a fill, is filled again by columns for it (each rank fills
// the columns that meet its rows) instead of being resharded.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[REPL:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\]\]}}
// CHECK-DAG: %[[ROWS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[}}0]]
// CHECK-DAG: %[[COLS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\], \[}}0]]
// CHECK: linalg.fill {{.*}} -> tensor<1x16xf64>
// CHECK: linalg.fill {{.*}} -> tensor<1x16xf64>
// CHECK: %[[XF:.*]] = linalg.fill {{.*}} -> tensor<1x16xf64>
// CHECK-NEXT: %[[XC:.*]] = shard.shard %[[XF]] to %[[COLS]] : tensor<1x16xf64>
// CHECK-NEXT: %[[X:.*]] = shard.shard %[[XC]] to %[[COLS]] annotate_for_users : tensor<1x16xf64>
// CHECK-NEXT: %[[A:.*]] = shard.shard %{{.*}} to %[[ROWS]] annotate_for_users : tensor<16x16xf64>
// CHECK-NEXT: %[[INIT:.*]] = shard.shard %{{.*}} to %[[REPL]] annotate_for_users : tensor<1x16xf64>
// CHECK-NEXT: %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[A]] : {{.*}}) outs(%[[INIT]] : {{.*}})
// CHECK: shard.shard %[[Y]] to %[[REPL]] : tensor<1x16xf64>
func.func @main() {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<16x16xf64>
  %a = linalg.fill ins(%one : f64) outs(%e : tensor<16x16xf64>) -> tensor<16x16xf64>
  %ex = tensor.empty() : tensor<1x16xf64>
  %x = linalg.fill ins(%one : f64) outs(%ex : tensor<1x16xf64>) -> tensor<1x16xf64>
  %z = linalg.fill ins(%zero : f64) outs(%ex : tensor<1x16xf64>) -> tensor<1x16xf64>
  %y = linalg.matmul ins(%x, %a : tensor<1x16xf64>, tensor<16x16xf64>) outs(%z : tensor<1x16xf64>) -> tensor<1x16xf64>
  matrix.print %y : tensor<1x16xf64>
  return
}

// -----

// A transposed read of a split matrix needs it by columns; matrices below
// min-elements (4 x 4) stay replicated.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[REPL:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\]\]}}
// CHECK-DAG: %[[ROWS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[}}0]]
// CHECK-DAG: %[[COLS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\], \[}}0]]
// CHECK: %[[A:.*]] = shard.shard %{{.*}} to %[[ROWS]] : tensor<16x16xf64>
// CHECK: %[[IN:.*]] = shard.shard %[[A]] to %[[ROWS]] annotate_for_users : tensor<16x16xf64>
// CHECK-NEXT: %[[INT:.*]] = shard.shard %[[A]] to %[[COLS]] annotate_for_users : tensor<16x16xf64>
// CHECK: linalg.generic {{.*}} ins(%[[IN]], %[[INT]] :
// CHECK: %[[S:.*]] = linalg.fill {{.*}} -> tensor<4x4xf64>
// CHECK: shard.shard %[[S]] to %[[REPL]] : tensor<4x4xf64>
#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
func.func @main() {
  %one = arith.constant 1.0 : f64
  %a = arith.constant dense<2.0> : tensor<16x16xf64>
  %e = tensor.empty() : tensor<16x16xf64>
  %b = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %a : tensor<16x16xf64>, tensor<16x16xf64>) outs(%e : tensor<16x16xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<16x16xf64>
  matrix.print %b : tensor<16x16xf64>
  %es = tensor.empty() : tensor<4x4xf64>
  %small = linalg.fill ins(%one : f64) outs(%es : tensor<4x4xf64>) -> tensor<4x4xf64>
  matrix.print %small : tensor<4x4xf64>
  return
}

// -----

// `iota` split by rows reads the index of its rows from a replicated tensor
// of row numbers instead of linalg.index (which shard-partition would leave
// counting from 0 on every rank); the column index stays.
// CHECK-LABEL: func.func @main
// CHECK: %[[NUMBERS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16xi64>)
// CHECK:   %[[I:.*]] = linalg.index 0 : index
// CHECK:   %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:   linalg.yield %[[I64]] : i64
// CHECK: %[[N:.*]] = shard.shard %[[NUMBERS]] to %{{.*}} : tensor<16xi64>
// CHECK: %[[MINE:.*]] = shard.shard %[[N]] to %{{.*}} annotate_for_users : tensor<16xi64>
// CHECK: linalg.generic {indexing_maps = [#[[ROWMAP:.*]], #{{.*}}], {{.*}} ins(%[[MINE]] : tensor<16xi64>)
// CHECK: ^bb0(%[[ROW:.*]]: i64, %{{.*}}: f64):
// CHECK-NEXT: %[[R:.*]] = arith.index_cast %[[ROW]] : i64 to index
// CHECK-NOT: linalg.index 0
// CHECK: linalg.index 1
// CHECK: arith.muli %[[R]],
#id = affine_map<(i, j) -> (i, j)>
func.func @main() {
  %c16 = arith.constant 16 : index
  %e = tensor.empty() : tensor<16x16xf64>
  %iota = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x16xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %p = arith.muli %i, %c16 : index
    %q = arith.addi %p, %j : index
    %x = arith.index_castui %q : index to i64
    %f = arith.uitofp %x : i64 to f64
    linalg.yield %f : f64
  } -> tensor<16x16xf64>
  matrix.print %iota : tensor<16x16xf64>
  return
}

// -----

// A matrix literal becomes a read of a constant global (shard-partition
// cannot partition a non-splat constant); it and every other op without a
// rule run replicated. Rows not divisible by the ranks (9) stay replicated.
// CHECK: memref.global "private" constant @matc_literal : memref<2x2xf64> = dense<{{.*}}>
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[REPL:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\]\]}}
// CHECK: %[[G:.*]] = memref.get_global @matc_literal : memref<2x2xf64>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[G]] restrict : memref<2x2xf64> to tensor<2x2xf64>
// CHECK: %[[L:.*]] = shard.shard %[[T]] to %[[REPL]] : tensor<2x2xf64>
// CHECK: %[[P:.*]] = shard.shard %[[L]] to %[[REPL]] annotate_for_users : tensor<2x2xf64>
// CHECK: matrix.print %[[P]] : tensor<2x2xf64>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} -> tensor<9x16xf64>
// CHECK: shard.shard %[[F]] to %[[REPL]] : tensor<9x16xf64>
func.func @main() {
  %one = arith.constant 1.0 : f64
  %lit = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  matrix.print %lit : tensor<2x2xf64>
  %e = tensor.empty() : tensor<9x16xf64>
  %f = linalg.fill ins(%one : f64) outs(%e : tensor<9x16xf64>) -> tensor<9x16xf64>
  matrix.print %f : tensor<9x16xf64>
  return
}

// -----

// Each use of a tensor.empty gets an empty tensor of its own, in the layout
// of its user.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[REPL:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\]\]}}
// CHECK-DAG: %[[ROWS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[}}0]]
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<16x16xf64>
// CHECK: %[[S1:.*]] = shard.shard %[[E1]] to %[[ROWS]] : tensor<16x16xf64>
// CHECK: shard.shard %[[S1]] to %[[ROWS]] annotate_for_users
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<16x16xf64>
// CHECK: %[[S2:.*]] = shard.shard %[[E2]] to %[[REPL]] : tensor<16x16xf64>
// CHECK: shard.shard %[[S2]] to %[[REPL]] annotate_for_users
// CHECK-NOT: tensor.empty
func.func @main() {
  %one = arith.constant dense<1.0> : tensor<16x16xf64>
  %e = tensor.empty() : tensor<16x16xf64>
  %a = linalg.copy ins(%one : tensor<16x16xf64>) outs(%e : tensor<16x16xf64>) -> tensor<16x16xf64>
  %b = tensor.cast %e : tensor<16x16xf64> to tensor<16x16xf64>
  matrix.print %a : tensor<16x16xf64>
  matrix.print %b : tensor<16x16xf64>
  return
}

// -----

// A small product of a split matrix is computed split (its rows follow the
// split rows of A); its zero-filled init, small and so replicated, is
// filled again by rows for it instead of being resharded.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[REPL:.*]] = shard.sharding @matc_grid split_axes = {{\[\[\]\]}}
// CHECK-DAG: %[[ROWS:.*]] = shard.sharding @matc_grid split_axes = {{\[\[}}0]]
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<16x1xf64>
// CHECK-NEXT: shard.shard %[[Z]] to %[[REPL]] : tensor<16x1xf64>
// CHECK: %[[REFILL:.*]] = linalg.fill {{.*}} -> tensor<16x1xf64>
// CHECK-NEXT: %[[R:.*]] = shard.shard %[[REFILL]] to %[[ROWS]] : tensor<16x1xf64>
// CHECK-NEXT: %[[INIT:.*]] = shard.shard %[[R]] to %[[ROWS]] annotate_for_users : tensor<16x1xf64>
// CHECK-NEXT: %[[Y:.*]] = linalg.matmul ins({{.*}}) outs(%[[INIT]] : tensor<16x1xf64>)
// CHECK-NEXT: shard.shard %[[Y]] to %[[ROWS]] : tensor<16x1xf64>
func.func @main() {
  %zero = arith.constant 0.0 : f64
  %a = arith.constant dense<1.0> : tensor<16x16xf64>
  %x = arith.constant dense<2.0> : tensor<16x1xf64>
  %e = tensor.empty() : tensor<16x1xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<16x1xf64>) -> tensor<16x1xf64>
  %y = linalg.matmul ins(%a, %x : tensor<16x16xf64>, tensor<16x1xf64>) outs(%z : tensor<16x1xf64>) -> tensor<16x1xf64>
  matrix.print %y : tensor<16x1xf64>
  return
}

// -----

// Without a `main`, or with ranks = 1, nothing is annotated.
// CHECK-LABEL: func.func @f
// CHECK-NOT: shard.
func.func @f(%a: tensor<16x16xf64>) {
  matrix.print %a : tensor<16x16xf64>
  return
}
