// RUN: matc-opt %s --verify-diagnostics --matrix-split-module="parts=2 min-ops=0"

// expected-error@+1 {{matrix-split-module: the module is already split}}
module {
  module {
    func.func @f() {
      return
    }
  }
}
