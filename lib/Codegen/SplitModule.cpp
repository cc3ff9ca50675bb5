//===- SplitModule.cpp - Nested modules lowered in parallel ---------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-split-module and matrix-merge-modules passes (Passes.td): the
// public functions of a module go into nested modules, each with what it
// refers to, so that MLIR's pass manager lowers them on several threads;
// afterwards they are put back into one module.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <numeric>

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXSPLITMODULE
#define GEN_PASS_DEF_MATRIXMERGEMODULES
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// Whether `op` goes into exactly one part: a function definition, or an op
/// that is no symbol. Other symbols (globals, external declarations) are
/// copied into each part that refers to them.
static bool isPlacedOnce(Operation *op) {
  if (!isa<SymbolOpInterface>(op))
    return true;
  auto function = dyn_cast<func::FuncOp>(op);
  return function && !function.isExternal();
}

/// A declaration of `function` (defined in another part) for its callers:
/// private, no body, none of the definition's discardable attributes (the C
/// interface's, say).
static func::FuncOp makeDeclaration(func::FuncOp function) {
  auto declaration = cast<func::FuncOp>(function->cloneWithoutRegions());
  declaration->setDiscardableAttrs(DictionaryAttr::get(function.getContext()));
  declaration.setPrivate();
  return declaration;
}

namespace {
struct MatrixSplitModulePass
    : matrix::impl::MatrixSplitModuleBase<MatrixSplitModulePass> {
  using MatrixSplitModuleBase::MatrixSplitModuleBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Block *body = module.getBody();
    if (!body->getOps<ModuleOp>().empty()) {
      module.emitError("matrix-split-module: the module is already split");
      return signalPassFailure();
    }
    SmallVector<Operation *> ops =
        llvm::to_vector(llvm::make_pointer_range(*body));
    DenseMap<Operation *, unsigned> index;
    for (auto [i, op] : llvm::enumerate(ops))
      index[op] = i;

    // The functions go to the least loaded part, largest first (Graham's
    // LPT rule); the ops that are no symbol to part 0.
    SmallVector<int64_t> weight(ops.size(), 0);
    int64_t total = 0;
    SmallVector<unsigned> placed;
    for (auto [i, op] : llvm::enumerate(ops)) {
      weight[i] = matrix::countNestedOps(op);
      total += weight[i];
      if (isPlacedOnce(op))
        placed.push_back(i);
    }
    unsigned numParts =
        parts <= 1 || total < minOps
            ? 1
            : std::max<unsigned>(1, std::min<size_t>(parts, placed.size()));
    constexpr unsigned kNone = ~0u;
    SmallVector<unsigned> partOf(ops.size(), kNone);
    SmallVector<int64_t> load(numParts, 0);
    SmallVector<unsigned> order(placed);
    llvm::sort(order, [&](unsigned a, unsigned b) {
      return std::make_pair(-weight[a], a) < std::make_pair(-weight[b], b);
    });
    for (unsigned i : order) {
      unsigned part = 0;
      if (isa<SymbolOpInterface>(ops[i]))
        part = std::min_element(load.begin(), load.end()) - load.begin();
      partOf[i] = part;
      load[part] += weight[i];
    }

    // What each part refers to of the other ops: a declaration of another
    // part's function, a copy of any other symbol (and what that refers to).
    SymbolTable symbols(module);
    SmallVector<llvm::SetVector<unsigned>> copied(numParts), declared(numParts);
    llvm::BitVector used(ops.size());
    for (unsigned part = 0; part < numParts; ++part) {
      SmallVector<unsigned> worklist;
      for (unsigned i : placed)
        if (partOf[i] == part)
          worklist.push_back(i);
      while (!worklist.empty()) {
        unsigned i = worklist.pop_back_val();
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(ops[i]);
        if (!uses)
          continue;
        for (const SymbolTable::SymbolUse &use : *uses) {
          Operation *target =
              symbols.lookup(use.getSymbolRef().getRootReference());
          if (!target || target->getBlock() != body)
            continue;
          unsigned j = index.lookup(target);
          if (partOf[j] == part)
            continue;
          if (partOf[j] != kNone) {
            declared[part].insert(j);
            continue;
          }
          if (copied[part].insert(j)) {
            used.set(j);
            worklist.push_back(j);
          }
        }
      }
    }
    // Symbols nobody refers to stay, in part 0.
    for (unsigned i = 0; i < ops.size(); ++i)
      if (partOf[i] == kNone && !used.test(i))
        copied[0].insert(i);

    // Each part in the module's order: its ops moved, the needed ones
    // copied, the other parts' functions declared; then the copied
    // originals go.
    OpBuilder builder(module.getContext());
    builder.setInsertionPointToEnd(body);
    for (unsigned part = 0; part < numParts; ++part) {
      auto nested = ModuleOp::create(builder, module.getLoc());
      for (NamedAttribute attr : module->getAttrs())
        if (attr.getName() != SymbolTable::getSymbolAttrName() &&
            attr.getName() != SymbolTable::getVisibilityAttrName())
          nested->setAttr(attr.getName(), attr.getValue());
      Block *partBody = nested.getBody();
      for (auto [i, op] : llvm::enumerate(ops)) {
        if (partOf[i] == part)
          op->moveBefore(partBody, partBody->end());
        else if (copied[part].contains(i))
          partBody->push_back(op->clone());
        else if (declared[part].contains(i))
          partBody->push_back(makeDeclaration(cast<func::FuncOp>(op)));
      }
    }
    for (auto [i, op] : llvm::enumerate(ops))
      if (partOf[i] == kNone)
        op->erase();
  }
};
} // namespace

/// Whether the definitions `a` and `b` are the same op: same attributes,
/// and regions equal up to the renaming of their values.
static bool isSameDefinition(Operation *a, Operation *b) {
  DenseMap<Value, Value> equivalent;
  return OperationEquivalence::isEquivalentTo(
      a, b,
      [&](Value x, Value y) {
        return success(x == y || equivalent.lookup(x) == y);
      },
      [&](Value x, Value y) { equivalent[x] = y; },
      OperationEquivalence::IgnoreLocations);
}

/// Whether `symbol` only declares: a function without a body (llvm.func
/// does not say so through SymbolOpInterface), or what the symbol says.
static bool isDeclaration(Operation *symbol) {
  if (auto function = dyn_cast<FunctionOpInterface>(symbol))
    return function.isExternal();
  return cast<SymbolOpInterface>(symbol).isDeclaration();
}

/// The type of a function-like symbol, null for others.
static Type getFunctionType(Operation *op) {
  if (auto function = dyn_cast<FunctionOpInterface>(op))
    return function.getFunctionType();
  return {};
}

namespace {
struct MatrixMergeModulesPass
    : matrix::impl::MatrixMergeModulesBase<MatrixMergeModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ModuleOp> parts =
        llvm::to_vector(module.getBody()->getOps<ModuleOp>());
    // The symbols already moved into `module`, by name.
    llvm::DenseMap<StringAttr, Operation *> merged;
    for (Operation &op : *module.getBody())
      if (auto symbol = dyn_cast<SymbolOpInterface>(&op))
        merged[symbol.getNameAttr()] = &op;
    for (ModuleOp part : parts) {
      // First, while every use is still in the part, a private definition
      // that only shares its name with one already merged (say, constants
      // two parts' bufferization named alike) is renamed.
      SymbolTable partSymbols(part);
      for (Operation &op : *part.getBody()) {
        auto symbol = dyn_cast<SymbolOpInterface>(&op);
        if (!symbol || isDeclaration(&op))
          continue;
        Operation *existing = merged.lookup(symbol.getNameAttr());
        if (!existing || isDeclaration(existing) ||
            isSameDefinition(&op, existing))
          continue;
        if (symbol.isPublic()) {
          op.emitError("matrix-merge-modules: two parts define '")
              << symbol.getName() << "' differently";
          return signalPassFailure();
        }
        std::string base = symbol.getName().str();
        StringAttr name;
        for (unsigned suffix = 0;; ++suffix) {
          name = StringAttr::get(module.getContext(),
                                 base + "_" + std::to_string(suffix));
          if (!merged.count(name) && !partSymbols.lookup(name))
            break;
        }
        if (failed(partSymbols.rename(&op, name))) {
          op.emitError("matrix-merge-modules: cannot rename '") << base << "'";
          return signalPassFailure();
        }
      }
      // Then every op moves, but for a second copy of a definition or a
      // declaration of a symbol already there.
      for (Operation &op : llvm::make_early_inc_range(*part.getBody())) {
        auto symbol = dyn_cast<SymbolOpInterface>(&op);
        if (!symbol) {
          op.moveBefore(part);
          continue;
        }
        Operation *existing = merged.lookup(symbol.getNameAttr());
        if (existing && (isDeclaration(&op) ||
                         isDeclaration(existing)) &&
            getFunctionType(&op) != getFunctionType(existing)) {
          op.emitError("matrix-merge-modules: '")
              << symbol.getName()
              << "' has different types in two parts";
          return signalPassFailure();
        }
        if (existing && isDeclaration(&op)) {
          op.erase();
          continue;
        }
        if (existing && !isDeclaration(existing)) {
          op.erase(); // the same definition (renamed above otherwise)
          continue;
        }
        if (existing)
          existing->erase();
        merged[symbol.getNameAttr()] = &op;
        op.moveBefore(part);
      }
      part.erase();
    }
  }
};
} // namespace
