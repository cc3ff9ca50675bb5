// RUN: matc-opt %s --split-input-file --verify-diagnostics --matrix-merge-modules | FileCheck %s

// Copies of one definition are kept once, declarations go where a
// definition is, and two different private definitions of one name are
// both kept, the second renamed in its part (and its uses with it).
// CHECK-LABEL: module {
// CHECK-NEXT: memref.global "private" constant @c : memref<2xf64> = dense<1.000000e+00>
// CHECK-NEXT: llvm.func @puts(!llvm.ptr) -> i32
// CHECK-NEXT: func.func @f() -> memref<2xf64> {
// CHECK-NEXT: %[[F:.*]] = memref.get_global @c : memref<2xf64>
// CHECK-NEXT: return %[[F]]
// CHECK: func.func @g() -> memref<2xf64> {
// CHECK-NEXT: %[[G:.*]] = memref.get_global @c : memref<2xf64>
// CHECK: func.func private @helper(
// CHECK: func.func @h() -> memref<2xf64> {
// CHECK-NEXT: %[[H:.*]] = memref.get_global @c_0 : memref<2xf64>
// CHECK-NEXT: call @f()
// CHECK: memref.global "private" constant @c_0 : memref<2xf64> = dense<2.000000e+00>
// CHECK-NOT: llvm.func @puts
// CHECK-NOT: func.func private
// CHECK-NOT: module
module {
  module {
    memref.global "private" constant @c : memref<2xf64> = dense<1.0>
    llvm.func @puts(!llvm.ptr) -> i32
    func.func @f() -> memref<2xf64> {
      %0 = memref.get_global @c : memref<2xf64>
      return %0 : memref<2xf64>
    }
    func.func @g() -> memref<2xf64> {
      %0 = memref.get_global @c : memref<2xf64>
      return %0 : memref<2xf64>
    }
    func.func private @helper(%x: f64) -> f64 {
      %0 = arith.mulf %x, %x : f64
      return %0 : f64
    }
  }
  module {
    func.func private @f() -> memref<2xf64>
    func.func @h() -> memref<2xf64> {
      %0 = memref.get_global @c : memref<2xf64>
      %1 = call @f() : () -> memref<2xf64>
      return %0 : memref<2xf64>
    }
    llvm.func @puts(!llvm.ptr) -> i32
    func.func private @helper(%y: f64) -> f64 {
      %0 = arith.mulf %y, %y : f64
      return %0 : f64
    }
    memref.global "private" constant @c : memref<2xf64> = dense<2.0>
  }
}

// -----

// A definition after a declaration of its symbol replaces it.
// CHECK-LABEL: module {
// CHECK-NEXT: func.func @main() {
// CHECK-NEXT: call @f()
// CHECK: func.func @f() {
// CHECK-NOT: func.func
module {
  module {
    func.func private @f()
    func.func @main() {
      call @f() : () -> ()
      return
    }
  }
  module {
    func.func @f() {
      return
    }
  }
}

// -----

module {
  module {
    func.func @f() -> i32 {
      %0 = arith.constant 1 : i32
      return %0 : i32
    }
  }
  module {
    // expected-error@+1 {{matrix-merge-modules: two parts define 'f' differently}}
    func.func @f() -> i32 {
      %0 = arith.constant 2 : i32
      return %0 : i32
    }
  }
}

// -----

module {
  module {
    func.func private @f(i32)
  }
  module {
    // expected-error@+1 {{matrix-merge-modules: 'f' has different types in two parts}}
    func.func @f(%a: i64) {
      return
    }
  }
}
