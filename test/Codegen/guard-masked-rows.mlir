// RUN: matc-opt %s --matrix-guard-masked-rows --split-input-file | FileCheck %s
// RUN: matc-opt %s --matrix-guard-masked-rows --convert-vector-to-scf=full-unroll --canonicalize --split-input-file | FileCheck %s --check-prefix=UNROLL

// A block of a transposed copy (8 x 8 f64, masked to the tile's rows and
// columns, a subview of the tile's size; the rows have no constant bound
// below 8): the read and the write each go behind a test that the mask
// keeps every row (then as they were, one masked access) or not (then a
// loop over the rows it keeps, one 1-D access of the row with the columns'
// mask each, through a buffer of the vector on the stack, one for both,
// made at the start of the function: a read's buffer filled with the
// padding first).
// CHECK-LABEL: func.func @transpose_block
// CHECK-SAME: %{{[^:]*}}: index, %{{[^:]*}}: index, %[[R:[^:]*]]: index, %[[C:[^:]*]]: index)
// CHECK-NEXT: %[[BUF:.*]] = memref.alloca() : memref<vector<8x8xf64>>
// CHECK: %[[M:.*]] = vector.create_mask %[[R]], %[[C]] : vector<8x8xi1>
// CHECK: %[[WHOLE:.*]] = arith.cmpi sge, %[[R]], %c8
// CHECK: %[[V:.*]] = scf.if %[[WHOLE]] -> (vector<8x8xf64>) {
// CHECK:   vector.transfer_read %[[SRC:.*]][%c0, %c0], %[[PAD:.*]], %[[M]] {in_bounds = [true, true]}
// CHECK: } else {
// CHECK:   %[[ROWS:.*]] = vector.type_cast %[[BUF]] : memref<vector<8x8xf64>> to memref<8xvector<8xf64>>
// CHECK:   %[[RM:.*]] = vector.create_mask %[[C]] : vector<8xi1>
// CHECK:   %[[FILL:.*]] = vector.broadcast %[[PAD]] : f64 to vector<8x8xf64>
// CHECK:   memref.store %[[FILL]], %[[BUF]][]
// CHECK:   scf.for %[[I:.*]] = %{{.*}} to %[[R]] step
// CHECK:     %[[ROW:.*]] = arith.addi %c0, %[[I]]
// CHECK:     %[[LINE:.*]] = vector.transfer_read %[[SRC]][%[[ROW]], %c0], %[[PAD]], %[[RM]] {in_bounds = [true]} : {{.*}}, vector<8xf64>
// CHECK:     memref.store %[[LINE]], %[[ROWS]][%[[I]]]
// CHECK:   %[[ALL:.*]] = memref.load %[[BUF]][]
// CHECK:   scf.yield %[[ALL]]
// CHECK: %[[T:.*]] = vector.transpose %[[V]]
// CHECK: %[[MT:.*]] = vector.create_mask %[[C]], %[[R]] : vector<8x8xi1>
// CHECK: %[[WHOLET:.*]] = arith.cmpi sge, %[[C]], %c8
// CHECK: scf.if %[[WHOLET]] {
// CHECK:   vector.transfer_write %[[T]], %[[DST:.*]][%c0, %c0], %[[MT]] {in_bounds = [true, true]}
// CHECK: } else {
// CHECK:   %[[ROWST:.*]] = vector.type_cast %[[BUF]]
// CHECK:   %[[RMT:.*]] = vector.create_mask %[[R]] : vector<8xi1>
// CHECK:   memref.store %[[T]], %[[BUF]][]
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %[[C]] step
// CHECK:     %[[ROWT:.*]] = arith.addi %c0, %[[J]]
// CHECK:     %[[LINET:.*]] = memref.load %[[ROWST]][%[[J]]]
// CHECK:     vector.transfer_write %[[LINET]], %[[DST]][%[[ROWT]], %c0], %[[RMT]] {in_bounds = [true]} : vector<8xf64>
// CHECK: return
func.func @transpose_block(%src: memref<?x?xf64, strided<[?, 1]>>, %dst: memref<?x?xf64>,
                           %i: index, %j: index, %r: index, %c: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f64
  %s = memref.subview %src[%j, %i] [%r, %c] [1, 1]
      : memref<?x?xf64, strided<[?, 1]>> to memref<?x?xf64, strided<[?, 1], offset: ?>>
  %d = memref.subview %dst[%i, %j] [%c, %r] [1, 1]
      : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
  %m = vector.create_mask %r, %c : vector<8x8xi1>
  %v = vector.transfer_read %s[%c0, %c0], %pad, %m {in_bounds = [true, true]}
      : memref<?x?xf64, strided<[?, 1], offset: ?>>, vector<8x8xf64>
  %t = vector.transpose %v, [1, 0] : vector<8x8xf64> to vector<8x8xf64>
  %mt = vector.create_mask %c, %r : vector<8x8xi1>
  vector.transfer_write %t, %d[%c0, %c0], %mt {in_bounds = [true, true]}
      : vector<8x8xf64>, memref<?x?xf64, strided<[?, 1], offset: ?>>
  return
}

// -----

// Rows with a constant upper bound below the vector's (the packing of A
// for register tiles of MR = 12 rows reads blocks of 16 x 16 masked to
// min(12, M - i) rows): the access is of its first 12 rows only (the read
// inserted into a vector of the padding, the write of a slice of its
// vector), then tested against 12.
// CHECK-LABEL: func.func @bounded_rows
// CHECK: %[[R:.*]] = affine.min
// CHECK: %[[M12:.*]] = vector.create_mask %[[R]], %{{.*}} : vector<12x16xi1>
// CHECK: %[[WHOLE:.*]] = arith.cmpi sge, %[[R]], %c12
// CHECK: %[[V12:.*]] = scf.if %[[WHOLE]] -> (vector<12x16xf32>) {
// CHECK:   vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %[[M12]] {in_bounds = [true, true]} : memref<?x?xf32>, vector<12x16xf32>
// CHECK: } else {
// CHECK:   scf.for
// CHECK: %[[PADV:.*]] = vector.broadcast %{{.*}} : f32 to vector<16x16xf32>
// CHECK: %[[V:.*]] = vector.insert_strided_slice %[[V12]], %[[PADV]] {offsets = [0, 0], strides = [1, 1]} : vector<12x16xf32> into vector<16x16xf32>
// CHECK: %[[MW:.*]] = vector.create_mask %[[R]], %{{.*}} : vector<12x16xi1>
// CHECK: %[[PART:.*]] = vector.extract_strided_slice %[[V]] {offsets = [0, 0], sizes = [12, 16], strides = [1, 1]} : vector<16x16xf32> to vector<12x16xf32>
// CHECK: scf.if %{{.*}} {
// CHECK:   vector.transfer_write %[[PART]], %{{.*}}[%c0, %c0], %[[MW]] {in_bounds = [true, true]} : vector<12x16xf32>, memref<?x?xf32>
// CHECK: } else {
// CHECK:   scf.for
func.func @bounded_rows(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %m: index, %c: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %r = affine.min affine_map<()[s0] -> (12, s0)>()[%m]
  %mask = vector.create_mask %r, %c : vector<16x16xi1>
  %v = vector.transfer_read %src[%c0, %c0], %pad, %mask {in_bounds = [true, true]}
      : memref<?x?xf32>, vector<16x16xf32>
  vector.transfer_write %v, %dst[%c0, %c0], %mask {in_bounds = [true, true]}
      : vector<16x16xf32>, memref<?x?xf32>
  return
}

// -----

// A static mask of 3 of 8 rows is guarded too (unrolled against a memref of
// 3 rows, the guards of rows 3 to 7 fold away: 3 row writes are left).
// Left alone: masks that keep every row (a constant first size of 8, a
// constant mask of 8 rows), unmasked accesses, 1-D accesses, and accesses
// already possibly out of bounds in their rows.
// CHECK-LABEL: func.func @static_and_whole_rows
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [false, true]} : vector<8x8xf32>, memref<3x?xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true, true]} : vector<8x8xf32>, memref<?x?xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true, true]} : vector<8x8xf32>, memref<?x?xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0] {in_bounds = [true, true]} : vector<8x8xf32>, memref<?x?xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0], %{{.*}} : vector<8x8xf32>, memref<?x?xf32>
// UNROLL-LABEL: func.func @static_and_whole_rows
// UNROLL-COUNT-3: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %c0], %{{.*}} {in_bounds = [true]} : vector<8xf32>, memref<3x?xf32>
// UNROLL-NOT: memref<3x?xf32>
func.func @static_and_whole_rows(%v: vector<8x8xf32>, %w: vector<8xf32>,
                                 %three: memref<3x?xf32>, %m: memref<?x?xf32>,
                                 %c: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %partial = vector.constant_mask [3, 8] : vector<8x8xi1>
  vector.transfer_write %v, %three[%c0, %c0], %partial {in_bounds = [true, true]}
      : vector<8x8xf32>, memref<3x?xf32>
  %whole = vector.create_mask %c8, %c : vector<8x8xi1>
  vector.transfer_write %v, %m[%c0, %c0], %whole {in_bounds = [true, true]}
      : vector<8x8xf32>, memref<?x?xf32>
  %columns = vector.constant_mask [8, 5] : vector<8x8xi1>
  vector.transfer_write %v, %m[%c0, %c0], %columns {in_bounds = [true, true]}
      : vector<8x8xf32>, memref<?x?xf32>
  vector.transfer_write %v, %m[%c0, %c0] {in_bounds = [true, true]}
      : vector<8x8xf32>, memref<?x?xf32>
  %row = vector.create_mask %c : vector<8xi1>
  vector.transfer_write %w, %m[%c0, %c0], %row {in_bounds = [true]}
      : vector<8xf32>, memref<?x?xf32>
  %any = vector.create_mask %c, %c : vector<8x8xi1>
  vector.transfer_write %v, %m[%c0, %c0], %any {in_bounds = [false, false]}
      : vector<8x8xf32>, memref<?x?xf32>
  return
}

// -----

// A mask made once outside a loop, used by a read in it (a register tile's
// column of A read at every step of k, its rows masked at the edge of M):
// one 1-D read per row, a row the mask leaves out read at the first row with
// every lane off, so that no address is past the rows it keeps; the rows'
// indices and masks are of values defined outside the loop (LLVM hoists
// them), no branch at every step.
// CHECK-LABEL: func.func @loop_invariant_mask
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[ROWS:.*]]: index, %[[K:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[K]]
// CHECK-NOT: scf.if
// CHECK: %[[KEEP0:.*]] = arith.cmpi slt, %[[Z:.*]], %[[ROWS]] : index
// CHECK: %[[ROW0:.*]] = arith.select %[[KEEP0]], %{{.*}}, %[[C0]] : index
// CHECK: %[[COLS0:.*]] = arith.select %[[KEEP0]], %[[C1]], %{{.*}} : index
// CHECK: %[[M0:.*]] = vector.create_mask %[[COLS0]] : vector<1xi1>
// CHECK: vector.transfer_read %[[A]][%[[ROW0]], %[[I]]], %{{.*}}, %[[M0]] {in_bounds = [true]} : memref<?x?xf32>, vector<1xf32>
// CHECK: vector.insert %{{.*}} [0] : vector<1xf32> into vector<4x1xf32>
// CHECK: %[[KEEP3:.*]] = arith.cmpi slt, %{{.*}}, %[[ROWS]] : index
// CHECK: %[[ROW3:.*]] = arith.select %[[KEEP3]], %{{.*}}, %[[C0]] : index
// CHECK: vector.transfer_read %[[A]][%[[ROW3]], %[[I]]]
// CHECK: vector.insert %{{.*}} [3] : vector<1xf32> into vector<4x1xf32>
// CHECK-NOT: vector.transfer_read
// CHECK: scf.yield
func.func @loop_invariant_mask(%a: memref<?x?xf32>, %rows: index, %k: index) -> vector<4x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<4x1xf32>
  %m = vector.create_mask %rows, %c1 : vector<4x1xi1>
  %sum = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (vector<4x1xf32>) {
    %v = vector.transfer_read %a[%c0, %i], %pad, %m {in_bounds = [true, true]}
        : memref<?x?xf32>, vector<4x1xf32>
    %next = arith.addf %acc, %v : vector<4x1xf32>
    scf.yield %next : vector<4x1xf32>
  }
  return %sum : vector<4x1xf32>
}

// -----

// The packing of a B read transposed (N x K, few N): blocks of 8 rows of B
// along k, masked to N's rows by a mask made once outside the loop over k.
// The rows were 8 masked loads with all lanes off a whole row of B apart,
// past its end (an assist on Zen 4/5 at every block where that is unmapped:
// a.T @ b.T of 5 x 20000 f32 operands took 2.0 ms, NumPy 0.2). Rows past
// the mask's constant bound (min(N, 3)) are not accessed at all.
// CHECK-LABEL: func.func @loop_invariant_write
// CHECK: scf.for
// CHECK-COUNT-3: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<8xf64>, memref<?x?xf64>
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @loop_invariant_write(%dst: memref<?x?xf64>, %v: vector<8x8xf64>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %rows = affine.min affine_map<()[s0] -> (s0, 3)>()[%n]
  %m = vector.create_mask %rows, %c8 : vector<8x8xi1>
  scf.for %i = %c0 to %k step %c8 {
    vector.transfer_write %v, %dst[%c0, %i], %m {in_bounds = [true, true]}
        : vector<8x8xf64>, memref<?x?xf64>
  }
  return
}

// -----

// In an scf.parallel (a loop over threads' blocks), the buffer is made at
// the start of its body: each iteration, each thread, has its own.
// CHECK-LABEL: func.func @parallel_blocks
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca() : memref<vector<8x8xf64>>
// CHECK: scf.if
func.func @parallel_blocks(%dst: memref<?x?xf64>, %v: vector<8x8xf64>, %n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c8) {
    %r = affine.min affine_map<(d0)[s0] -> (s0 - d0, 8)>(%i)[%n]
    %d = memref.subview %dst[%i, 0] [%r, %c] [1, 1]
        : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %m = vector.create_mask %r, %c : vector<8x8xi1>
    vector.transfer_write %v, %d[%c0, %c0], %m {in_bounds = [true, true]}
        : vector<8x8xf64>, memref<?x?xf64, strided<[?, 1], offset: ?>>
    scf.reduce
  }
  return
}

// -----

// In an scf.for (which declares an automatic allocation scope that its
// lowering to branches does not keep), the buffer is made at the start of
// the function, not of the loop's body: the stack does not grow with the
// iterations.
// CHECK-LABEL: func.func @loop_blocks
// CHECK-NEXT: memref.alloca() : memref<vector<8x8xf64>>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @loop_blocks(%dst: memref<?x?xf64>, %v: vector<8x8xf64>, %n: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c8 {
    %r = affine.min affine_map<(d0)[s0] -> (s0 - d0, 8)>(%i)[%n]
    %d = memref.subview %dst[%i, 0] [%r, %c] [1, 1]
        : memref<?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
    %m = vector.create_mask %r, %c : vector<8x8xi1>
    vector.transfer_write %v, %d[%c0, %c0], %m {in_bounds = [true, true]}
        : vector<8x8xf64>, memref<?x?xf64, strided<[?, 1], offset: ?>>
  }
  return
}
