// The distributed pipeline (ranks > 1), stage by stage, on a Mat function
// (inlined) that transposes its argument and a product printed by main.
// RUN: matc-opt %s --matrix-to-linalg='ranks=2 shard-min-elements=1 opt-level=0' | FileCheck %s --check-prefix=LINALG
// RUN: matc-opt %s --matrix-to-affine='ranks=2 shard-min-elements=1 opt-level=0' | FileCheck %s --check-prefix=AFFINE
// RUN: matc-opt %s --matrix-to-llvm='ranks=2 shard-min-elements=1' | FileCheck %s --check-prefix=LLVM
// RUN: matc-opt %s --matrix-to-llvm='ranks=1' | FileCheck %s --check-prefix=ONE

// The Linalg stage: one function, the program of one rank, with shard collectives:
// the transpose of a split matrix (all_to_all), the right operand of the
// product (all_gather), the printed result (all_gather).
// LINALG-NOT: func.func @mat_f
// LINALG: shard.grid @matc_grid(shape = 2)
// LINALG-NOT: func.func @mat_f
// LINALG-LABEL: func.func @main
// LINALG: mpi.init
// LINALG-DAG: %[[T:.*]] = shard.all_to_all %{{.*}} on @matc_grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xf64> -> tensor<8x4xf64>
// LINALG-DAG: %[[ALL:.*]] = shard.all_gather %{{.*}} : tensor<4x8xf64> -> tensor<8x8xf64>
// LINALG: %[[TT:.*]] = linalg.transpose ins(%[[T]] : tensor<8x4xf64>)
// LINALG: linalg.matmul ins(%[[TT]], %[[ALL]] : {{.*}} -> tensor<4x8xf64>
// LINALG: shard.all_gather %{{.*}} : tensor<4x8xf64> -> tensor<8x8xf64>
// LINALG: scf.if
// LINALG: call @matc.print.f64
// LINALG: mpi.finalize
// LINALG-NOT: func.func @
// LINALG: func.func private @matc.print.f64
// LINALG: llvm.call @printf
// LINALG-NOT: func.func @

// The Affine stage: the collectives are MPI point-to-point messages of 1-D buffers.
// AFFINE-NOT: shard.
// AFFINE-LABEL: func.func @main
// AFFINE: mpi.send(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : memref<{{[0-9]+}}xf64, strided<[1], offset: ?>>, i32, i32
// AFFINE: mpi.recv(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : memref<{{[0-9]+}}xf64, strided<[1], offset: ?>>, i32, i32
// AFFINE-NOT: shard.

// The LLVM dialect: calls of MPICH (its handles are integers: MPI_COMM_WORLD is
// 0x44000000, MPI_DOUBLE 0x4c00080b).
// LLVM-NOT: shard.
// LLVM-DAG: llvm.func @MPI_Init(!llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.func @MPI_Send(!llvm.ptr, i32, i32, i32, i32, i32) -> i32
// LLVM-DAG: llvm.func @MPI_Recv(!llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr) -> i32
// LLVM-DAG: llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
// LLVM-DAG: llvm.func @MPI_Finalize() -> i32
// LLVM: llvm.func @main()
// LLVM: llvm.mlir.constant(1140850688 : i64)
// LLVM: llvm.call @MPI_Init
// LLVM: llvm.call @MPI_Send(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// LLVM: llvm.call @MPI_Finalize
// LLVM-NOT: mpi.

// ONE-NOT: mpi.
// ONE-NOT: MPI_

func.func @mat_f(%a: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %t = matrix.transpose %a : tensor<8x8xf64> -> tensor<8x8xf64>
  return %t : tensor<8x8xf64>
}
func.func @main() {
  %a = matrix.iota : tensor<8x8xf64>
  %t = call @mat_f(%a) : (tensor<8x8xf64>) -> tensor<8x8xf64>
  %p = matrix.matmul %t, %a : tensor<8x8xf64>, tensor<8x8xf64> -> tensor<8x8xf64>
  matrix.print %p : tensor<8x8xf64>
  return
}
