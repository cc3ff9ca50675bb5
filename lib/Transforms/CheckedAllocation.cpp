//===- CheckedAllocation.cpp - Out of memory as a clear error -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Gives bodies to the generic allocation functions that
// finalize-memref-to-llvm{use-generic-functions} calls: a malloc whose null
// result prints a message and exits with status 1, and a plain free.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXCHECKEDALLOCATION
#include "MatrixDialect/Transforms/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// The functions finalize-memref-to-llvm{use-generic-functions} calls.
static constexpr const char *kAllocName = "_mlir_memref_to_llvm_alloc";
static constexpr const char *kFreeName = "_mlir_memref_to_llvm_free";

/// Returns the declaration of C library function `name` in `module`,
/// adding one of type `type` if it is missing.
static LLVM::LLVMFuncOp getOrDeclare(OpBuilder &b, ModuleOp module,
                                     StringRef name,
                                     LLVM::LLVMFunctionType type) {
  if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return func;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

/// `ptr _mlir_memref_to_llvm_alloc(i64 size)`: malloc, or on failure
/// `fprintf(stderr, "error: out of memory: ...")` and `exit(1)`.
static void defineAlloc(OpBuilder &b, ModuleOp module, LLVM::LLVMFuncOp alloc) {
  MLIRContext *ctx = b.getContext();
  Location loc = alloc.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32);
  auto i64 = IntegerType::get(ctx, 64);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  LLVM::LLVMFuncOp malloc =
      getOrDeclare(b, module, "malloc", LLVM::LLVMFunctionType::get(ptr, i64));
  LLVM::LLVMFuncOp fprintf = getOrDeclare(
      b, module, "fprintf",
      LLVM::LLVMFunctionType::get(i32, {ptr, ptr}, /*isVarArg=*/true));
  LLVM::LLVMFuncOp exit = getOrDeclare(
      b, module, "exit", LLVM::LLVMFunctionType::get(voidType, i32));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto stderrGlobal = module.lookupSymbol<LLVM::GlobalOp>("stderr");
  if (!stderrGlobal)
    stderrGlobal = LLVM::GlobalOp::create(b, loc, ptr, /*isConstant=*/false,
                                          LLVM::Linkage::External, "stderr",
                                          Attribute());
  StringRef text = "error: out of memory: cannot allocate %llu bytes\n";
  std::string message = text.str() + '\0';
  auto messageGlobal = LLVM::GlobalOp::create(
      b, loc, LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), message.size()),
      /*isConstant=*/true, LLVM::Linkage::Internal, "matc.oom.message",
      b.getStringAttr(message));

  alloc.setLinkage(LLVM::Linkage::Internal);
  Block *entry = alloc.addEntryBlock(b);
  Block *failed = b.createBlock(&alloc.getBody());
  Block *done = b.createBlock(&alloc.getBody());

  b.setInsertionPointToEnd(entry);
  Value size = entry->getArgument(0);
  Value memory = LLVM::CallOp::create(b, loc, malloc, size).getResult();
  Value null = LLVM::ZeroOp::create(b, loc, ptr);
  Value isNull =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, memory, null);
  LLVM::CondBrOp::create(b, loc, isNull, failed, done);

  b.setInsertionPointToEnd(failed);
  Value stream = LLVM::LoadOp::create(
      b, loc, ptr, LLVM::AddressOfOp::create(b, loc, stderrGlobal));
  LLVM::CallOp::create(
      b, loc, fprintf,
      ValueRange{stream, LLVM::AddressOfOp::create(b, loc, messageGlobal),
                 size});
  Value one = LLVM::ConstantOp::create(b, loc, i32, 1);
  LLVM::CallOp::create(b, loc, exit, one);
  LLVM::UnreachableOp::create(b, loc);

  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, memory);
}

/// `void _mlir_memref_to_llvm_free(ptr p)`: free(p).
static void defineFree(OpBuilder &b, ModuleOp module,
                       LLVM::LLVMFuncOp freeFunc) {
  MLIRContext *ctx = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  LLVM::LLVMFuncOp free = getOrDeclare(
      b, module, "free",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), ptr));
  OpBuilder::InsertionGuard guard(b);
  freeFunc.setLinkage(LLVM::Linkage::Internal);
  Block *entry = freeFunc.addEntryBlock(b);
  b.setInsertionPointToEnd(entry);
  LLVM::CallOp::create(b, freeFunc.getLoc(), free, entry->getArgument(0));
  LLVM::ReturnOp::create(b, freeFunc.getLoc(), ValueRange());
}

namespace {
struct MatrixCheckedAllocation
    : matrix::impl::MatrixCheckedAllocationBase<MatrixCheckedAllocation> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    auto alloc = module.lookupSymbol<LLVM::LLVMFuncOp>(kAllocName);
    if (alloc && alloc.isExternal())
      defineAlloc(b, module, alloc);
    auto freeFunc = module.lookupSymbol<LLVM::LLVMFuncOp>(kFreeName);
    if (freeFunc && freeFunc.isExternal())
      defineFree(b, module, freeFunc);
  }
};
} // namespace
