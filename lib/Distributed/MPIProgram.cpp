//===- MPIProgram.cpp - The matrix-mpi-program pass -----------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Wraps the partitioned `main` into an MPI program (Passes.td): MPI_Init,
// a check of the number of processes, output on rank 0 only, MPI_Finalize.
// Errors in MPI calls are left to MPI's default error handler
// (MPI_ERRORS_ARE_FATAL: the job is aborted), so return values are unused.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/Passes.h"

#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXMPIPROGRAM
#include "MatrixDialect/Distributed/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

/// Builds, at the insertion point of `b`, the count of the processes of
/// `comm`: an MPI_Allreduce summing 1 from every rank (LLVM 22's MPIToLLVM
/// lowers no mpi.comm_size). Returns it as an i32.
static Value buildProcessCount(OpBuilder &b, Location loc, Value comm) {
  auto type = MemRefType::get({1}, b.getI32Type());
  Value buffer = memref::AllocaOp::create(b, loc, type);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  memref::StoreOp::create(b, loc, one, buffer, ValueRange{zero});
  mpi::AllReduceOp::create(b, loc, TypeRange{}, buffer, buffer,
                           mpi::MPI_ReductionOpEnum::MPI_SUM, comm);
  return memref::LoadOp::create(b, loc, buffer, ValueRange{zero});
}

namespace {
struct MatrixMPIProgram : matrix::impl::MatrixMPIProgramBase<MatrixMPIProgram> {
  using MatrixMPIProgramBase::MatrixMPIProgramBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!module.lookupSymbol<shard::GridOp>(kGridName))
      return;
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    MLIRContext *ctx = &getContext();

    // MPIToLLVM picks the ABI (handles and constants) from this entry.
    module->setAttr(
        "mpi.dlti",
        MapAttr::get(ctx, {DataLayoutEntryAttr::get(
                              StringAttr::get(ctx, "MPI:Implementation"),
                              StringAttr::get(ctx, "MPICH"))}));

    Location loc = main.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&main.getBody().front());
    mpi::InitOp::create(b, loc, TypeRange{});
    Value comm = mpi::CommWorldOp::create(b, loc, mpi::CommType::get(ctx));
    Value rank =
        mpi::CommRankOp::create(b, loc, TypeRange{b.getI32Type()}, comm)
            .getRank();
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value isRoot =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rank, zero);

    // Started on another number of processes, the collectives would not
    // match: report it (on rank 0) and stop (every rank) before any.
    Value count = buildProcessCount(b, loc, comm);
    Value expected = arith::ConstantIntOp::create(b, loc, ranks, 32);
    Value wrongCount = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                             count, expected);
    auto check = scf::IfOp::create(b, loc, wrongCount, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(check.thenBlock());
      auto report = scf::IfOp::create(b, loc, isRoot, /*withElse=*/false);
      b.setInsertionPointToStart(report.thenBlock());
      Type i32 = b.getI32Type();
      auto ptr = LLVM::LLVMPointerType::get(ctx);
      auto dprintf = LLVM::lookupOrCreateFn(b, module, "dprintf", {i32, ptr},
                                            i32, /*isVarArg=*/true);
      auto exit = LLVM::lookupOrCreateFn(b, module, "exit", {i32},
                                         LLVM::LLVMVoidType::get(ctx));
      if (failed(dprintf) || failed(exit)) {
        module.emitError("cannot declare 'dprintf' and 'exit'");
        return signalPassFailure();
      }
      std::string message =
          ("error: this program was built for " + std::to_string(ranks) +
           " MPI processes (matc --ranks " + std::to_string(ranks) +
           ") but was started on %d; run it with mpiexec -n " +
           std::to_string(ranks) + "\n");
      message.push_back('\0');
      Value format = LLVM::createGlobalString(loc, b, "matc.mpi.wrong_count",
                                              message, LLVM::Linkage::Internal);
      Value stderrFd = arith::ConstantIntOp::create(b, loc, 2, 32);
      LLVM::CallOp::create(b, loc, *dprintf,
                           ValueRange{stderrFd, format, count});
      b.setInsertionPointAfter(report);
      mpi::FinalizeOp::create(b, loc, TypeRange{});
      Value status = arith::ConstantIntOp::create(b, loc, 1, 32);
      LLVM::CallOp::create(b, loc, *exit, ValueRange{status});
    }

    // Output on rank 0 only; every matrix.print reads a replicated value.
    main.walk([&](PrintOp print) {
      b.setInsertionPoint(print);
      auto onRoot = scf::IfOp::create(b, print.getLoc(), isRoot,
                                      /*withElse=*/false);
      print->moveBefore(onRoot.thenBlock()->getTerminator());
    });

    main.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      mpi::FinalizeOp::create(b, ret.getLoc(), TypeRange{});
    });
  }
};
} // namespace
