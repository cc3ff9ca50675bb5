// RUN: matc-opt %s --matrix-outline-long-blocks=max-ops=13 | FileCheck %s

// More than 8 scalar results go through memory: the caller passes a stack
// buffer per element type, the part stores them, and the part that uses
// them loads them itself (the loads move into its run). A struct of
// hundreds of returned scalars made LLVM's SCCP quadratic (issue 13: a
// 25 x 25 literal of scalar expressions, 6 s at -O2 -c).
// CHECK-LABEL: func.func private @scalars.part0
// CHECK-SAME: (%{{.*}}: f64, %[[I:.*]]: memref<1xi64>, %[[F:.*]]: memref<9xf64>)
// CHECK-SAME: -> memref<4xf64>
// CHECK: memref.store %{{.*}}, %[[I]][%{{.*}}] : memref<1xi64>
// CHECK-COUNT-9: memref.store %{{.*}}, %[[F]][%{{.*}}] : memref<9xf64>
// CHECK: return %{{.*}} : memref<4xf64>
// CHECK-LABEL: func.func private @scalars.part1
// CHECK-SAME: (%[[IB:.*]]: memref<1xi64>, %[[FB:.*]]: memref<9xf64>, %{{.*}}: memref<4xf64>)
// CHECK: memref.load %[[IB]]
// CHECK-COUNT-9: memref.load %[[FB]]
// CHECK-LABEL: func.func @scalars
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[IA:.*]] = memref.alloca() : memref<1xi64>
// CHECK-NEXT: %[[FA:.*]] = memref.alloca() : memref<9xf64>
// CHECK-NEXT: %[[A:.*]] = call @scalars.part0(%{{.*}}, %[[IA]], %[[FA]])
// CHECK-NEXT: call @scalars.part1(%[[IA]], %[[FA]], %[[A]])
// CHECK-NEXT: return
func.func @scalars(%s: f64) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf64>
  %n = arith.fptosi %s : f64 to i64
  %v0 = arith.addf %s, %s : f64
  %v1 = arith.mulf %s, %s : f64
  %v2 = arith.subf %s, %v0 : f64
  %v3 = arith.addf %v1, %v2 : f64
  %v4 = arith.mulf %v3, %v3 : f64
  %v5 = arith.addf %v4, %s : f64
  %v6 = arith.mulf %v5, %s : f64
  %v7 = arith.addf %v6, %v0 : f64
  %v8 = arith.mulf %v7, %v1 : f64
  %v9 = arith.addf %v8, %v2 : f64
  memref.store %v0, %a[%c0] : memref<4xf64>
  memref.store %v1, %a[%c0] : memref<4xf64>
  memref.store %v2, %a[%c0] : memref<4xf64>
  memref.store %v3, %a[%c0] : memref<4xf64>
  memref.store %v4, %a[%c0] : memref<4xf64>
  memref.store %v5, %a[%c0] : memref<4xf64>
  memref.store %v6, %a[%c0] : memref<4xf64>
  memref.store %v7, %a[%c0] : memref<4xf64>
  memref.store %v8, %a[%c0] : memref<4xf64>
  memref.store %v9, %a[%c0] : memref<4xf64>
  %f = arith.sitofp %n : i64 to f64
  memref.store %f, %a[%c0] : memref<4xf64>
  memref.dealloc %a : memref<4xf64>
  return
}
