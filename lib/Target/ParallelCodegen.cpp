//===- ParallelCodegen.cpp - LLVM optimization and codegen on threads ------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Target/ParallelCodegen.h"
#include "MatrixDialect/Target/Target.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Support/Timing.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::matrix;

/// Adds to `uses` the global values `constant` refers to, looking through
/// constant expressions and aggregates.
static void collectGlobalValues(const llvm::Constant *constant,
                                llvm::SetVector<const llvm::GlobalValue *> &uses,
                                llvm::DenseSet<const llvm::Constant *> &seen) {
  if (!seen.insert(constant).second)
    return;
  if (const auto *global = dyn_cast<llvm::GlobalValue>(constant)) {
    uses.insert(global);
    return;
  }
  for (const llvm::Value *operand : constant->operands())
    if (const auto *c = dyn_cast<llvm::Constant>(operand))
      collectGlobalValues(c, uses, seen);
}

/// The global values the definition of `global` refers to directly.
static llvm::SetVector<const llvm::GlobalValue *>
getReferencedGlobals(const llvm::GlobalValue &global) {
  llvm::SetVector<const llvm::GlobalValue *> uses;
  llvm::DenseSet<const llvm::Constant *> seen;
  if (const auto *variable = dyn_cast<llvm::GlobalVariable>(&global)) {
    if (variable->hasInitializer())
      collectGlobalValues(variable->getInitializer(), uses, seen);
    return uses;
  }
  const auto &function = cast<llvm::Function>(global);
  for (const llvm::BasicBlock &block : function)
    for (const llvm::Instruction &instruction : block)
      for (const llvm::Value *operand : instruction.operands())
        if (const auto *c = dyn_cast<llvm::Constant>(operand))
          collectGlobalValues(c, uses, seen);
  if (function.hasPersonalityFn())
    collectGlobalValues(function.getPersonalityFn(), uses, seen);
  return uses;
}

static unsigned getInstructionCount(const llvm::GlobalValue &global) {
  const auto *function = dyn_cast<llvm::Function>(&global);
  return function ? function->getInstructionCount() : 1;
}

/// Internal functions up to this many instructions (the allocation
/// wrappers of finalize-memref-to-llvm, say) are copied into every
/// partition that calls them rather than made visible to the others.
static constexpr unsigned kCopiedFunctionInstructions = 64;

/// Whether `global`, a definition, is copied into each partition that uses
/// it: an internal constant, or a small internal function that refers to
/// no internal function (a copy of a caller would make its callee visible
/// to the other partitions all the same).
static bool isCopied(const llvm::GlobalValue &global) {
  if (!global.hasLocalLinkage())
    return false;
  if (const auto *variable = dyn_cast<llvm::GlobalVariable>(&global))
    return variable->isConstant();
  if (getInstructionCount(global) > kCopiedFunctionInstructions)
    return false;
  return llvm::none_of(getReferencedGlobals(global),
                       [](const llvm::GlobalValue *used) {
                         return isa<llvm::Function>(used) &&
                                used->hasLocalLinkage() &&
                                !used->isDeclaration();
                       });
}

namespace {
/// A definition that is in exactly one partition, with the copied
/// definitions it reaches and the other units it refers to.
struct Unit {
  llvm::GlobalValue *global;
  SmallVector<const llvm::GlobalValue *> copies;
  SmallVector<unsigned> uses;
  unsigned instructions = 0;
  /// The unit of the group it is placed with (union-find).
  unsigned leader;
};
} // namespace

static unsigned findLeader(SmallVectorImpl<Unit> &units, unsigned unit) {
  while (units[unit].leader != unit)
    unit = units[unit].leader = units[units[unit].leader].leader;
  return unit;
}

SmallVector<llvm::BitVector>
mlir::matrix::splitModuleForCodegen(llvm::Module &module,
                                    unsigned maxPartitions,
                                    unsigned minInstructions) {
  SmallVector<llvm::BitVector> partitions;
  if (maxPartitions <= 1 || !module.alias_empty() || !module.ifunc_empty() ||
      !module.getComdatSymbolTable().empty() ||
      !module.getModuleInlineAsm().empty())
    return partitions;

  // Units: every definition that is not copied.
  SmallVector<Unit> units;
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> unitOf;
  for (llvm::GlobalValue &global : module.global_values()) {
    if (global.isDeclaration() || isCopied(global))
      continue;
    if (global.hasLocalLinkage() && !global.hasName())
      return partitions;
    unitOf[&global] = units.size();
    units.push_back(Unit{&global, {}, {}, 0, (unsigned)units.size()});
  }
  unsigned total = 0;
  for (Unit &unit : units) {
    llvm::SetVector<const llvm::GlobalValue *> reached;
    reached.insert(unit.global);
    for (size_t i = 0; i < reached.size(); ++i) {
      for (const llvm::GlobalValue *used : getReferencedGlobals(*reached[i])) {
        if (used->isDeclaration())
          continue;
        auto it = unitOf.find(used);
        if (it == unitOf.end())
          reached.insert(used);
        else if (used != unit.global && !llvm::is_contained(unit.uses, it->second))
          unit.uses.push_back(it->second);
      }
    }
    for (const llvm::GlobalValue *global : reached) {
      unit.instructions += getInstructionCount(*global);
      if (global != unit.global)
        unit.copies.push_back(global);
    }
    total += unit.instructions;
  }
  unsigned count = std::min<unsigned>(
      {maxPartitions, static_cast<unsigned>(units.size()),
       total / std::max(1u, minInstructions)});
  if (count <= 1)
    return partitions;

  // An internal unit goes with the units that refer to it while their
  // group stays within a partition's share of the instructions, so that
  // LLVM can still inline it there and drop it: a reference across
  // partitions keeps a function alive, outside the inliner's reach. The
  // edges of private call chains come first (the outlined OpenMP body with
  // its function, a Mat function's C entry point, its `.impl` and `.into`
  // together; the parts of a long `main` with `main`), those into and out
  // of hubs last (the `.impl` that a part of `main` among 75 others calls,
  // a register kernel every product calls): an edge weighs the number of
  // the callee's users times the number of units the caller refers to,
  // and the lightest edges are joined first, as Kruskal's algorithm takes
  // them. The constructor lists go together.
  SmallVector<SmallVector<unsigned, 2>> usedBy(units.size());
  for (unsigned i = 0; i < units.size(); ++i)
    for (unsigned used : units[i].uses)
      usedBy[used].push_back(i);
  SmallVector<unsigned> groupInstructions(units.size(), 0);
  for (unsigned i = 0; i < units.size(); ++i)
    groupInstructions[i] = units[i].instructions;
  auto join = [&](unsigned a, unsigned b) {
    a = findLeader(units, a);
    b = findLeader(units, b);
    if (a == b)
      return;
    units[a].leader = b;
    groupInstructions[b] += groupInstructions[a];
  };
  unsigned share = (total + count - 1) / count;
  struct Edge {
    uint64_t weight;
    unsigned callee, user;
  };
  SmallVector<Edge> edges;
  for (unsigned i = 0; i < units.size(); ++i)
    if (units[i].global->hasLocalLinkage())
      for (unsigned user : usedBy[i])
        edges.push_back({uint64_t(usedBy[i].size()) *
                             std::max<size_t>(1, units[user].uses.size()),
                         i, user});
  // Ties keep the module's order.
  llvm::sort(edges, [](const Edge &a, const Edge &b) {
    return std::tie(a.weight, a.callee, a.user) <
           std::tie(b.weight, b.callee, b.user);
  });
  for (const Edge &edge : edges)
    if (groupInstructions[findLeader(units, edge.callee)] +
            groupInstructions[findLeader(units, edge.user)] <=
        share)
      join(edge.callee, edge.user);
  std::optional<unsigned> appending;
  for (unsigned i = 0; i < units.size(); ++i) {
    if (!units[i].global->hasAppendingLinkage())
      continue;
    if (appending)
      join(i, *appending);
    else
      appending = i;
  }

  // Longest processing time first (Graham, "Bounds on multiprocessing
  // timing anomalies", SIAM J. Appl. Math. 17(2), 1969): the largest group
  // to the partition with the fewest instructions, the constructor lists
  // to the first. Ties keep the module's order.
  SmallVector<unsigned> groups;
  for (unsigned i = 0; i < units.size(); ++i)
    if (findLeader(units, i) == i)
      groups.push_back(i);
  llvm::sort(groups, [&](unsigned a, unsigned b) {
    if (groupInstructions[a] != groupInstructions[b])
      return groupInstructions[a] > groupInstructions[b];
    return a < b;
  });
  SmallVector<unsigned> load(count, 0);
  SmallVector<unsigned> partitionOfGroup(units.size(), 0);
  for (unsigned group : groups) {
    unsigned partition = 0;
    if (!appending || findLeader(units, *appending) != group)
      partition = std::min_element(load.begin(), load.end()) - load.begin();
    load[partition] += groupInstructions[group];
    partitionOfGroup[group] = partition;
  }
  auto partitionOf = [&](unsigned unit) {
    return partitionOfGroup[findLeader(units, unit)];
  };

  // An internal unit used from another partition becomes visible to the
  // others, hidden outside the program or library it is linked into.
  for (unsigned i = 0; i < units.size(); ++i) {
    llvm::GlobalValue *global = units[i].global;
    if (!global->hasLocalLinkage() ||
        llvm::all_of(usedBy[i], [&](unsigned user) {
          return partitionOf(user) == partitionOf(i);
        }))
      continue;
    global->setLinkage(llvm::GlobalValue::ExternalLinkage);
    global->setVisibility(llvm::GlobalValue::HiddenVisibility);
  }

  DenseMap<const llvm::GlobalValue *, unsigned> indexOf;
  for (const llvm::GlobalValue &global : module.global_values())
    indexOf.try_emplace(&global, indexOf.size());
  partitions.assign(count, llvm::BitVector(indexOf.size()));
  for (unsigned i = 0; i < units.size(); ++i) {
    llvm::BitVector &in = partitions[partitionOf(i)];
    in.set(indexOf.lookup(units[i].global));
    for (const llvm::GlobalValue *copy : units[i].copies)
      in.set(indexOf.lookup(copy));
  }
  return partitions;
}

llvm::Error mlir::matrix::extractPartition(llvm::Module &module,
                                           const llvm::BitVector &definitions) {
  // Definitions of the other partitions become declarations, as
  // llvm::CloneModule makes them (external, whatever their linkage was).
  unsigned index = 0;
  for (llvm::GlobalValue &global : module.global_values()) {
    bool kept = definitions.test(index);
    ++index;
    if (kept || global.isDeclaration())
      continue;
    if (auto *function = dyn_cast<llvm::Function>(&global)) {
      // Drops a body not read yet (lazy loading) without reading it.
      function->deleteBody();
    } else if (auto *variable = dyn_cast<llvm::GlobalVariable>(&global)) {
      variable->setInitializer(nullptr);
      variable->setComdat(nullptr);
    }
    global.setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
  // The partition's own bodies, which the uses below count.
  if (llvm::Error error = module.materializeAll())
    return error;
  // Declarations nothing in this partition uses (the copied definitions of
  // the other partitions among them) go.
  SmallVector<llvm::GlobalValue *> unused;
  for (llvm::GlobalValue &global : module.global_values())
    if (global.isDeclaration() && global.use_empty())
      unused.push_back(&global);
  for (llvm::GlobalValue *global : unused)
    global->eraseFromParent();
  return llvm::Error::success();
}

llvm::Error mlir::matrix::generateCode(llvm::Module &module,
                                       llvm::TargetMachine &machine,
                                       llvm::CodeGenFileType type,
                                       llvm::raw_pwrite_stream &os) {
  llvm::legacy::PassManager pm;
  if (machine.addPassesToEmitFile(pm, os, nullptr, type))
    return llvm::createStringError(
        type == llvm::CodeGenFileType::AssemblyFile
            ? "the target cannot emit assembly"
            : "the target cannot emit objects");
  pm.run(module);
  return llvm::Error::success();
}

/// Whether `loop`'s metadata says anything of its unrolling
/// (`llvm.loop.unroll.*`).
static bool hasUnrollMetadata(const llvm::Loop &loop) {
  llvm::MDNode *id = loop.getLoopID();
  if (!id)
    return false;
  for (const llvm::MDOperand &operand : llvm::drop_begin(id->operands()))
    if (auto *option = llvm::dyn_cast<llvm::MDNode>(operand))
      if (option->getNumOperands() > 0)
        if (auto *name = llvm::dyn_cast<llvm::MDString>(option->getOperand(0)))
          if (name->getString().starts_with("llvm.loop.unroll."))
            return true;
  return false;
}

llvm::Error mlir::matrix::optimizeModule(llvm::Module &module,
                                         unsigned optLevel,
                                         llvm::TargetMachine *machine) {
  if (optLevel > 0) {
    for (llvm::Function &function : module) {
      if (function.isDeclaration())
        continue;
      llvm::DominatorTree dominators(function);
      llvm::LoopInfo loops(dominators);
      for (llvm::Loop *loop : loops.getLoopsInPreorder())
        if (!hasUnrollMetadata(*loop))
          llvm::addStringMetadataToLoop(loop,
                                        "llvm.loop.unroll.runtime.disable");
    }
  }
  return makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, machine)(&module);
}

/// Optimizes `module` for `target` and compiles it into `object`.
static llvm::Error compileModule(llvm::Module &module,
                                 const TargetDescription &target,
                                 unsigned optLevel,
                                 llvm::SmallString<0> &object) {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(target, optLevel);
  if (!machine)
    return machine.takeError();
  if (llvm::Error error = optimizeModule(module, optLevel, machine->get()))
    return error;
  llvm::raw_svector_ostream os(object);
  return generateCode(module, **machine, llvm::CodeGenFileType::ObjectFile,
                      os);
}

/// compileModule on one partition of the module given as bitcode: the
/// module is read lazily into a context of its own, and only the function
/// bodies of the partition are read. Returns an error message, empty on
/// success.
static std::string compilePartition(llvm::StringRef bitcode,
                                    const llvm::BitVector &definitions,
                                    const TargetDescription &target,
                                    unsigned optLevel,
                                    llvm::SmallString<0> &object) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> module =
      llvm::getLazyBitcodeModule(llvm::MemoryBufferRef(bitcode, "partition"),
                                 context);
  llvm::Error error = module ? extractPartition(**module, definitions)
                             : module.takeError();
  if (!error)
    error = compileModule(**module, target, optLevel, object);
  return error ? llvm::toString(std::move(error)) : std::string();
}

llvm::Expected<SmallVector<llvm::SmallString<0>>>
mlir::matrix::emitObjectsInParallel(llvm::Module &module,
                                    const TargetDescription &target,
                                    unsigned optLevel, unsigned maxPartitions,
                                    unsigned minInstructions,
                                    TimingScope *timing) {
  TimingScope splitting = timing ? timing->nest("Split into partitions")
                                 : TimingScope();
  SmallVector<llvm::BitVector> partitions =
      splitModuleForCodegen(module, maxPartitions, minInstructions);
  if (partitions.empty()) {
    splitting.stop();
    SmallVector<llvm::SmallString<0>> objects(1);
    if (llvm::Error error = compileModule(module, target, optLevel, objects[0]))
      return std::move(error);
    return objects;
  }
  // `module`'s context is this thread's only: the module is written once as
  // bitcode, and each thread reads its partition back from it.
  llvm::SmallString<0> bitcode;
  {
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(module, os);
  }
  SmallVector<unsigned> sizes(partitions.size(), 0);
  unsigned index = 0;
  for (const llvm::GlobalValue &global : module.global_values()) {
    for (size_t i = 0; i < partitions.size(); ++i)
      if (partitions[i].test(index))
        sizes[i] += getInstructionCount(global);
    ++index;
  }
  splitting.stop();
  SmallVector<llvm::SmallString<0>> objects(partitions.size());
  SmallVector<std::string> errors(partitions.size());
  {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(partitions.size()));
    for (size_t i = 0; i < partitions.size(); ++i)
      pool.async([&, i] {
        TimingScope scope =
            timing ? timing->nest("Partition " + std::to_string(i) + " (" +
                                  std::to_string(sizes[i]) + " instructions)")
                   : TimingScope();
        errors[i] = compilePartition(bitcode, partitions[i], target, optLevel,
                                     objects[i]);
      });
    pool.wait();
  }
  for (const std::string &error : errors)
    if (!error.empty())
      return llvm::createStringError(error);
  return objects;
}
