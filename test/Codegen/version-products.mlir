// RUN: matc-opt %s --split-input-file --matrix-version-products=max-elements=131072 | FileCheck %s
// RUN: matc-opt %s --split-input-file --matrix-version-products=max-elements=0 | FileCheck %s --check-prefix=OFF
// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 unpacked-rows-f64=8" | FileCheck %s --check-prefix=ROWS8

// Static shapes whose A and B fit (2 x 128 x 256 = 65536 elements): the
// product becomes a linalg.generic tagged for the unpacked schedule.
// CHECK-LABEL: func.func @small
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}attrs =  {matc.unpacked = "f32", matc.unpacked_long_k}
// OFF-LABEL: func.func @small
// OFF-NOT: matc.unpacked
func.func @small(%a: tensor<128x256xf32>, %b: tensor<256x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x128xf32>)
                     outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Too large (2 x 512 x 512 elements): left to the packed schedule.
// CHECK-LABEL: func.func @large
// CHECK-NOT: matc.unpacked
// CHECK-NOT: scf.if
func.func @large(%a: tensor<512x512xf64>, %b: tensor<512x512xf64>) -> tensor<512x512xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<512x512xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<512x512xf64>) -> tensor<512x512xf64>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf64>, tensor<512x512xf64>)
                     outs(%c : tensor<512x512xf64>) -> tensor<512x512xf64>
  return %r : tensor<512x512xf64>
}

// -----

// Run-time sizes: m k + k n elements against 131072, or at most 4 rows
// (M <= 4: B is read once either way, and packing copies it; a 1 x 1 @
// 1 x 400000 product took 292 ms packed, Zen 4, f64) or columns; the fill
// of C goes into both branches, on one destination made before the scf.if
// (numbered so that CSE keeps the destinations of products apart). First,
// a run-time N of 1, whatever K: the dot products of the rows of A with B
// cast to one column, C cast to M x 1 and filled there; the sizes' test in
// the other branch.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK-NOT: arith.andi
// CHECK: %[[R:.*]] = scf.if %[[ONE]] -> (tensor<?x?xf64>) {
// CHECK:   %[[COL:.*]] = tensor.cast %arg1 : tensor<?x?xf64> to tensor<?x1xf64>
// CHECK:   %[[OUT:.*]] = tensor.cast %{{.*}} : tensor<?x?xf64> to tensor<?x1xf64>
// CHECK:   %[[X:.*]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK:   %[[OUTV:.*]] = tensor.collapse_shape %[[OUT]]
// CHECK:   %[[FV:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[OUTV]] : tensor<?xf64>)
// CHECK:   %[[DOT:.*]] = linalg.generic {{.*}} ins(%arg0, %[[X]] : tensor<?x?xf64>, tensor<?xf64>) outs(%[[FV]] : tensor<?xf64>) attrs =  {matc.dot = "f64"}
// CHECK:   %[[DOTM:.*]] = tensor.expand_shape %[[DOT]] {{\[}}[0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf64> into tensor<?x1xf64>
// CHECK:   %[[DOTR:.*]] = tensor.cast %[[DOTM]] : tensor<?x1xf64> to tensor<?x?xf64>
// CHECK:   scf.yield %[[DOTR]]
// CHECK: } else {
// Then 2 to 8 columns of more than 8 rows (N <= 8, M > 8, K >= 32; fewer
// rows go to the register tiles, which read B in place or pack it once,
// where each block copies its columns transposed): in blocks of 4 columns of C (an scf.for,
// w = min(4, N - j) of them), each the dot products of A's rows with the
// block's columns of B transposed (the schedule's transposed copy, written
// into the first w rows of a block of B^T of 4 rows, zeroed once before
// the loop and carried through it), into 4 columns (zeroed per block), the
// first w copied into C's columns j .. j + w.
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[NF:.*]], %[[EIGHT]] : index
// CHECK: %[[MROWS:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[EIGHT_ROWS:.*]] = arith.constant 8 : index
// CHECK: %[[MANY_ROWS:.*]] = arith.cmpi ugt, %[[MROWS]], %[[EIGHT_ROWS]] : index
// CHECK: %[[FEW_MANY:.*]] = arith.andi %[[FEW]], %[[MANY_ROWS]] : i1
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %{{.*}}, %[[C32]] : index
// CHECK: %[[FEW_LONG:.*]] = arith.andi %[[FEW_MANY]], %[[LONG]] : i1
// CHECK: %[[COLS:.*]] = scf.if %[[FEW_LONG]] -> (tensor<?x?xf64>) {
// CHECK:   %[[BLOCK0:.*]] = linalg.fill {{.*}} -> tensor<4x?xf64>
// CHECK:   %[[PAD0:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xf64>
// CHECK:   %[[LOOP:.*]]:3 = scf.for %[[J:.*]] = %{{.*}} to %[[NF]] step %c4 iter_args(%[[C:.*]] = %{{.*}}, %[[BLOCK:.*]] = %[[BLOCK0]], %[[PAD:.*]] = %[[PAD0]])
// CHECK:     %[[W:.*]] = affine.min #{{.*}}(%[[J]])[%[[NF]]]
// CHECK:     %[[BJ:.*]] = tensor.extract_slice %arg1[0, %[[J]]] [%{{.*}}, %[[W]]] [1, 1]
// CHECK:     %[[ROWS:.*]] = tensor.extract_slice %[[BLOCK]][0, 0] [%[[W]], %{{.*}}] [1, 1]
// CHECK:     %[[BT:.*]] = linalg.generic {{.*}} ins(%[[BJ]] : tensor<?x?xf64>) outs(%[[ROWS]] : tensor<?x?xf64>) attrs =  {matc.transpose = "f64"}
// CHECK:     %[[NEXT:.*]] = tensor.insert_slice %[[BT]] into %[[BLOCK]][0, 0] [%[[W]], %{{.*}}] [1, 1] : tensor<?x?xf64> into tensor<4x?xf64>
// CHECK:     %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[PAD]] : tensor<?x4xf64>)
// CHECK:     %[[DC:.*]] = linalg.generic {{.*}} ins(%arg0, %[[NEXT]] : tensor<?x?xf64>, tensor<4x?xf64>) outs(%[[ZERO]] : tensor<?x4xf64>) attrs =  {matc.dot_columns = "f64"}
// CHECK:     %[[GOT:.*]] = tensor.extract_slice %[[DC]][0, 0] [%{{.*}}, %[[W]]] [1, 1]
// CHECK:     %[[TO:.*]] = tensor.extract_slice %[[C]][0, %[[J]]] [%{{.*}}, %[[W]]] [1, 1]
// CHECK:     %[[COPY:.*]] = linalg.copy ins(%[[GOT]] : tensor<?x?xf64>) outs(%[[TO]] : tensor<?x?xf64>)
// CHECK:     %[[CN:.*]] = tensor.insert_slice %[[COPY]] into %[[C]][0, %[[J]]]
// CHECK:     scf.yield %[[CN]], %[[NEXT]], %[[DC]]
// CHECK:   scf.yield %[[LOOP]]#0
// CHECK: } else {
// Then a run-time M of 1 (B in place, whatever K): A cast to one row, the
// rows of B scaled by its elements (matc.vector_matrix on B, as for a
// static x @ b), C cast to 1 x N.
// CHECK: %[[ONEROW:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: %[[ROWR:.*]] = scf.if %[[ONEROW]] -> (tensor<?x?xf64>) {
// CHECK:   %[[AROW:.*]] = tensor.cast %arg0 : tensor<?x?xf64> to tensor<1x?xf64>
// CHECK:   %[[XV:.*]] = tensor.collapse_shape %[[AROW]] {{\[}}[0, 1]] : tensor<1x?xf64> into tensor<?xf64>
// CHECK:   linalg.generic {{.*}} ins(%[[XV]], %arg1 : tensor<?xf64>, tensor<?x?xf64>) {{.*}} attrs =  {matc.vector_matrix = "f64"}
// CHECK: } else {
// CHECK: %[[MK:.*]] = arith.muli %[[M:.*]], %[[K:.*]] : index
// CHECK: %[[KN:.*]] = arith.muli %[[K]], %[[N:.*]] : index
// CHECK: %[[SUM:.*]] = arith.addi %[[MK]], %[[KN]]
// CHECK: %[[LIMIT:.*]] = arith.constant 131072 : index
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %[[SUM]], %[[LIMIT]]
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[M]], %[[FOUR]]
// CHECK: %[[FITS_OR_FEW:.*]] = arith.ori %[[FITS]], %[[FEW]]
// CHECK: %[[FEW_N:.*]] = arith.cmpi ule, %[[N]], %[[FOUR]]
// CHECK: %[[SMALL:.*]] = arith.ori %[[FITS_OR_FEW]], %[[FEW_N]]
// With unpacked-rows-f64 = 8 (matc on AVX-512: min(MR, 8)), M == 8 is one
// register tile of rows, B read once in place: unpacked too.
// ROWS8-LABEL: func.func @dynamic
// ROWS8: %[[FOUR:.*]] = arith.constant 4 : index
// ROWS8: %[[FEW:.*]] = arith.cmpi ule, %[[M:.*]], %[[FOUR]]
// ROWS8: %[[FITS_OR_FEW:.*]] = arith.ori %{{.*}}, %[[FEW]]
// ROWS8: %[[EIGHT:.*]] = arith.constant 8 : index
// ROWS8: %[[TILE:.*]] = arith.cmpi eq, %[[M]], %[[EIGHT]]
// ROWS8: %[[ROWS:.*]] = arith.ori %[[FITS_OR_FEW]], %[[TILE]]
// ROWS8: %[[FEW_N:.*]] = arith.cmpi ule, %{{.*}}, %[[FOUR]]
// ROWS8: arith.ori %[[ROWS]], %[[FEW_N]]
// ROWS8: matc.unpacked = "f64"
// CHECK: %[[DEST:.*]] = tensor.empty({{.*}}) {matc.product = 0 : i64}
// CHECK: %[[SIZED:.*]] = scf.if %[[SMALL]] -> (tensor<?x?xf64>) {
// CHECK:   %[[F1:.*]] = linalg.fill {{.*}} outs(%[[DEST]] : tensor<?x?xf64>)
// CHECK:   %[[U:.*]] = linalg.generic {{.*}} outs(%[[F1]] : tensor<?x?xf64>) attrs =  {matc.unpacked = "f64", matc.unpacked_long_k}
// CHECK:   scf.yield %[[U]]
// CHECK: } else {
// CHECK:   %[[F2:.*]] = linalg.fill {{.*}} outs(%[[DEST]] : tensor<?x?xf64>)
// CHECK:   %[[P:.*]] = linalg.matmul ins({{.*}}) outs(%[[F2]] : tensor<?x?xf64>)
// CHECK:   scf.yield %[[P]]
// CHECK: scf.yield %[[SIZED]]
// CHECK: scf.yield %[[ROWR]]
// CHECK: scf.yield %[[COLS]]
// CHECK: return %[[R]]
func.func @dynamic(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
                     outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// -----

// At most 4 static rows (M = 3) with run-time K and N: unpacked, no
// packed version and no test of the sizes (only N = 1's); 5 rows get the
// test.
// CHECK-LABEL: func.func @few_rows
// CHECK: scf.if
// CHECK: matc.dot
// CHECK: } else {
// CHECK-NOT: scf.if
// CHECK: linalg.generic {{.*}} attrs =  {matc.unpacked = "f64", matc.unpacked_long_k}
// CHECK: scf.if
// CHECK: matc.dot
// CHECK: } else {
// CHECK: scf.if
// CHECK: return
func.func @few_rows(%a: tensor<3x?xf64>, %a5: tensor<5x?xf64>, %b: tensor<?x?xf64>)
    -> (tensor<3x?xf64>, tensor<5x?xf64>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%n) : tensor<3x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x?xf64>) -> tensor<3x?xf64>
  %r = linalg.matmul ins(%a, %b : tensor<3x?xf64>, tensor<?x?xf64>)
                     outs(%c : tensor<3x?xf64>) -> tensor<3x?xf64>
  %e5 = tensor.empty(%n) : tensor<5x?xf64>
  %c5 = linalg.fill ins(%zero : f64) outs(%e5 : tensor<5x?xf64>) -> tensor<5x?xf64>
  %r5 = linalg.matmul ins(%a5, %b : tensor<5x?xf64>, tensor<?x?xf64>)
                     outs(%c5 : tensor<5x?xf64>) -> tensor<5x?xf64>
  return %r, %r5 : tensor<3x?xf64>, tensor<5x?xf64>
}

// -----

// A matrix-vector product (N = 1, A and B not transposed), whatever its
// size: no scf.if, no packed version. B and C are collapsed to vectors (no
// copies), the product becomes a 2-D linalg.generic (m parallel, k
// reduction, multiply-adds that LLVM may contract) tagged for the
// schedule's dot products, and its result is expanded back to M x 1. The
// old fill of C is gone.
// CHECK-DAG: #[[$MK:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$K:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$M:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @matrix_vector
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[V:.*]]: tensor<?x1xf64>)
// CHECK-NOT: scf.if
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: %[[X:.*]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK: %[[EC:.*]] = tensor.collapse_shape %[[E]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[EC]] : tensor<?xf64>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[$MK]], #[[$K]], #[[$M]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[A]], %[[X]] : tensor<?x?xf64>, tensor<?xf64>) outs(%[[F]] : tensor<?xf64>) attrs =  {matc.dot = "f64"}
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f64
// CHECK: %[[R:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf64> into tensor<?x1xf64>
// CHECK-NOT: linalg.fill
// CHECK: return %[[R]]
// OFF-LABEL: func.func @matrix_vector
// OFF: linalg.matmul
func.func @matrix_vector(%a: tensor<?x?xf64>, %v: tensor<?x1xf64>) -> tensor<?x1xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%m) : tensor<?x1xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x1xf64>) -> tensor<?x1xf64>
  %r = linalg.matmul ins(%a, %v : tensor<?x?xf64>, tensor<?x1xf64>)
                     outs(%c : tensor<?x1xf64>) -> tensor<?x1xf64>
  return %r : tensor<?x1xf64>
}

// -----

// A vector-matrix product, one row of C (M = 1, x @ b; x.T @ b with x
// read transposed): on x and C collapsed to vectors (no copies), a 2-D
// linalg.generic (l parallel over C, k reduction; x (k), B (k, l), C (l))
// tagged matc.vector_matrix, whatever the sizes (before: the packed
// product of run-time sizes, 0.05-0.13x NumPy at n = 1024 on Zen 4), its
// result expanded back to 1 x N; C keeps its fill. A run-time N of 1 (one
// element of C, a dot product of x and B) is tested first: x (x.T read
// transposed, K x 1, as the one row of a 1 x K matrix) times B cast to
// one column, tagged for the dot products.
// CHECK-DAG: #[[$VK:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$VKL:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$VL:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_vector_matrix
// CHECK-SAME: (%[[X:.*]]: tensor<1x?xf32>, %[[XT:.*]]: tensor<?x1xf32>, %[[B:.*]]: tensor<?x?xf32>
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<1x?xf32>) {
// CHECK:   %[[COL:.*]] = tensor.cast %[[B]] : tensor<?x?xf32> to tensor<?x1xf32>
// CHECK:   %[[XV:.*]] = tensor.collapse_shape %[[COL]]
// CHECK:   linalg.generic {{.*}} ins(%[[X]], %[[XV]] : tensor<1x?xf32>, tensor<?xf32>) outs(%{{.*}} : tensor<1xf32>) attrs =  {matc.dot = "f32"}
// CHECK: } else {
// CHECK: %[[V:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<1x?xf32> into tensor<?xf32>
// CHECK: %[[EC:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<1x?xf32> into tensor<?xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EC]] : tensor<?xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[$VK]], #[[$VKL]], #[[$VL]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[V]], %[[B]] : tensor<?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?xf32>) attrs =  {matc.vector_matrix = "f32"}
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: %[[RV:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [1, %{{.*}}] : tensor<?xf32> into tensor<1x?xf32>
// CHECK: scf.yield %[[RV]]
// CHECK: scf.if %{{.*}} -> (tensor<1x?xf32>) {
// CHECK:   %[[COL2:.*]] = tensor.cast %[[B]] : tensor<?x?xf32> to tensor<?x1xf32>
// CHECK:   %[[XTV:.*]] = tensor.collapse_shape %[[XT]] {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK:   %[[XTR:.*]] = tensor.expand_shape %[[XTV]] {{\[}}[0, 1]] output_shape [1, %{{.*}}] : tensor<?xf32> into tensor<1x?xf32>
// CHECK:   %[[XV2:.*]] = tensor.collapse_shape %[[COL2]]
// CHECK:   linalg.generic {{.*}} ins(%[[XTR]], %[[XV2]] : tensor<1x?xf32>, tensor<?xf32>) {{.*}} attrs =  {matc.dot = "f32"}
// CHECK: } else {
// CHECK: %[[VT:.*]] = tensor.collapse_shape %[[XT]] {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK: linalg.generic {{.*}} ins(%[[VT]], %[[B]] : tensor<?xf32>, tensor<?x?xf32>) {{.*}} attrs =  {matc.vector_matrix = "f32"}
// CHECK-NOT: linalg.matmul
// CHECK: return %[[R]]
// OFF-LABEL: func.func @row_vector_matrix
// OFF-COUNT-2: linalg.matmul
func.func @row_vector_matrix(%x: tensor<1x?xf32>, %xt: tensor<?x1xf32>, %b: tensor<?x?xf32>)
    -> (tensor<1x?xf32>, tensor<1x?xf32>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<1x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?xf32>) -> tensor<1x?xf32>
  %r = linalg.matmul ins(%x, %b : tensor<1x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<1x?xf32>) -> tensor<1x?xf32>
  %e2 = tensor.empty(%n) : tensor<1x?xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x?xf32>) -> tensor<1x?xf32>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%xt, %b : tensor<?x1xf32>, tensor<?x?xf32>)
         outs(%c2 : tensor<1x?xf32>) -> tensor<1x?xf32>
  return %r, %t : tensor<1x?xf32>, tensor<1x?xf32>
}

// -----

// One row of C from B read transposed (x @ b.T, x.T @ b.T): the dot
// products of the rows of B (N x K) with x, a matrix-vector product of B
// and x collapsed: the generic tagged matc.dot on B, its result expanded
// back to 1 x N. Before: the packed product of run-time sizes, 0.12x NumPy
// at n = 1024 (Zen 4, f64). A run-time N of 1 first: x times B's one row
// (1 x K read transposed) cast and collapsed, a single dot product.
// CHECK-DAG: #[[$DLK:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$DK:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$DL:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_dot_products
// CHECK-SAME: (%[[X:.*]]: tensor<1x?xf64>, %[[XT:.*]]: tensor<?x1xf64>, %[[B:.*]]: tensor<?x?xf64>
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (tensor<1x?xf64>) {
// CHECK:   %[[ROW:.*]] = tensor.cast %[[B]] : tensor<?x?xf64> to tensor<1x?xf64>
// CHECK:   %[[BV:.*]] = tensor.collapse_shape %[[ROW]] {{\[}}[0, 1]] : tensor<1x?xf64> into tensor<?xf64>
// CHECK:   linalg.generic {{.*}} ins(%[[X]], %[[BV]] : tensor<1x?xf64>, tensor<?xf64>) {{.*}} attrs =  {matc.dot = "f64"}
// CHECK: } else {
// CHECK: %[[V:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<1x?xf64> into tensor<?xf64>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<?xf64>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[$DLK]], #[[$DK]], #[[$DL]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[B]], %[[V]] : tensor<?x?xf64>, tensor<?xf64>) outs(%[[F]] : tensor<?xf64>) attrs =  {matc.dot = "f64"}
// CHECK: %[[RV:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [1, %{{.*}}] : tensor<?xf64> into tensor<1x?xf64>
// CHECK: scf.yield %[[RV]]
// CHECK: } else {
// CHECK: %[[VT:.*]] = tensor.collapse_shape %[[XT]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK: linalg.generic {{.*}} ins(%[[B]], %[[VT]] : tensor<?x?xf64>, tensor<?xf64>) {{.*}} attrs =  {matc.dot = "f64"}
// CHECK-NOT: linalg.matmul
// CHECK: return %[[R]]
func.func @row_dot_products(%x: tensor<1x?xf64>, %xt: tensor<?x1xf64>, %b: tensor<?x?xf64>)
    -> (tensor<1x?xf64>, tensor<1x?xf64>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %b, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%n) : tensor<1x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<1x?xf64>) -> tensor<1x?xf64>
  %r = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %b : tensor<1x?xf64>, tensor<?x?xf64>)
         outs(%c : tensor<1x?xf64>) -> tensor<1x?xf64>
  %e2 = tensor.empty(%n) : tensor<1x?xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<1x?xf64>) -> tensor<1x?xf64>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%xt, %b : tensor<?x1xf64>, tensor<?x?xf64>)
         outs(%c2 : tensor<1x?xf64>) -> tensor<1x?xf64>
  return %r, %t : tensor<1x?xf64>, tensor<1x?xf64>
}

// -----

// A vector-matrix product, one column of C (N = 1 with A read transposed,
// a.T @ x): the rows of A scaled by x, the same generic on A (K x M), its
// result expanded back to M x 1. With B read transposed (x.T, one row in
// memory: not a vector-matrix product here), or a static N of at most 16
// (a tiny C or dot products), it is not one.
// (After the test of M == 1: one dot product, @one_dot_product_column.)
// CHECK-LABEL: func.func @column_vector_matrix
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[X:.*]]: tensor<?x1xf64>
// CHECK: %[[R:.*]] = scf.if
// CHECK: } else {
// CHECK: %[[V:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[V]], %[[A]] : tensor<?xf64>, tensor<?x?xf64>) {{.*}} attrs =  {matc.vector_matrix = "f64"}
// CHECK: %[[RV:.*]] = tensor.expand_shape %[[Y]] {{\[}}[0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf64> into tensor<?x1xf64>
// CHECK: scf.yield %[[RV]]
// CHECK: linalg.matmul
// CHECK-NOT: matc.vector_matrix
// CHECK: return %[[R]]
func.func @column_vector_matrix(%a: tensor<?x?xf64>, %x: tensor<?x1xf64>, %xr: tensor<1x?xf64>)
    -> (tensor<?x1xf64>, tensor<?x1xf64>) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m) : tensor<?x1xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x1xf64>) -> tensor<?x1xf64>
  %r = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %x : tensor<?x?xf64>, tensor<?x1xf64>)
         outs(%c : tensor<?x1xf64>) -> tensor<?x1xf64>
  %e2 = tensor.empty(%m) : tensor<?x1xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<?x1xf64>) -> tensor<?x1xf64>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %xr : tensor<?x?xf64>, tensor<1x?xf64>)
         outs(%c2 : tensor<?x1xf64>) -> tensor<?x1xf64>
  return %r, %t : tensor<?x1xf64>, tensor<?x1xf64>
}

// -----

// 2 to 7 static columns (here 3), K not tiny: dot products too, on a
// transposed copy of B (B^T 3 x K, tagged for the schedule's transposes),
// a 3-D linalg.generic (m, n parallel, k reduction) tagged
// matc.dot_columns; C keeps its fill.
// CHECK-DAG: #[[$T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$A3:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$B3:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$C3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @three_columns
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[B:.*]]: tensor<?x3xf64>)
// CHECK-NOT: scf.if
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[BT:.*]] = linalg.generic {indexing_maps = [#[[$T]], #{{.*}}], {{.*}} ins(%[[B]] : tensor<?x3xf64>) outs(%{{.*}} : tensor<3x?xf64>) attrs =  {matc.transpose = "f64"}
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$A3]], #[[$B3]], #[[$C3]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[A]], %[[BT]] : tensor<?x?xf64>, tensor<3x?xf64>) outs(%[[F]] : tensor<?x3xf64>) attrs =  {matc.dot_columns = "f64"}
// CHECK: return %[[R]]
func.func @three_columns(%a: tensor<?x?xf64>, %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%m) : tensor<?x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x3xf64>) -> tensor<?x3xf64>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x3xf64>)
                     outs(%c : tensor<?x3xf64>) -> tensor<?x3xf64>
  return %r : tensor<?x3xf64>
}

// -----

// A tiny C from a run-time k-range, A read transposed (a.T @ a): the plain
// loops with k outermost (a linalg.generic whose first dimension is the
// reduction, no schedule tag), whatever K: no scf.if.
// CHECK-DAG: #[[$KA:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$KB:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$MN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @tiny_result
// CHECK-NOT: scf.if
// CHECK: linalg.generic {indexing_maps = [#[[$KA]], #[[$KB]], #[[$MN]]], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK-NOT: attrs
// CHECK-SAME: outs(%{{.*}} : tensor<3x3xf64>) {
func.func @tiny_result(%a: tensor<?x3xf64>) -> tensor<3x3xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x3xf64>) -> tensor<3x3xf64>
  %g = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %a : tensor<?x3xf64>, tensor<?x3xf64>)
         outs(%c : tensor<3x3xf64>) -> tensor<3x3xf64>
  return %g : tensor<3x3xf64>
}

// -----

// A tiny static B (K, N <= 16, N not a multiple of 8) and a run-time M:
// a linalg.generic tagged `matc.tiny_rhs` (the schedule's @tiny_rhs_rows:
// a row of C at a time in a vector), whatever M: no scf.if.
// CHECK-LABEL: func.func @tiny_rhs
// CHECK-NOT: scf.if
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x3xf64>, tensor<3x3xf64>) outs(%{{.*}} : tensor<?x3xf64>) attrs =  {matc.tiny_rhs = "f64"}
// CHECK-NOT: matc.unpacked =
// CHECK: return
func.func @tiny_rhs(%p: tensor<?x3xf64>, %r: tensor<3x3xf64>) -> tensor<?x3xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %p, %c0 : tensor<?x3xf64>
  %e = tensor.empty(%m) : tensor<?x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x3xf64>) -> tensor<?x3xf64>
  %r2 = linalg.matmul ins(%p, %r : tensor<?x3xf64>, tensor<3x3xf64>)
                     outs(%c : tensor<?x3xf64>) -> tensor<?x3xf64>
  return %r2 : tensor<?x3xf64>
}

// -----

// B read transposed (a @ b.T): its columns would be gathers, so the
// unpacked product reads a plain copy of B (B^T, tagged for the schedule's
// transposes); every loop at most 16: the plain lowering's.
// CHECK-DAG: #[[$TR:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @transposed_rhs
// CHECK-SAME: (%[[A:.*]]: tensor<64x64xf32>, %[[BT:.*]]: tensor<64x64xf32>)
// CHECK-NOT: scf.if
// CHECK: linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x64xf32>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[$TR]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[BT]] : tensor<64x64xf32>) outs(%[[E]] : tensor<64x64xf32>) attrs = {matc.transpose = "f32"}
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$B]], #{{.*}}], {{.*}} ins(%[[A]], %[[B]] : {{.*}} attrs = {matc.unpacked = "f32", matc.unpacked_long_k}
// CHECK-LABEL: func.func @tiny
// CHECK-NOT: matc.unpacked
func.func @transposed_rhs(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                      affine_map<(i, j, k) -> (j, k)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @tiny(%a: tensor<3x5xf64>, %b: tensor<5x7xf64>) -> tensor<3x7xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x7xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x7xf64>) -> tensor<3x7xf64>
  %r = linalg.matmul ins(%a, %b : tensor<3x5xf64>, tensor<5x7xf64>)
                     outs(%c : tensor<3x7xf64>) -> tensor<3x7xf64>
  return %r : tensor<3x7xf64>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 max-rhs-elements=64" | FileCheck %s --check-prefix=RHS
// A static B of at most max-rhs-elements elements is read from the L1
// whatever M: tagged, without a test of the sizes; its k-range of 8 is
// short (no matc.unpacked_long_k).
// CHECK-LABEL: func.func @small_static_rhs
// OFF-LABEL: func.func @small_static_rhs
// RHS-LABEL: func.func @small_static_rhs
// RHS-NOT: scf.if
// RHS: linalg.generic {{.*}}attrs =  {matc.unpacked = "f64"} {
// RHS-NOT: scf.if
// With 512-bit vectors its N of 8 fits in one vector of f64: "f64_narrow";
// with 256-bit ones (4 lanes) it does not.
// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 max-rhs-elements=64 vector-bits=512" | FileCheck %s --check-prefix=NARROW
// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 max-rhs-elements=64 vector-bits=256" | FileCheck %s --check-prefix=WIDE
// NARROW-LABEL: func.func @small_static_rhs
// NARROW: linalg.generic {{.*}}attrs =  {matc.unpacked = "f64_narrow"} {
// WIDE-LABEL: func.func @small_static_rhs
// WIDE: linalg.generic {{.*}}attrs =  {matc.unpacked = "f64"} {
func.func @small_static_rhs(%a: tensor<?x8xf64>, %b: tensor<8x8xf64>, %m: index) -> tensor<?x8xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%m) : tensor<?x8xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x8xf64>) -> tensor<?x8xf64>
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf64>, tensor<8x8xf64>)
                     outs(%c : tensor<?x8xf64>) -> tensor<?x8xf64>
  return %r : tensor<?x8xf64>
}

// -----

// With run-time sizes, only the unpacked branch copies B^T (of B's
// run-time sizes swapped); the packed one reads B transposed in place, and
// a run-time N of 1 (B one row, 1 x K) reads it in place as a vector. Then
// a run-time M of 1 (A one row): the dot products of B's rows with it
// (matc.dot on B; before a few columns, whose blocks would copy B's rows);
// a few columns (N <= 8) as B's rows in blocks of 4; a run-time M of at
// most 8: C^T = B A^T in blocks of 4 rows of A, each block of C^T copied
// transposed into C's rows j .. j + w.
// CHECK-LABEL: func.func @transposed_rhs_dynamic
// RHS-LABEL: func.func @transposed_rhs_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[BT:.*]]: tensor<?x?xf64>)
// CHECK: scf.if
// CHECK: %[[ROW:.*]] = tensor.cast %[[BT]] : tensor<?x?xf64> to tensor<1x?xf64>
// CHECK: %[[X:.*]] = tensor.collapse_shape %[[ROW]]
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[X]] : tensor<?x?xf64>, tensor<?xf64>) {{.*}} attrs =  {matc.dot = "f64"}
// CHECK: } else {
// CHECK: %[[M1:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: scf.if %[[M1]] -> (tensor<?x?xf64>) {
// CHECK: %[[AROW:.*]] = tensor.cast %[[A]] : tensor<?x?xf64> to tensor<1x?xf64>
// CHECK: %[[AV:.*]] = tensor.collapse_shape %[[AROW]]
// CHECK: %[[CROW:.*]] = tensor.collapse_shape %{{.*}} : tensor<1x?xf64> into tensor<?xf64>
// CHECK: linalg.generic {{.*}} ins(%[[BT]], %[[AV]] : tensor<?x?xf64>, tensor<?xf64>) {{.*}} attrs =  {matc.dot = "f64"}
// CHECK: } else {
// CHECK: scf.if
// CHECK: scf.for
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %[[BT]]
// CHECK: tensor.insert_slice %[[ROWS]]
// CHECK: matc.dot_columns = "f64"
// CHECK: } else {
// CHECK: %[[M8:.*]] = arith.cmpi ule, %{{.*}}, %c8{{.*}} : index
// CHECK: scf.if
// CHECK: scf.for %[[J:.*]] = {{.*}} step %c4
// CHECK: %[[AROWS:.*]] = tensor.extract_slice %[[A]][%[[J]], 0]
// CHECK: %[[BLOCK:.*]] = tensor.insert_slice %[[AROWS]]
// CHECK: %[[CT:.*]] = linalg.generic {{.*}} ins(%[[BT]], %[[BLOCK]] : tensor<?x?xf64>, tensor<4x?xf64>) {{.*}} attrs =  {matc.dot_columns = "f64"}
// CHECK: %[[CTJ:.*]] = tensor.extract_slice %[[CT]][0, 0]
// CHECK: %[[CJ:.*]] = tensor.extract_slice %{{.*}}[%[[J]], 0]
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[CTJ]] : tensor<?x?xf64>) outs(%[[CJ]] : tensor<?x?xf64>) attrs =  {matc.transpose = "f64"}
// CHECK: tensor.insert_slice %[[T]] into %{{.*}}[%[[J]], 0]
// CHECK: } else {
// CHECK: scf.if
// CHECK-DAG: %[[K:.*]] = tensor.dim %[[BT]], %c1
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[BT]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[K]], %[[N]]) : tensor<?x?xf64>
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%[[BT]] : tensor<?x?xf64>) outs(%[[E]] : tensor<?x?xf64>) attrs = {matc.transpose = "f64"}
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}matc.unpacked = "f64"
// CHECK: } else {
// CHECK-NOT: matc.transpose
// CHECK: linalg.matmul {{.*}} ins(%[[A]], %[[BT]]
// CHECK: }
func.func @transposed_rhs_dynamic(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %n = tensor.dim %b, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                      affine_map<(i, j, k) -> (j, k)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
      outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// -----

// A few rows of C from B read transposed are dot products along a k-range
// of one vector of them (512 bits: 8 f64, 16 f32), shorter than the other
// dot products' 32: their alternative is the unpacked schedule on a
// transposed copy of all of B. A static K of 8: f64 versioned (M <= 8),
// f32 not (half a vector).
// CHECK-LABEL: func.func @transposed_rhs_short_k
// CHECK-SAME: (%[[A:.*]]: tensor<?x8xf64>, %[[BT:.*]]: tensor<?x8xf64>, %[[A32:.*]]: tensor<?x8xf32>, %[[BT32:.*]]: tensor<?x8xf32>)
// CHECK: arith.cmpi ule, %{{.*}}, %c8{{.*}} : index
// CHECK: scf.for {{.*}} step %c4
// CHECK: linalg.generic {{.*}} ins(%[[BT]], %{{.*}} : tensor<?x8xf64>, tensor<4x8xf64>) {{.*}} attrs =  {matc.dot_columns = "f64"}
// CHECK-NOT: matc.dot_columns = "f32"
// CHECK: return
func.func @transposed_rhs_short_k(%a: tensor<?x8xf64>, %b: tensor<?x8xf64>,
                                  %a32: tensor<?x8xf32>, %b32: tensor<?x8xf32>)
    -> (tensor<?x?xf64>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x8xf64>
  %n = tensor.dim %b, %c0 : tensor<?x8xf64>
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                      affine_map<(i, j, k) -> (j, k)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<?x8xf64>, tensor<?x8xf64>)
      outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  %m32 = tensor.dim %a32, %c0 : tensor<?x8xf32>
  %n32 = tensor.dim %b32, %c0 : tensor<?x8xf32>
  %zero32 = arith.constant 0.0 : f32
  %e32 = tensor.empty(%m32, %n32) : tensor<?x?xf32>
  %c32 = linalg.fill ins(%zero32 : f32) outs(%e32 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r32 = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                        affine_map<(i, j, k) -> (j, k)>,
                                        affine_map<(i, j, k) -> (i, j)>]
      ins(%a32, %b32 : tensor<?x8xf32>, tensor<?x8xf32>)
      outs(%c32 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r, %r32 : tensor<?x?xf64>, tensor<?x?xf32>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 narrow-f32=32 narrow-f64=16 vector-bits=512" | FileCheck %s --check-prefix=NARROWB
// A static N of at most narrow-f32 (narrow-f64) columns: only B counts
// against max-elements, whatever M. 4096 x 4096 @ 4096 x 16 (B 65536
// elements): unpacked, no test. A run-time K: k n against the limit (no m
// k), or M <= 4. N = 40 (beyond 32) and a B of 16384 x 16 (262144 elements): packed.
// CHECK-LABEL: func.func @narrow
// NARROWB-LABEL: func.func @narrow
// NARROWB: linalg.generic {{.*}}attrs =  {matc.unpacked = "f32_narrow", matc.unpacked_long_k}
// NARROWB: %[[KN:.*]] = arith.muli %[[K:.*]], %c16 : index
// NARROWB-NOT: arith.addi
// NARROWB: %[[FITS:.*]] = arith.cmpi ule, %[[KN]], %{{.*}}
// NARROWB: %[[SMALL:.*]] = arith.ori %[[FITS]], %{{.*}}
// NARROWB: scf.if %[[SMALL]] -> (tensor<?x16xf64>)
// NARROWB: linalg.generic {{.*}}attrs =  {matc.unpacked = "f64", matc.unpacked_long_k}
// NARROWB: linalg.matmul ins({{.*}} : tensor<?x?xf64>, tensor<?x16xf64>)
// NARROWB: linalg.matmul ins({{.*}} : tensor<4096x4096xf32>, tensor<4096x40xf32>)
// NARROWB: linalg.matmul ins({{.*}} : tensor<64x16384xf32>, tensor<16384x16xf32>)
// NARROWB-NOT: matc.unpacked
func.func @narrow(%a: tensor<4096x4096xf32>, %v: tensor<4096x16xf32>,
                  %ad: tensor<?x?xf64>, %vd: tensor<?x16xf64>,
                  %w: tensor<4096x40xf32>, %al: tensor<64x16384xf32>,
                  %vl: tensor<16384x16xf32>)
    -> (tensor<4096x16xf32>, tensor<?x16xf64>, tensor<4096x40xf32>, tensor<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x16xf32>) -> tensor<4096x16xf32>
  %r = linalg.matmul ins(%a, %v : tensor<4096x4096xf32>, tensor<4096x16xf32>)
                     outs(%c : tensor<4096x16xf32>) -> tensor<4096x16xf32>
  %zd = arith.constant 0.0 : f64
  %m = tensor.dim %ad, %c0 : tensor<?x?xf64>
  %ed = tensor.empty(%m) : tensor<?x16xf64>
  %cd = linalg.fill ins(%zd : f64) outs(%ed : tensor<?x16xf64>) -> tensor<?x16xf64>
  %rd = linalg.matmul ins(%ad, %vd : tensor<?x?xf64>, tensor<?x16xf64>)
                      outs(%cd : tensor<?x16xf64>) -> tensor<?x16xf64>
  %e2 = tensor.empty() : tensor<4096x40xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4096x40xf32>) -> tensor<4096x40xf32>
  %s = linalg.matmul ins(%a, %w : tensor<4096x4096xf32>, tensor<4096x40xf32>)
                     outs(%c2 : tensor<4096x40xf32>) -> tensor<4096x40xf32>
  %e3 = tensor.empty() : tensor<64x16xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x16xf32>) -> tensor<64x16xf32>
  %t = linalg.matmul ins(%al, %vl : tensor<64x16384xf32>, tensor<16384x16xf32>)
                     outs(%c3 : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r, %rd, %s, %t : tensor<4096x16xf32>, tensor<?x16xf64>, tensor<4096x40xf32>, tensor<64x16xf32>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 narrow-f32=32 narrow-f64=16 vector-bits=512" | FileCheck %s --check-prefix=HALF
// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 narrow-f32=32 narrow-f64=16 vector-bits=256" | FileCheck %s --check-prefix=HALF256
// An f32 N of 8: half a 512-bit vector ("f32_narrow_half": register tiles
// of 8 lanes, not 16 masked to 8), one whole 256-bit vector ("f32_narrow").
// An f64 N of 8 fills a 512-bit vector: "f64_narrow".
// CHECK-LABEL: func.func @narrow_half
// NARROWB-LABEL: func.func @narrow_half
// HALF-LABEL: func.func @narrow_half
// HALF: linalg.generic {{.*}}attrs =  {matc.unpacked = "f32_narrow_half", matc.unpacked_long_k}
// HALF: linalg.generic {{.*}}attrs =  {matc.unpacked = "f64_narrow", matc.unpacked_long_k}
// HALF256-LABEL: func.func @narrow_half
// HALF256: linalg.generic {{.*}}attrs =  {matc.unpacked = "f32_narrow", matc.unpacked_long_k}
func.func @narrow_half(%a: tensor<4096x4096xf32>, %v: tensor<4096x8xf32>,
                       %ad: tensor<4096x4096xf64>, %vd: tensor<4096x8xf64>)
    -> (tensor<4096x8xf32>, tensor<4096x8xf64>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x8xf32>) -> tensor<4096x8xf32>
  %r = linalg.matmul ins(%a, %v : tensor<4096x4096xf32>, tensor<4096x8xf32>)
                     outs(%c : tensor<4096x8xf32>) -> tensor<4096x8xf32>
  %zd = arith.constant 0.0 : f64
  %ed = tensor.empty() : tensor<4096x8xf64>
  %cd = linalg.fill ins(%zd : f64) outs(%ed : tensor<4096x8xf64>) -> tensor<4096x8xf64>
  %rd = linalg.matmul ins(%ad, %vd : tensor<4096x4096xf64>, tensor<4096x8xf64>)
                      outs(%cd : tensor<4096x8xf64>) -> tensor<4096x8xf64>
  return %r, %rd : tensor<4096x8xf32>, tensor<4096x8xf64>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 narrow-f32=32 narrow-f64=16 vector-bits=512" | FileCheck %s --check-prefix=NCOLS
// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 narrow-f32=16 narrow-f64=8 vector-bits=256" | FileCheck %s --check-prefix=NCOLS256
// A run-time N of more than half a vector (and more than one block of 4
// dot products) up to one vector, with B within max-elements and more than
// 8 rows: register tiles one vector wide ("f32_narrow", masked to N),
// tested before the blocks of dot products (N <= 16 here); up to NR
// columns (B within the limit): the unpacked product of the last test.
// Without mask registers (256-bit vectors: AVX2), only for N a multiple of
// the vector.
// CHECK-LABEL: func.func @narrow_columns
// NCOLS-LABEL: func.func @narrow_columns
// NCOLS: %[[ABOVE:.*]] = arith.cmpi ugt, %[[N:.*]], %c8{{.*}} : index
// NCOLS: %[[BELOW:.*]] = arith.cmpi ule, %[[N]], %c16{{.*}} : index
// NCOLS: %[[IN:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// NCOLS-NOT: arith.remui
// NCOLS: %[[KN:.*]] = arith.muli %[[K:.*]], %[[N]] : index
// NCOLS: %[[FITS:.*]] = arith.cmpi ule, %[[KN]], %c131072{{.*}} : index
// NCOLS: %[[ONEVEC:.*]] = arith.andi %[[IN]], %[[FITS]] : i1
// NCOLS: %[[ROWS:.*]] = arith.cmpi ugt, %{{.*}}, %c8{{.*}} : index
// NCOLS: %[[TEST:.*]] = arith.andi %[[ONEVEC]], %[[ROWS]] : i1
// NCOLS: scf.if %[[TEST]] -> (tensor<?x?xf32>) {
// NCOLS-NEXT: linalg.fill
// NCOLS-NEXT: linalg.generic {{.*}}attrs =  {matc.unpacked = "f32_narrow", matc.unpacked_long_k}
// NCOLS: } else {
// NCOLS: arith.cmpi ule, %{{.*}}, %c16{{.*}} : index
// NCOLS: scf.for
// NCOLS: matc.dot_columns
// NCOLS: matc.vector_matrix = "f32"
// NCOLS: %[[UPTONR:.*]] = arith.cmpi ule, %{{.*}}, %c32{{.*}} : index
// NCOLS-NEXT: %[[NR:.*]] = arith.andi %{{.*}}, %[[UPTONR]] : i1
// NCOLS: %[[NRFITS:.*]] = arith.andi %[[NR]], %{{.*}} : i1
// NCOLS-NEXT: %[[SMALL:.*]] = arith.ori %{{.*}}, %[[NRFITS]] : i1
// NCOLS: scf.if %[[SMALL]] -> (tensor<?x?xf32>)
// NCOLS: matc.unpacked = "f32", matc.unpacked_long_k
// NCOLS256-LABEL: func.func @narrow_columns
// NCOLS256: %[[ABOVE:.*]] = arith.cmpi ugt, %[[N:.*]], %c4{{.*}} : index
// NCOLS256: %[[BELOW:.*]] = arith.cmpi ule, %[[N]], %c8{{.*}} : index
// NCOLS256: %[[IN:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// NCOLS256: %[[REM:.*]] = arith.remui %[[N]], %c8{{.*}} : index
// NCOLS256: %[[WHOLE:.*]] = arith.cmpi eq, %[[REM]], %c0{{.*}} : index
// NCOLS256: arith.andi %[[IN]], %[[WHOLE]] : i1
// NCOLS256: matc.unpacked = "f32_narrow", matc.unpacked_long_k
// NCOLS256: arith.cmpi ule, %{{.*}}, %c16{{.*}} : index
// NCOLS256: arith.remui %{{.*}}, %c8{{.*}} : index
// NCOLS256: matc.unpacked = "f32", matc.unpacked_long_k
func.func @narrow_columns(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A run-time N of 1 with A read transposed (a.T @ b, A K x M): the rows of
// A scaled by B's elements (matc.vector_matrix on A), not dot products.
// B's K taken from A by a slice of the whole of B (as
// matrix-outline-products makes it): the column is cast from B itself,
// whose buffer is contiguous (the slice's row stride is not static, and
// collapsing it would copy it).
// (After the test of M == N == 1: one dot product.)
// CHECK-LABEL: func.func @unit_column_transposed_lhs
// NCOLS-LABEL: func.func @unit_column_transposed_lhs
// NCOLS256-LABEL: func.func @unit_column_transposed_lhs
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?x?xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[B]]
// CHECK: matc.dot = "f32"
// CHECK: } else {
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: scf.if %[[ONE]] -> (tensor<?x?xf32>) {
// CHECK:   %[[COL:.*]] = tensor.cast %[[B]] : tensor<?x?xf32> to tensor<?x1xf32>
// CHECK:   %[[X:.*]] = tensor.collapse_shape %[[COL]]
// CHECK:   linalg.generic {{.*}} ins(%[[X]], %[[A]] : tensor<?xf32>, tensor<?x?xf32>) {{.*}} attrs =  {matc.vector_matrix = "f32"}
// CHECK: } else {
// CHECK: scf.if
// CHECK: linalg.matmul {{.*}} ins(%[[A]], %[[S]]
func.func @unit_column_transposed_lhs(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %s = tensor.extract_slice %b[0, 0] [%k, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (k, j)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %s : tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A static k-range shorter than 32: one column of C as dot products (the
// test of N == 1), but not a few (no dot_columns), then the sizes' test.
// A tiny C of one element from a long k-range with A
// read transposed (x.T @ y): one dot product, x as a 1 x K matrix.
// CHECK-LABEL: func.func @short_k
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK-NEXT: scf.if %[[ONE]] -> (tensor<?x?xf32>) {
// CHECK: matc.dot = "f32"
// CHECK: } else {
// CHECK-NOT: matc.dot
// CHECK: matc.unpacked
// CHECK-LABEL: func.func @one_dot_product
// CHECK-SAME: (%[[X:.*]]: tensor<?x1xf64>, %[[Y:.*]]: tensor<?x1xf64>)
// CHECK-NOT: scf.if
// CHECK: %[[XV:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK: %[[XR:.*]] = tensor.expand_shape %[[XV]] {{\[}}[0, 1]] output_shape [1, %{{.*}}] : tensor<?xf64> into tensor<1x?xf64>
// CHECK: %[[YV:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK: linalg.generic {{.*}} ins(%[[XR]], %[[YV]] : tensor<1x?xf64>, tensor<?xf64>) outs(%{{.*}} : tensor<1xf64>) attrs =  {matc.dot = "f64"}
// CHECK-NOT: linalg.matmul
// `a.T @ x` with x K x 1 (N a static 1) and a run-time M: behind a test
// of M == 1 (and K >= 32), one dot product of A's one column with x.
// CHECK-LABEL: func.func @one_dot_product_column
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[X:.*]]: tensor<?x1xf64>)
// CHECK: %[[M:.*]] = tensor.dim %[[A]], %c1_{{[0-9]+}}
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[M]], %c1
// CHECK: %[[BOTH:.*]] = arith.andi %[[ONE]], %{{.*}} : i1
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %{{.*}}, %c32 : index
// CHECK: %[[TEST:.*]] = arith.andi %[[BOTH]], %[[LONG]] : i1
// CHECK: scf.if %[[TEST]] -> (tensor<?x1xf64>) {
// CHECK: %[[AC:.*]] = tensor.cast %[[A]] : tensor<?x?xf64> to tensor<?x1xf64>
// CHECK: %[[AV:.*]] = tensor.collapse_shape %[[AC]]
// CHECK: %[[AR:.*]] = tensor.expand_shape %[[AV]] {{\[}}[0, 1]] output_shape [1, %{{.*}}] : tensor<?xf64> into tensor<1x?xf64>
// CHECK: linalg.generic {{.*}} ins(%[[AR]], %{{.*}} : tensor<1x?xf64>, tensor<?xf64>) outs(%{{.*}} : tensor<1xf64>) attrs =  {matc.dot = "f64"}
// CHECK: } else {
// CHECK: matc.vector_matrix = "f64"
// CHECK-NOT: linalg.matmul
func.func @short_k(%a: tensor<?x16xf32>, %b: tensor<16x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x16xf32>
  %n = tensor.dim %b, %c1 : tensor<16x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x16xf32>, tensor<16x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @one_dot_product(%x: tensor<?x1xf64>, %y: tensor<?x1xf64>) -> tensor<1x1xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1x1xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<1x1xf64>) -> tensor<1x1xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (k, j)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%x, %y : tensor<?x1xf64>, tensor<?x1xf64>)
      outs(%c : tensor<1x1xf64>) -> tensor<1x1xf64>
  return %r : tensor<1x1xf64>
}
func.func @one_dot_product_column(%a: tensor<?x?xf64>, %x: tensor<?x1xf64>) -> tensor<?x1xf64> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m) : tensor<?x1xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x1xf64>) -> tensor<?x1xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (k, j)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %x : tensor<?x?xf64>, tensor<?x1xf64>)
      outs(%c : tensor<?x1xf64>) -> tensor<?x1xf64>
  return %r : tensor<?x1xf64>
}

// -----

// The most columns computed in blocks of dot products: half the packed
// register tile's width (narrow-f32, narrow-f64), 8 when not given (the
// RUN lines above): 16 f32 and 8 f64 columns with AVX-512's 32 and 16.
// NARROWB-LABEL: func.func @dot_column_limits
// NARROWB: %[[C16:.*]] = arith.constant 16 : index
// NARROWB: arith.cmpi ule, %{{.*}}, %[[C16]] : index
// NARROWB: matc.dot_columns = "f32"
// NARROWB: %[[C8:.*]] = arith.constant 8 : index
// NARROWB: arith.cmpi ule, %{{.*}}, %[[C8]] : index
// NARROWB: matc.dot_columns = "f64"
// CHECK-LABEL: func.func @dot_column_limits
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: arith.cmpi ule, %{{.*}}, %[[C8]] : index
// CHECK: matc.dot_columns = "f32"
func.func @dot_column_limits(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>,
                             %c: tensor<?x?xf64>, %d: tensor<?x?xf64>)
    -> (tensor<?x?xf32>, tensor<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero64 = arith.constant 0.0 : f64
  %e64 = tensor.empty(%m, %n) : tensor<?x?xf64>
  %f64 = linalg.fill ins(%zero64 : f64) outs(%e64 : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r64 = linalg.matmul ins(%c, %d : tensor<?x?xf64>, tensor<?x?xf64>)
                     outs(%f64 : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r, %r64 : tensor<?x?xf32>, tensor<?x?xf64>
}

// -----

// A read transposed, M and N known only at run time: first a test of
// M == N == 1 (K >= 32), one element of C as one dot product (A cast to
// K x 1 and read as 1 x K, B cast to a column), the general `x.T @ y`; then
// N == 1 (the rows of A scaled by B's elements) in its other branch.
// CHECK-LABEL: func.func @one_dot_product_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[B:.*]]: tensor<?x?xf64>)
// CHECK: %[[ROW:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK: %[[COLUMN:.*]] = arith.cmpi eq, %{{.*}}, %c1{{.*}} : index
// CHECK: %[[ONE:.*]] = arith.andi %[[ROW]], %[[COLUMN]] : i1
// CHECK: %[[ONE_LONG:.*]] = arith.andi %[[ONE]], %{{.*}} : i1
// CHECK: scf.if %[[ONE_LONG]] -> (tensor<?x?xf64>) {
// CHECK:   %[[X:.*]] = tensor.cast %[[A]] : tensor<?x?xf64> to tensor<?x1xf64>
// CHECK:   %[[XV:.*]] = tensor.collapse_shape %[[X]]
// CHECK:   %[[XR:.*]] = tensor.expand_shape %[[XV]] {{.*}} into tensor<1x?xf64>
// CHECK:   linalg.generic {{.*}} ins(%[[XR]], %{{.*}} : tensor<1x?xf64>, tensor<?xf64>) {{.*}} attrs =  {matc.dot = "f64"}
// CHECK-NOT: linalg.matmul
// CHECK: } else {
// CHECK: matc.vector_matrix = "f64"
func.func @one_dot_product_dynamic(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %zero = arith.constant 0.0 : f64
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c1 : tensor<?x?xf64>
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (k, j)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
      outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// -----

// A read transposed (K x M) with M known only at run time: a run-time M of
// 1 too, after the tests of one element and one column of C. A's one
// column (K x 1, the layout of a row) collapsed to x; with B read
// transposed the dot products of B's rows with x (`a.T @ b.T` given 1 x 1
// and 100000 x 1 read B^T through a copy made in blocks masked down to one
// row: 16.9 ms against NumPy's 0.09, Zen 5), with B in place B's rows
// scaled by x.
// CHECK-LABEL: func.func @transposed_lhs
// CHECK: scf.if
// CHECK: } else {
// CHECK: scf.if
// CHECK: } else {
// CHECK:   %[[M:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<?x?xf64>
// CHECK:   %[[ONEROW:.*]] = arith.cmpi eq, %[[M]], %c1{{.*}} : index
// CHECK-NEXT: scf.if %[[ONEROW]] -> (tensor<?x?xf64>) {
// CHECK:     %[[COL:.*]] = tensor.cast %arg0 : tensor<?x?xf64> to tensor<?x1xf64>
// CHECK:     %[[X:.*]] = tensor.collapse_shape %[[COL]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK:     linalg.generic {{.*}} ins(%arg1, %[[X]] : tensor<?x?xf64>, tensor<?xf64>) {{.*}} attrs =  {matc.dot = "f64"}
// CHECK:   } else {
// CHECK:     matc.transpose = "f64"
// CHECK:     matc.unpacked = "f64"
// CHECK: scf.if
// CHECK: } else {
// CHECK: scf.if
// CHECK: } else {
// CHECK:   %[[M2:.*]] = tensor.dim %arg0, %c1{{.*}} : tensor<?x?xf64>
// CHECK:   %[[ONEROW2:.*]] = arith.cmpi eq, %[[M2]], %c1{{.*}} : index
// CHECK-NEXT: scf.if %[[ONEROW2]] -> (tensor<?x?xf64>) {
// CHECK:     %[[COL2:.*]] = tensor.cast %arg0 : tensor<?x?xf64> to tensor<?x1xf64>
// CHECK:     %[[X2:.*]] = tensor.collapse_shape %[[COL2]] {{\[}}[0, 1]] : tensor<?x1xf64> into tensor<?xf64>
// CHECK:     linalg.generic {{.*}} ins(%[[X2]], %arg2 : tensor<?xf64>, tensor<?x?xf64>) {{.*}} attrs =  {matc.vector_matrix = "f64"}
// CHECK:   } else {
// CHECK:     matc.unpacked = "f64"
func.func @transposed_lhs(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %bp: tensor<?x?xf64>) -> (tensor<?x?xf64>, tensor<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c1 : tensor<?x?xf64>
  %n = tensor.dim %b, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
         outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  %np = tensor.dim %bp, %c1 : tensor<?x?xf64>
  %e2 = tensor.empty(%m, %np) : tensor<?x?xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<?x?xf64>) -> tensor<?x?xf64>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %bp : tensor<?x?xf64>, tensor<?x?xf64>)
         outs(%c2 : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r, %t : tensor<?x?xf64>, tensor<?x?xf64>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 few-columns-max-lhs-bytes=4194304 narrow-f32=32" | FileCheck %s --check-prefix=LHS
// Blocks of 4 columns of dot products each read all of A: with A's bytes
// limited (4 MiB: 1048576 f32), more than two blocks (N > 8; f32 up to 16
// with narrow-f32 = 32) need A within the limit, tested at run time (M K <=
// 1048576, or N <= 8); a static A beyond it gets two blocks (N <= 8) only,
// a static A within it any number.
// LHS-LABEL: func.func @few_columns_lhs_bytes
// LHS: %[[N16:.*]] = arith.cmpi ule, %{{.*}}, %c16{{.*}} : index
// LHS: %[[ROWS:.*]] = arith.cmpi ugt, %{{.*}}, %c8{{.*}} : index
// LHS: %[[FEW:.*]] = arith.andi %[[N16]], %[[ROWS]] : i1
// LHS: %[[MK:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// LHS: %[[ONE:.*]] = arith.cmpi ule, %{{.*}}, %c8{{.*}} : index
// LHS: %[[SMALL:.*]] = arith.cmpi ule, %[[MK]], %c1048576{{.*}} : index
// LHS: %[[EITHER:.*]] = arith.ori %[[ONE]], %[[SMALL]] : i1
// LHS: arith.andi %[[FEW]], %[[EITHER]] : i1
// LHS: matc.dot_columns = "f32"
// LHS-LABEL: func.func @few_columns_static_lhs
// LHS-NOT: %c1048576
// LHS: arith.cmpi ule, %{{.*}}, %c8{{.*}} : index
// LHS: matc.dot_columns = "f32"
// LHS-NOT: %c1048576
// LHS: arith.cmpi ule, %{{.*}}, %c16{{.*}} : index
// LHS-NOT: %c1048576
// LHS: matc.dot_columns = "f32"
func.func @few_columns_lhs_bytes(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @few_columns_static_lhs(%big: tensor<128x16384xf32>, %b: tensor<16384x?xf32>,
                                  %small: tensor<64x1024xf32>, %b2: tensor<1024x?xf32>)
    -> (tensor<128x?xf32>, tensor<64x?xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %n = tensor.dim %b, %c1 : tensor<16384x?xf32>
  %e = tensor.empty(%n) : tensor<128x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<128x?xf32>) -> tensor<128x?xf32>
  %r = linalg.matmul ins(%big, %b : tensor<128x16384xf32>, tensor<16384x?xf32>)
      outs(%c : tensor<128x?xf32>) -> tensor<128x?xf32>
  %n2 = tensor.dim %b2, %c1 : tensor<1024x?xf32>
  %e2 = tensor.empty(%n2) : tensor<64x?xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x?xf32>) -> tensor<64x?xf32>
  %r2 = linalg.matmul ins(%small, %b2 : tensor<64x1024xf32>, tensor<1024x?xf32>)
      outs(%c2 : tensor<64x?xf32>) -> tensor<64x?xf32>
  return %r, %r2 : tensor<128x?xf32>, tensor<64x?xf32>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-version-products="max-elements=131072 vector-bits=256" | FileCheck %s --check-prefix=SPLIT
// A vector-matrix product whose C is at most one vector (4 f64 with
// 256-bit vectors) is split along k: 8 partial sums of the first K - K mod
// 8 rows (x and the matrix expanded, no copies), then C = the fill + their
// sum + the last K mod 8 rows. A run-time N: behind a test of N <= 4, the
// unsplit product in the other branch, C's fill in each branch; there, a C
// of less than one tile of 2048 bits (32 f64) is
// `matc.vector_matrix_carried` (C in registers across all of k) at the
// fewest of 2, 4, 8 vectors that hold it (tests of N <= 8, N <= 16, N <
// 32; the width in a DLTI map), the whole tiles `matc.vector_matrix`.
// SPLIT-LABEL: func.func @split_row_sums
// SPLIT-SAME: (%[[X:.*]]: tensor<1x?xf64>, %[[B:.*]]: tensor<?x?xf64>
// SPLIT: %[[XV:.*]] = tensor.collapse_shape %[[X]]
// SPLIT: %[[CV:.*]] = tensor.collapse_shape
// SPLIT-NOT: linalg.fill
// SPLIT: %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %c4
// SPLIT: scf.if %[[FITS]]
// SPLIT-NEXT: %[[C:.*]] = linalg.fill {{.*}} outs(%[[CV]] : tensor<?xf64>) -> tensor<?xf64>
// SPLIT: %[[K:.*]] = tensor.dim %[[B]], %c0
// SPLIT: %[[BLOCKS:.*]] = affine.apply #{{.*}}()[%[[K]]]
// SPLIT: %[[HEAD:.*]] = affine.apply #{{.*}}()[%[[K]]]
// SPLIT: %[[TAIL:.*]] = affine.apply #{{.*}}()[%[[K]]]
// SPLIT: %[[XH:.*]] = tensor.extract_slice %[[XV]][0] [%[[HEAD]]] [1]
// SPLIT: %[[X2:.*]] = tensor.expand_shape %[[XH]] {{\[\[}}0, 1]] output_shape [%[[BLOCKS]], 8] : tensor<?xf64> into tensor<?x8xf64>
// SPLIT: %[[BH:.*]] = tensor.extract_slice %[[B]][0, 0] [%[[HEAD]], %{{.*}}] [1, 1]
// SPLIT: %[[B3:.*]] = tensor.expand_shape %[[BH]] {{\[\[}}0, 1], [2]] output_shape [%[[BLOCKS]], 8, %{{.*}}] : tensor<?x?xf64> into tensor<?x8x?xf64>
// SPLIT: %[[P0:.*]] = linalg.fill {{.*}} -> tensor<8x?xf64>
// SPLIT: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X2]], %[[B3]] : tensor<?x8xf64>, tensor<?x8x?xf64>) outs(%[[P0]] : tensor<8x?xf64>) attrs =  {matc.vector_matrix_split = "f64"}
// SPLIT: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<8x?xf64>) outs(%[[C]] : tensor<?xf64>) attrs =  {matc.vector_matrix_rest = "f64"}
// SPLIT: %[[XT:.*]] = tensor.extract_slice %[[XV]][%[[HEAD]]] [%[[TAIL]]] [1]
// SPLIT: %[[BT:.*]] = tensor.extract_slice %[[B]][%[[HEAD]], 0] [%[[TAIL]], %{{.*}}] [1, 1]
// SPLIT: %[[R:.*]] = linalg.generic {{.*}} ins(%[[XT]], %[[BT]] : tensor<?xf64>, tensor<?x?xf64>) outs(%[[SUM]] : tensor<?xf64>) attrs =  {matc.vector_matrix_rest = "f64"}
// SPLIT: scf.yield %[[R]]
// SPLIT: } else {
// SPLIT-NOT: linalg.fill
// SPLIT: %[[TWO:.*]] = arith.cmpi ule, %{{.*}}, %c8 : index
// SPLIT-NEXT: scf.if %[[TWO]]
// SPLIT-NEXT: %[[C8:.*]] = linalg.fill {{.*}} outs(%[[CV]] : tensor<?xf64>) -> tensor<?xf64>
// SPLIT-NEXT: linalg.generic {{.*}} ins(%[[XV]], %[[B]] : tensor<?xf64>, tensor<?x?xf64>) outs(%[[C8]] : tensor<?xf64>) attrs =  {matc.vector_matrix_carried = "f64", matc.vector_matrix_width = #dlti.map<"width" = 8 : i64>}
// SPLIT: } else {
// SPLIT-NOT: linalg.fill
// SPLIT: %[[FOUR:.*]] = arith.cmpi ule, %{{.*}}, %c16 : index
// SPLIT-NEXT: scf.if %[[FOUR]]
// SPLIT-NEXT: %[[C16:.*]] = linalg.fill {{.*}} outs(%[[CV]] : tensor<?xf64>) -> tensor<?xf64>
// SPLIT-NEXT: linalg.generic {{.*}} outs(%[[C16]] : tensor<?xf64>) attrs =  {matc.vector_matrix_carried = "f64", matc.vector_matrix_width = #dlti.map<"width" = 16 : i64>}
// SPLIT: } else {
// SPLIT-NOT: linalg.fill
// SPLIT: %[[PARTIAL:.*]] = arith.cmpi ult, %{{.*}}, %c32 : index
// SPLIT-NEXT: scf.if %[[PARTIAL]]
// SPLIT-NEXT: %[[C3:.*]] = linalg.fill {{.*}} outs(%[[CV]] : tensor<?xf64>) -> tensor<?xf64>
// SPLIT-NEXT: linalg.generic {{.*}} ins(%[[XV]], %[[B]] : tensor<?xf64>, tensor<?x?xf64>) outs(%[[C3]] : tensor<?xf64>) attrs =  {matc.vector_matrix_carried = "f64", matc.vector_matrix_width = #dlti.map<"width" = 32 : i64>}
// SPLIT: } else {
// SPLIT-NEXT: %[[C2:.*]] = linalg.fill {{.*}} outs(%[[CV]] : tensor<?xf64>) -> tensor<?xf64>
// SPLIT-NEXT: linalg.generic {{.*}} ins(%[[XV]], %[[B]] : tensor<?xf64>, tensor<?x?xf64>) outs(%[[C2]] : tensor<?xf64>) attrs =  {matc.vector_matrix = "f64"}
// A static K of a multiple of 8: no last rows; a static K shorter than
// 8: unsplit; a static N of one vector (the M == 1 branch of a general
// `a.T @ b`, 8 f32): no test of N.
// SPLIT-LABEL: func.func @split_row_sums_static
// SPLIT: scf.if
// SPLIT: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [2, 8] : tensor<16xf64> into tensor<2x8xf64>
// SPLIT: matc.vector_matrix_split = "f64"
// SPLIT: %[[S:.*]] = linalg.generic {{.*}}matc.vector_matrix_rest = "f64"
// SPLIT-NEXT: ^bb0
// SPLIT-NOT: matc.vector_matrix_rest
// SPLIT: scf.yield %[[S]]
// SPLIT-NOT: matc.vector_matrix_split
// SPLIT: matc.vector_matrix = "f64"
// SPLIT-NOT: matc.vector_matrix_split
// SPLIT: ins(%{{.*}} : tensor<1x7xf64>
// SPLIT-NOT: matc.vector_matrix_split
// SPLIT: matc.vector_matrix = "f64"
// SPLIT-NOT: scf.if
// SPLIT: %[[ROW:.*]] = arith.cmpi eq
// SPLIT-NEXT: scf.if %[[ROW]]
// SPLIT-NOT: scf.if
// SPLIT: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?x8x8xf32>) outs(%{{.*}} : tensor<8x8xf32>) attrs =  {matc.vector_matrix_split = "f32"}
// SPLIT: return
// A static N of more than one vector and less than one tile of 2048 bits
// (20 f32): `matc.vector_matrix_carried` in its own 3 vectors (24
// elements), no test.
// SPLIT-LABEL: func.func @vector_matrix_carried_static
// SPLIT-NOT: scf.if
// SPLIT: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?x20xf32>) outs(%{{.*}} : tensor<20xf32>) attrs =  {matc.vector_matrix_carried = "f32", matc.vector_matrix_width = #dlti.map<"width" = 24 : i64>}
// SPLIT-NOT: scf.if
// SPLIT: return
// A column of C, A read transposed (`a.T @ x`): A's rows scaled by x,
// split alike.
// SPLIT-LABEL: func.func @split_column
// SPLIT: scf.if
// SPLIT: matc.vector_matrix_split = "f32"
// SPLIT: } else {
// SPLIT: matc.vector_matrix = "f32"
func.func @split_row_sums(%x: tensor<1x?xf64>, %b: tensor<?x?xf64>) -> tensor<1x?xf64> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%n) : tensor<1x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<1x?xf64>) -> tensor<1x?xf64>
  %r = linalg.matmul ins(%x, %b : tensor<1x?xf64>, tensor<?x?xf64>) outs(%c : tensor<1x?xf64>) -> tensor<1x?xf64>
  return %r : tensor<1x?xf64>
}
func.func @split_row_sums_static(%x: tensor<1x16xf64>, %b: tensor<16x?xf64>,
                                 %z: tensor<1x7xf64>, %s: tensor<7x?xf64>,
                                 %a: tensor<?x?xf32>, %w: tensor<?x8xf32>)
    -> (tensor<1x?xf64>, tensor<1x?xf64>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = tensor.dim %b, %c1 : tensor<16x?xf64>
  %e = tensor.empty(%n) : tensor<1x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<1x?xf64>) -> tensor<1x?xf64>
  %r = linalg.matmul ins(%x, %b : tensor<1x16xf64>, tensor<16x?xf64>) outs(%c : tensor<1x?xf64>) -> tensor<1x?xf64>
  %n2 = tensor.dim %s, %c1 : tensor<7x?xf64>
  %e2 = tensor.empty(%n2) : tensor<1x?xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<1x?xf64>) -> tensor<1x?xf64>
  %r2 = linalg.matmul ins(%z, %s : tensor<1x7xf64>, tensor<7x?xf64>) outs(%c2 : tensor<1x?xf64>) -> tensor<1x?xf64>
  %zero32 = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e3 = tensor.empty(%m) : tensor<?x8xf32>
  %c3 = linalg.fill ins(%zero32 : f32) outs(%e3 : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r3 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<?x?xf32>, tensor<?x8xf32>) outs(%c3 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r, %r2, %r3 : tensor<1x?xf64>, tensor<1x?xf64>, tensor<?x8xf32>
}
func.func @vector_matrix_carried_static(%x: tensor<1x?xf32>, %b: tensor<?x20xf32>) -> tensor<1x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x20xf32>) -> tensor<1x20xf32>
  %r = linalg.matmul ins(%x, %b : tensor<1x?xf32>, tensor<?x20xf32>) outs(%c : tensor<1x20xf32>) -> tensor<1x20xf32>
  return %r : tensor<1x20xf32>
}
func.func @split_column(%a: tensor<?x?xf32>, %x: tensor<?x1xf32>) -> tensor<?x1xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x1xf32>) -> tensor<?x1xf32>
  %ta = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %x : tensor<?x?xf32>, tensor<?x1xf32>) outs(%c : tensor<?x1xf32>) -> tensor<?x1xf32>
  return %ta : tensor<?x1xf32>
}
