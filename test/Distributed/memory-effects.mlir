// RUN: matc-opt %s --buffer-deallocation-pipeline | FileCheck %s

// The mpi ops have memory effects (registered by matc for LLVM 22, which
// declares none): the ownership-based deallocation accepts them and frees
// the buffers they read and write after them.
// CHECK-LABEL: func.func @exchange
// CHECK: mpi.init
// CHECK: mpi.send(%[[S:.*]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: mpi.recv(%[[R:.*]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: mpi.allreduce(%[[R]], %[[R]], MPI_SUM, %{{.*}})
// CHECK: mpi.finalize
// CHECK-DAG: memref.dealloc %[[S]]
// CHECK-DAG: memref.dealloc %[[R]]
func.func @exchange(%peer: i32) {
  mpi.init
  %comm = mpi.comm_world : !mpi.comm
  %tag = arith.constant 0 : i32
  %s = memref.alloc() : memref<8xf64>
  %r = memref.alloc() : memref<8xf64>
  mpi.send(%s, %tag, %peer, %comm) : memref<8xf64>, i32, i32
  mpi.recv(%r, %tag, %peer, %comm) : memref<8xf64>, i32, i32
  mpi.allreduce(%r, %r, MPI_SUM, %comm) : memref<8xf64>, memref<8xf64>
  mpi.finalize
  return
}
