// RUN: matc-opt %s -split-input-file --matrix-erase-shard-grids | FileCheck %s

// A grid nothing refers to is erased; private functions are kept (unlike
// symbol-dce).
// CHECK-NOT: shard.grid
// CHECK: func.func private @unused
shard.grid @matc_grid(shape = 2) {sym_visibility = "private"}
func.func private @unused() {
  return
}

// -----

// A grid still in use stays.
// CHECK: shard.grid @matc_grid
shard.grid @matc_grid(shape = 2) {sym_visibility = "private"}
func.func @main() -> index {
  %r = shard.process_linear_index on @matc_grid : index
  return %r : index
}
