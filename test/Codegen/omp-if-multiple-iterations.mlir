// RUN: matc-opt %s --split-input-file --allow-unregistered-dialect --matrix-omp-if-multiple-iterations | FileCheck %s

// The team is forked only when the loop nest has more than one iteration:
// ceildiv(%m - 0, 1) * ceildiv(%n - 0, 2) > 1.
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
