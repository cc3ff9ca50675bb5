//===- MPIMemoryEffects.cpp - Memory effects of mpi dialect ops -----------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// In LLVM 22, mpi.init, mpi.finalize, mpi.send, mpi.recv and mpi.allreduce
// declare no memory effects, and the ownership-based buffer deallocation
// pass refuses a function holding ops with unknown effects ("ops with
// unknown memory side effects are not supported"). These external models
// state what each op does to its buffers (a send reads its buffer, a
// receive writes its buffer, an allreduce reads the send buffer and writes
// the receive buffer), plus a read and a write of the default resource for
// the communication itself, so that no pass reorders, merges or drops them.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

using Effects =
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>;

/// The communication (or the MPI library's state) as a memory effect.
static void addCommunication(Effects &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

/// mpi.init and mpi.finalize: the MPI library's state only.
template <typename MPIOp>
struct StateEffects
    : MemoryEffectOpInterface::ExternalModel<StateEffects<MPIOp>, MPIOp> {
  void getEffects(Operation *, Effects &effects) const {
    addCommunication(effects);
  }
};

struct SendEffects
    : MemoryEffectOpInterface::ExternalModel<SendEffects, mpi::SendOp> {
  void getEffects(Operation *op, Effects &effects) const {
    effects.emplace_back(MemoryEffects::Read::get(),
                         &cast<mpi::SendOp>(op).getRefMutable());
    addCommunication(effects);
  }
};

struct RecvEffects
    : MemoryEffectOpInterface::ExternalModel<RecvEffects, mpi::RecvOp> {
  void getEffects(Operation *op, Effects &effects) const {
    effects.emplace_back(MemoryEffects::Write::get(),
                         &cast<mpi::RecvOp>(op).getRefMutable());
    addCommunication(effects);
  }
};

struct AllReduceEffects
    : MemoryEffectOpInterface::ExternalModel<AllReduceEffects,
                                             mpi::AllReduceOp> {
  void getEffects(Operation *op, Effects &effects) const {
    auto allReduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &allReduce.getRecvbufMutable());
    addCommunication(effects);
  }
};

} // namespace

void mlir::matrix::registerMPIMemoryEffectModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mpi::MPIDialect *) {
    mpi::InitOp::attachInterface<StateEffects<mpi::InitOp>>(*ctx);
    mpi::FinalizeOp::attachInterface<StateEffects<mpi::FinalizeOp>>(*ctx);
    mpi::SendOp::attachInterface<SendEffects>(*ctx);
    mpi::RecvOp::attachInterface<RecvEffects>(*ctx);
    mpi::AllReduceOp::attachInterface<AllReduceEffects>(*ctx);
  });
}
