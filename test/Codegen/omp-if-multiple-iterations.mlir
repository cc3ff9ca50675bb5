// RUN: matc-opt %s --split-input-file --allow-unregistered-dialect --matrix-omp-if-multiple-iterations="min-elements=100 min-elements-elementwise=400" | FileCheck %s
// The defaults: 65536 result elements for products and for elementwise
// loops alike (Passes.td has the measurements).
// RUN: matc-opt %s --split-input-file --allow-unregistered-dialect --matrix-omp-if-multiple-iterations | FileCheck %s --check-prefix=DEFAULT

// The team is forked only when the loop nest has more than one iteration:
// ceildiv(%m - 0, 1) * ceildiv(%n - 0, 2) > 1 (nothing written outside the
// region: no condition on the result size).
// CHECK-LABEL: func.func @tiles
// CHECK-SAME: (%[[M:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[S0:.*]] = arith.subi %[[M]], %[[C0]]
// CHECK: %[[T0:.*]] = arith.ceildivsi %[[S0]], %[[C1]]
// CHECK: %[[S1:.*]] = arith.subi %[[N]], %[[C0]]
// CHECK: %[[T1:.*]] = arith.ceildivsi %[[S1]], %[[C2]]
// CHECK: %[[T:.*]] = arith.muli %[[T0]], %[[T1]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[MANY:.*]] = arith.cmpi sgt, %[[T]], %[[ONE]]
// CHECK: omp.parallel if(%[[MANY]])
func.func @tiles(%m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%m, %n) step (%c1, %c2) {
        "test.use"(%i, %j) : (index, index) -> ()
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Left alone: a parallel region that already has an if clause, one whose
// loop bounds are computed inside the region, and one without a
// worksharing loop.
// CHECK-LABEL: func.func @kept
// CHECK: omp.parallel if(%{{.*}}) {
// CHECK: omp.parallel {
// CHECK: omp.parallel {
// CHECK-NOT: if(
func.func @kept(%m: index, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel if(%cond) {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%m) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    %n = arith.addi %m, %c1 : index
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    "test.use"(%m) : (index) -> ()
    omp.terminator
  }
  return
}

// -----

// The loop writes a buffer defined outside the region (through a subview):
// the team is forked only if that buffer has at least
// min-elements-elementwise elements (here 400): no product in the loop.
// CHECK-LABEL: func.func @result_size
// CHECK-SAME: (%[[OUT:.*]]: memref<?x?xf32>, %[[N:.*]]: index)
// CHECK: %[[MANY:.*]] = arith.cmpi sgt
// CHECK: %[[D0:.*]] = memref.dim %[[OUT]], %{{.*}}
// CHECK: %[[E0:.*]] = arith.muli %{{.*}}, %[[D0]]
// CHECK: %[[D1:.*]] = memref.dim %[[OUT]], %{{.*}}
// CHECK: %[[E1:.*]] = arith.muli %[[E0]], %[[D1]]
// CHECK: %[[MIN:.*]] = arith.constant 400 : index
// DEFAULT-LABEL: func.func @result_size
// DEFAULT: arith.constant 65536 : index
// DEFAULT: omp.parallel if(
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %[[E1]], %[[MIN]]
// CHECK: %[[WORTH:.*]] = arith.andi %[[MANY]], %[[BIG]]
// CHECK: omp.parallel if(%[[WORTH]])
func.func @result_size(%out: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %row = memref.subview %out[%i, 0] [1, 1] [1, 1] : memref<?x?xf32> to memref<1x1xf32, strided<[?, 1], offset: ?>>
        %tmp = memref.alloca() : memref<4xf32>
        memref.store %f, %tmp[%c0] : memref<4xf32>
        memref.store %f, %row[%c0, %c0] : memref<1x1xf32, strided<[?, 1], offset: ?>>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A loop with a register kernel (vector.fma) computes a product: k
// multiply-adds per element written, the threshold is min-elements (100).
// CHECK-LABEL: func.func @product_size
// DEFAULT-LABEL: func.func @product_size
// DEFAULT: arith.constant 65536 : index
// CHECK: %[[MIN:.*]] = arith.constant 100 : index
// CHECK: arith.cmpi sge, %{{.*}}, %[[MIN]]
// CHECK: omp.parallel if(
func.func @product_size(%out: memref<?x16xf32>, %n: index, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %acc = vector.fma %v, %v, %v : vector<16xf32>
        vector.store %acc, %out[%i, %c0] : memref<?x16xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A product counts the buffers it reads too: an n x 16 result of an n x k
// A (k multiply-adds per element) is as much work as a square result of
// that A. Regression: only the result counted, so (a @ b) @ v of 256 x 256
// matrices ran its two n x 16 products on one thread.
// CHECK-LABEL: func.func @product_operands
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?x16xf32>, %[[N:.*]]: index)
// CHECK: memref.dim %[[A]]
// CHECK: %[[AK:.*]] = memref.dim %[[A]]
// CHECK: %[[AE:.*]] = arith.muli %{{.*}}, %[[AK]]
// CHECK: memref.dim %[[OUT]]
// CHECK: %[[OC:.*]] = memref.dim %[[OUT]]
// CHECK: %[[OE:.*]] = arith.muli %{{.*}}, %[[OC]]
// CHECK: %[[MAX:.*]] = arith.maxsi %[[AE]], %[[OE]]
// CHECK: arith.cmpi sge, %[[MAX]], %{{.*}}
// CHECK: omp.parallel if(
func.func @product_operands(%a: memref<?x?xf32>, %out: memref<?x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %x = vector.transfer_read %a[%i, %c0], %z {in_bounds = [true]} : memref<?x?xf32>, vector<16xf32>
        %acc = vector.fma %x, %x, %x : vector<16xf32>
        vector.store %acc, %out[%i, %c0] : memref<?x16xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An elementwise loop counts what it writes only (a few operations per
// element, whatever it reads).
// CHECK-LABEL: func.func @elementwise_reads
// CHECK-SAME: (%[[IN:.*]]: memref<?x?xf32>, %[[OUT:.*]]: memref<?x16xf32>, %[[N:.*]]: index)
// CHECK-NOT: memref.dim %[[IN]]
// CHECK: omp.parallel if(
func.func @elementwise_reads(%in: memref<?x?xf32>, %out: memref<?x16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %x = vector.transfer_read %in[%i, %c0], %z {in_bounds = [true]} : memref<?x?xf32>, vector<16xf32>
        %y = arith.addf %x, %x : vector<16xf32>
        vector.store %y, %out[%i, %c0] : memref<?x16xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A matrix-vector product (the dot products of Schedule.mlir's
// @tile_dot_rows: multiply-adds along k, added up across the lanes once per
// row) counts its operands as a product does: its result has one element
// per row of A. Regression: counted as elementwise, a 1024 x 1024 A ran on
// one thread.
// CHECK-LABEL: func.func @dot_products
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>, %[[OUT:.*]]: memref<?xf64>, %[[N:.*]]: index)
// CHECK: memref.dim %[[A]]
// CHECK: %[[AK:.*]] = memref.dim %[[A]]
// CHECK: %[[AE:.*]] = arith.muli %{{.*}}, %[[AK]]
// CHECK: arith.maxsi
// CHECK: omp.parallel if(
func.func @dot_products(%a: memref<?x?xf64>, %out: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %x = vector.transfer_read %a[%i, %c0], %z {in_bounds = [true]} : memref<?x?xf64>, vector<8xf64>
        %p = arith.mulf %x, %x fastmath<contract> : vector<8xf64>
        %s = vector.reduction <add>, %p : vector<8xf64> into f64
        memref.store %s, %out[%i] : memref<?xf64>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
