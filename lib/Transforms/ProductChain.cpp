//===- ProductChain.cpp - Re-associate products by the chain DP -----------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A product chain is a tree of `matrix.matmul` ops whose inner results have
// no other user, seen through single-use transposes, negations and scalar
// multiplications:
//
//   (s * (a @ b.T)).T @ -c   ==   -s * (b @ a.T @ c)
//
// It is flattened into its factors (each read plain or transposed), its
// scales (scalar factors and negations) and rebuilt with the association of
// least flop count, found by the matrix-chain-order dynamic program of
// Cormen, Leiserson, Rivest and Stein, "Introduction to Algorithms" (3rd
// ed., MIT Press 2009), section 15.2. Flops are those of FlopCount.h, the
// measure `matc --stats` prints: 2 * p[i] * p[k] * p[j] per product.
// Transposes become the products' transpose flags; the scales, multiplied
// together, are applied to the smallest matrix of the rebuilt tree that
// keeps the sign of zero results (below).
//
// Exactness. Moving transposes and negations is exact; re-associating and
// moving scalars change the rounding (and, at the ends of the range or for
// a scalar that is 0, inf or nan, where an overflow or a nan appears),
// which is why this runs from -O1 up and never at -O0.
//
// The sign of zero. A product accumulates from +0 (MatrixToLinalg fills the
// result with zero), so it never yields -0: `(-a) @ b` prints `0` where
// `-(a @ b)` prints `-0`. Scales therefore come in two groups: those applied
// above the topmost product ("top": they decide the sign of a zero result)
// and those below it (they never do). A group that is sign-neutral (no
// negation, every scalar a positive finite constant) may go anywhere; a
// top group that is not stays at the result, and a lower group that is not
// stays below the topmost product. So `(2 * a) @ b` may become
// `2 * (a @ b)`, but `(s * a) @ b` with an unknown `s` keeps `s` on an
// operand (the smaller one, or an intermediate product).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Ops.h"
#include "MatrixDialect/Transforms/FlopCount.h"
#include "MatrixDialect/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::matrix;

namespace {

/// One factor of a chain: `value` as stored, read transposed if
/// `transposed`; `rows` x `cols` as read.
struct Factor {
  Value value;
  bool transposed;
  int64_t rows, cols;
};

/// Scales applied at one level of a chain: the product of `scalars`, negated
/// if `negated`.
struct ScaleGroup {
  SmallVector<Value> scalars;
  bool negated = false;

  bool empty() const { return scalars.empty() && !negated; }
  /// True when applying the group never changes the sign of a zero (and
  /// never turns a finite value into inf or nan by itself being 0 or inf):
  /// no negation, and every scalar a positive finite constant.
  bool isSignNeutral() const {
    return !negated && llvm::all_of(scalars, [](Value s) {
      FloatAttr attr;
      if (!matchPattern(s, m_Constant(&attr)))
        return false;
      const APFloat &v = attr.getValue();
      return v.isFiniteNonZero() && !v.isNegative();
    });
  }
  void append(const ScaleGroup &other) {
    scalars.append(other.scalars);
    negated ^= other.negated;
  }
};

/// A flattened product tree: the scales times the product of `factors`, in
/// order.
struct Chain {
  SmallVector<Factor> factors;
  /// Scales above the topmost product and below it.
  ScaleGroup top, below;
  /// Flops of the ops the chain absorbs (what rewriting it removes).
  uint64_t flops = 0;
  /// Transposes removed by rewriting (absorbed, single use or root).
  unsigned transposesRemoved = 0;
  /// False when some shape has a `?`: the chain is then left alone.
  bool isStatic = true;
};

} // namespace

static uint64_t satAdd(uint64_t a, uint64_t b) {
  return llvm::SaturatingAdd(a, b);
}

/// For `s * m` or `m * s` with a scalar `s` and a matrix `m`: {s, m}.
static std::optional<std::pair<Value, Value>> getScalarFactor(MulOp mul) {
  Value lhs = mul.getLhs(), rhs = mul.getRhs();
  if (isa<FloatType>(lhs.getType()) && isa<RankedTensorType>(rhs.getType()))
    return std::pair(lhs, rhs);
  if (isa<FloatType>(rhs.getType()) && isa<RankedTensorType>(lhs.getType()))
    return std::pair(rhs, lhs);
  return std::nullopt;
}

/// True when `op` is part of a chain through its (matrix) result.
static bool isChainOp(Operation *op) {
  if (isa<MatmulOp, TransposeOp, NegOp>(op))
    return true;
  auto mul = dyn_cast<MulOp>(op);
  return mul && getScalarFactor(mul);
}

/// True when `op` roots a chain: its result is not taken into the chain of
/// its user (it has several users, or its one user is in another block or
/// is not a chain op, or uses it as a plain elementwise operand).
static bool isChainRoot(Operation *op) {
  if (!isChainOp(op))
    return false;
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return true;
  Operation *user = *result.user_begin();
  if (user->getBlock() != op->getBlock() || !isChainOp(user))
    return true;
  if (auto mul = dyn_cast<MulOp>(user))
    return getScalarFactor(mul)->second != result;
  return false;
}

/// Appends to `chain` the flattening of `value` (of `value.T` when
/// `transposed`). `expand` says whether `value`'s defining op belongs to the
/// chain (it is the root, or its result has this one use); otherwise
/// `value` is a factor, read through a transpose if it is one. Scales go to
/// `chain.below` once a product has been expanded, to `chain.top` before.
static void collect(Value value, bool transposed, bool expand, Block *block,
                    Chain &chain, bool belowProduct = false) {
  Operation *def = value.getDefiningOp();
  if (def && expand && def->getBlock() == block) {
    ScaleGroup &group = belowProduct ? chain.below : chain.top;
    auto expandOperand = [&](Value operand, bool operandTransposed,
                             bool operandBelowProduct) {
      collect(operand, operandTransposed, operand.hasOneUse(), block, chain,
              operandBelowProduct);
    };
    // What rewriting the chain removes.
    FlopCount cost = getOpFlops(def);
    if (cost.dynamicOps) {
      chain.isStatic = false;
      return;
    }
    if (auto matmul = dyn_cast<MatmulOp>(def)) {
      chain.flops = satAdd(chain.flops, cost.total());
      // (op(a) @ op(b)).T = op(b).T @ op(a).T
      if (!transposed) {
        expandOperand(matmul.getLhs(), matmul.getTransposeLhs(), true);
        expandOperand(matmul.getRhs(), matmul.getTransposeRhs(), true);
      } else {
        expandOperand(matmul.getRhs(), !matmul.getTransposeRhs(), true);
        expandOperand(matmul.getLhs(), !matmul.getTransposeLhs(), true);
      }
      return;
    }
    if (auto transpose = dyn_cast<TransposeOp>(def)) {
      ++chain.transposesRemoved;
      expandOperand(transpose.getInput(), !transposed, belowProduct);
      return;
    }
    if (auto neg = dyn_cast<NegOp>(def)) {
      group.negated = !group.negated;
      chain.flops = satAdd(chain.flops, cost.total());
      expandOperand(neg.getInput(), transposed, belowProduct);
      return;
    }
    if (auto mul = dyn_cast<MulOp>(def)) {
      if (auto factor = getScalarFactor(mul)) {
        group.scalars.push_back(factor->first);
        chain.flops = satAdd(chain.flops, cost.total());
        expandOperand(factor->second, transposed, belowProduct);
        return;
      }
    }
  }
  // A factor. A transpose that stays for other users is still read in place.
  if (auto transpose = value.getDefiningOp<TransposeOp>()) {
    value = transpose.getInput();
    transposed = !transposed;
  }
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape()) {
    chain.isStatic = false;
    return;
  }
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  if (transposed)
    std::swap(rows, cols);
  chain.factors.push_back({value, transposed, rows, cols});
}

namespace {

/// The optimal parenthesization of a chain of `n` factors with dimensions
/// `p[0] x p[1]`, `p[1] x p[2]`, ..., `p[n-1] x p[n]`: MATRIX-CHAIN-ORDER of
/// CLRS 15.2, costs in flops (getMatmulFlops(p[i], p[k+1], p[j+1]) for the
/// product of factors i..k by k+1..j), O(n^3) time. Ties keep the leftmost
/// split. The innermost loop reads cost(i, k) along a row and cost(k + 1,
/// j) along a column, the latter from a transposed copy so that both reads
/// are contiguous (a chain of 999 products: 1.88 s -> 0.53 s with
/// getMatmulFlops inlined, on a 2-core AVX-512 Xeon).
class ChainOrder {
public:
  explicit ChainOrder(ArrayRef<int64_t> p)
      : n(p.size() - 1), cost(n * n, 0), split(n * n, 0) {
    std::vector<uint64_t> byColumn(n * n, 0); // byColumn[j * n + i] = cost(i, j)
    for (size_t length = 2; length <= n; ++length) {
      for (size_t i = 0; i + length <= n; ++i) {
        size_t j = i + length - 1;
        const uint64_t *left = &cost[i * n];     // left[k] = cost(i, k)
        const uint64_t *right = &byColumn[j * n]; // right[k] = cost(k, j)
        uint64_t best = 0;
        size_t bestSplit = i;
        for (size_t k = i; k < j; ++k) {
          uint64_t total =
              satAdd(satAdd(left[k], right[k + 1]),
                     getMatmulFlops(p[i], p[k + 1], p[j + 1]));
          if (k == i || total < best) {
            best = total;
            bestSplit = k;
          }
        }
        cost[i * n + j] = best;
        byColumn[j * n + i] = best;
        split[i * n + j] = bestSplit;
      }
    }
  }
  /// Flops of the cheapest product of factors i..j.
  uint64_t getCost(size_t i, size_t j) const { return cost[i * n + j]; }
  /// The last factor of the left operand of that product.
  size_t getSplit(size_t i, size_t j) const { return split[i * n + j]; }

private:
  size_t n;
  std::vector<uint64_t> cost;
  std::vector<size_t> split;
};

/// A node of the rebuilt tree: the product of factors first..last (a factor
/// when first == last).
struct Node {
  size_t first, last;
};

/// Re-associates the chain rooted at `root` and moves its scalars and sign
/// to the smallest matrix, when that lowers its flop count.
LogicalResult rewriteChain(Operation *root, PatternRewriter &rewriter) {
  if (!isChainRoot(root))
    return rewriter.notifyMatchFailure(root, "inside a larger chain");
  Chain chain;
  collect(root->getResult(0), /*transposed=*/false, /*expand=*/true,
          root->getBlock(), chain);
  if (!chain.isStatic)
    return rewriter.notifyMatchFailure(root, "a shape is not static");
  size_t n = chain.factors.size();
  if (n < 2)
    return rewriter.notifyMatchFailure(root, "not a product");

  SmallVector<int64_t> dims;
  for (const Factor &factor : chain.factors)
    dims.push_back(factor.rows);
  dims.push_back(chain.factors.back().cols);
  ChainOrder order(dims);

  // The nodes of the optimal tree, root first, in pre-order.
  SmallVector<Node> nodes;
  std::function<void(size_t, size_t)> visit = [&](size_t i, size_t j) {
    nodes.push_back({i, j});
    if (i == j)
      return;
    size_t k = order.getSplit(i, j);
    visit(i, k);
    visit(k + 1, j);
  };
  visit(0, n - 1);
  auto nodeSize = [&](const Node &node) {
    return llvm::SaturatingMultiply(uint64_t(dims[node.first]),
                                    uint64_t(dims[node.last + 1]));
  };

  // Where the scales go (see the file comment): the smallest node, the
  // root winning ties, among the nodes that keep the sign of zero results.
  auto smallest = [&](bool allowRoot) {
    const Node *best = nullptr;
    for (const Node &node : ArrayRef(nodes).drop_front(allowRoot ? 0 : 1))
      if (!best || nodeSize(node) < nodeSize(*best))
        best = &node;
    return best;
  };
  SmallVector<std::pair<const Node *, ScaleGroup>, 2> placements;
  ScaleGroup all = chain.top;
  all.append(chain.below);
  bool topNeutral = chain.top.isSignNeutral();
  bool belowNeutral = chain.below.isSignNeutral();
  if (all.empty() && !chain.top.empty()) {
    // Negations that cancel across levels: `-((-a) @ b)` prints `-0`
    // where `a @ b` prints `0`; leave such a chain alone.
    return rewriter.notifyMatchFailure(root, "negations across levels");
  }
  if (!all.empty()) {
    if (topNeutral && belowNeutral)
      placements.push_back({smallest(/*allowRoot=*/true), all});
    else if (belowNeutral)
      placements.push_back({&nodes.front(), all});
    else if (topNeutral)
      placements.push_back({smallest(/*allowRoot=*/false), all});
    else
      placements.append({{&nodes.front(), chain.top},
                         {smallest(/*allowRoot=*/false), chain.below}});
  }
  uint64_t newFlops = order.getCost(0, n - 1);
  for (const auto &placement : placements)
    newFlops =
        satAdd(newFlops, getElementwiseFlops(dims[placement.first->first],
                                             dims[placement.first->last + 1]));
  if (newFlops > chain.flops ||
      (newFlops == chain.flops && chain.transposesRemoved == 0))
    return rewriter.notifyMatchFailure(root, "already at least as cheap");

  Location loc = root->getLoc();
  Type elementType = getElementTypeOrSelf(root->getResult(0).getType());
  // Applies a group once: times the product of its scalars, negated.
  auto applyScale = [&](Value matrix, const ScaleGroup &group) -> Value {
    Value scalar;
    for (Value s : group.scalars)
      scalar = scalar ? arith::MulFOp::create(rewriter, loc, scalar, s) : s;
    if (!scalar)
      return NegOp::create(rewriter, loc, matrix);
    if (group.negated)
      scalar = arith::NegFOp::create(rewriter, loc, scalar);
    return MulOp::create(rewriter, loc, matrix.getType(), matrix, scalar);
  };

  // Build bottom-up; a factor comes back as {stored value, transposed}.
  std::function<std::pair<Value, bool>(size_t, size_t)> build =
      [&](size_t i, size_t j) -> std::pair<Value, bool> {
    std::pair<Value, bool> result;
    if (i == j) {
      result = {chain.factors[i].value, chain.factors[i].transposed};
    } else {
      size_t k = order.getSplit(i, j);
      auto [lhs, lhsTransposed] = build(i, k);
      auto [rhs, rhsTransposed] = build(k + 1, j);
      auto type = RankedTensorType::get({dims[i], dims[j + 1]}, elementType);
      result = {MatmulOp::create(rewriter, loc, type, lhs, rhs, lhsTransposed,
                                 rhsTransposed),
                false};
    }
    for (const auto &[node, group] : placements)
      if (node->first == i && node->last == j)
        result.first = applyScale(result.first, group);
    return result;
  };
  Value product = build(0, n - 1).first;
  assert(product.getType() == root->getResult(0).getType() &&
         "a rebuilt chain has the type of the one it replaces");
  rewriter.replaceOp(root, product);
  return success();
}

/// Runs rewriteChain on every chain op that roots a chain.
template <typename OpTy>
struct ReassociateProductChain : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    return rewriteChain(op, rewriter);
  }
};

} // namespace

void mlir::matrix::populateProductChainPatterns(RewritePatternSet &patterns) {
  patterns.add<ReassociateProductChain<MatmulOp>,
               ReassociateProductChain<TransposeOp>,
               ReassociateProductChain<NegOp>, ReassociateProductChain<MulOp>>(
      patterns.getContext());
}
