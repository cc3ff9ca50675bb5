// RUN: matc-opt %s -split-input-file --matrix-mpi-program='ranks=3' | FileCheck %s

// MPI_Init first, then the process count (an allreduce of ones: LLVM 22
// lowers no mpi.comm_size) against the 3 ranks built for: rank 0 reports a
// mismatch, every rank finalizes and exits with status 1. Prints run on
// rank 0 only; MPI_Finalize before the return.
// CHECK: module attributes {mpi.dlti = #dlti.map<"MPI:Implementation" = "MPICH">}
// CHECK: llvm.mlir.global internal constant @matc.mpi.wrong_count("error: this program was built for 3 MPI processes (matc --ranks 3) but was started on %d; run it with mpiexec -n 3\0A\00")
// CHECK-LABEL: func.func @main
// CHECK-NEXT: mpi.init
// CHECK-NEXT: %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK-NEXT: %[[RANK:.*]] = mpi.comm_rank(%[[COMM]]) : i32
// CHECK: %[[ROOT:.*]] = arith.cmpi eq, %[[RANK]], %{{.*}} : i32
// CHECK: %[[ONES:.*]] = memref.alloca() : memref<1xi32>
// CHECK: mpi.allreduce(%[[ONES]], %[[ONES]], MPI_SUM, %[[COMM]]) : memref<1xi32>, memref<1xi32>
// CHECK: %[[COUNT:.*]] = memref.load %[[ONES]]
// CHECK: %[[WRONG:.*]] = arith.cmpi ne, %[[COUNT]], %{{.*}} : i32
// CHECK: scf.if %[[WRONG]] {
// CHECK:   scf.if %[[ROOT]] {
// CHECK:     llvm.call @dprintf(%{{.*}}, %{{.*}}, %[[COUNT]])
// CHECK:   }
// CHECK:   mpi.finalize
// CHECK:   llvm.call @exit
// CHECK: }
// CHECK: scf.if %[[ROOT]] {
// CHECK-NEXT: matrix.print %{{.*}} : tensor<2x2xf64>
// CHECK-NEXT: }
// CHECK: mpi.finalize
// CHECK-NEXT: return
shard.grid @matc_grid(shape = 3) {sym_visibility = "private"}
func.func @main() {
  %a = arith.constant dense<1.0> : tensor<2x2xf64>
  matrix.print %a : tensor<2x2xf64>
  return
}

// -----

// Without the grid of matrix-shard the program is not an MPI program.
// CHECK-NOT: mpi.
// CHECK-LABEL: func.func @main
// CHECK-NOT: mpi.
func.func @main() {
  %a = arith.constant dense<1.0> : tensor<2x2xf64>
  matrix.print %a : tensor<2x2xf64>
  return
}
