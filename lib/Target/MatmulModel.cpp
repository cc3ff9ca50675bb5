//===- MatmulModel.cpp - Tile sizes from a model of the target ------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The model of Low, Igual, Smith and Quintana-Orti, "Analytical Modeling Is
// Enough for High-Performance BLIS" (ACM TOMS 43(2), 2016; "Low et al."
// below), in matc's orientation: C is row-major, the vectors run along N,
// B is the operand read in vectors (BLIS's A) and A the one broadcast
// (BLIS's B). The loop nest of lib/Codegen/Schedule.mlir (Goto's order,
// BLIS's loops 1 to 5 with the roles of A and B swapped):
//
//   for each block of C of mc rows (all columns up to 16 nc; in parallel)
//     for each k-block of kc
//       pack the A block [mc/mr][kc][mr]        (once per k-block)
//       for each block of nc columns
//         pack the B block [nc/nr][kc][nr]      (stays in L2)
//         for each mr-row micro-panel of A      (stays in L1)
//           for each nr-column micro-panel of B (streams from L2)
//             for k in kc: C[mr x nr] += A[:, k] * B[k, :] (in registers)
//
// 1. Register tile (Low et al. section 4.1). With `nv` = nr / (vector
//    length) vectors per row, the mr * nv accumulators must cover the FMA
//    pipeline (mr * nv >= fmaPerCycle * fmaLatency) and fit with the row of
//    B and two broadcast registers: mr * nv + nv + 2 <= registers. Beyond
//    the paper, the accumulators are capped at 3/4 of the registers: LLVM
//    22's register allocator spills with more (measured: 14 x 32 f32 on
//    AVX-512 spills one accumulator per step of k; 12 x 32 does not), and
//    the loads of a step (mr broadcasts and nv vectors) must issue no
//    slower than its FMAs. Of the feasible tiles the one with the most
//    accumulators wins (which covers the latency, mr * nv >= fmaPerCycle *
//    fmaLatency, wherever the registers allow), then the one loading the
//    fewest elements per multiply-add, (mr + nr) / (mr * nr). This gives BLIS's choices: 6 x 16 (f32) and
//    6 x 8 (f64) for 16 registers of 256 bits (Haswell, Zen 3), 12 x 32 and
//    12 x 16 for 32 registers of 512 bits.
// 2. kc (Low et al. 4.2): the A micro-panel (mr x kc) stays in the L1 while
//    the B micro-panels (kc x nr) stream through it. With W ways of N sets
//    of L-byte lines, B gets C_B = floor((W - 1) / (1 + mr / nr)) ways (one
//    way is left for C) and kc = C_B * N * L / (nr * S), S the element
//    size; rounded down to a multiple of 16 (the packing's step).
// 3. nc (Low et al. 4.3, BLIS's mc): the B block (kc x nc) stays in the L2
//    while the A micro-panels stream: it gets the ways left after one for C
//    and ceil(mr * kc * S / (N2 * L2)) for an A micro-panel;
//    nc = ways * N2 * L2 / (kc * S), a multiple of nr.
// 4. mc (BLIS's nc): the A block (mc x kc) in half the L3 share of a core,
//    a multiple of mr.
// 5. The A block and the B block live on their thread's stack (no
//    allocation per call), the packed block of C (mc rows) on the heap
//    unless it fits too; all within a budget that counts, besides the two
//    blocks, the mc x nc part of C one column block updates. Packing costs
//    1/(2 ncb) + 1/(2 mc) element copies per flop (A is packed once per
//    block of 16 nc columns, B once per block of rows), so mc is the
//    largest size of the budget; with nc counted in the budget it stays
//    near the square of the old schedule (measured on Zen 3, f32 and f64, 1
//    thread: mc = 1032 or 1536 instead of 516 no faster at n = 2048, 10-30%
//    slower at 1024). The search: the largest square of a power of two
//    that fits, then nc doubled while it fits, then mc. Powers of two
//    (rounded up to multiples of mr and nr) split power-of-two matrices
//    into equal blocks, so that threads get equal work. Where a cache bound
//    falls between two powers of two (small L2s: Haswell's nc is 96 for
//    f64), the bound itself, if it fits.
// 6. Wider elements get blocks of as many rows as 4-byte ones (f64's mc
//    at least f32's, rounded up to a multiple of its mr) where their A and
//    B blocks alone fit the stack budget and the A block the L3 bound of
//    step 4: the budget of step 5 counts bytes, so with the same nc it
//    gives f64 half of f32's rows, but the B block is repacked M / mc
//    times, and with vectors of the same bits and as many FMAs per cycle,
//    the bytes that repacking moves per cycle are S * flops per cycle /
//    (2 mc): the same for both types at the same mc, twice as many for
//    f64 at half of it. Measured on Zen 5 (AVX-512, 1 MiB L2), f64 with mc
//    = 528 instead of 264, alternated medians: n = 2048 6% faster with 1
//    thread and 4% with 2, n = 1024 1% and 5%, n = 512 the same; f32 with
//    mc = 1032 or 2064 instead of 516 no faster (taller blocks gain
//    nothing beyond that traffic). The stack the blocks take stays within
//    the budget (MatmulTiles::getStackBound).
// 7. With T > 1 threads, mc is halved (rounded up to a multiple of mr)
//    while the A block (mc x kc, less the rows of that rounding) is
//    larger than the L2 (for Haswell's 256 KiB L2: 204 f32 and 132 f64,
//    against BLIS's MC of 144 and 72): each thread keeps
//    its own A block, and the L3 it came from is shared by the threads.
//    The blocks of rows are the threads' unit of work; how many a product
//    gets is decided at run time (transform.matc.thread_row_block: a
//    multiple of T blocks of equal size, at most mc rows each), so mc is
//    not divided by T. Measured with 2 threads: on Zen 3 (512 KiB L2) at
//    n = 1024, f64 1.9x the 1-thread OpenBLAS with mc = 258 (A block 516
//    KiB), 1.7x with 516 (1 MiB); on Zen 5 (1 MiB L2), f64 7-10% and f32
//    1-4% faster at n = 1024 and 2048 with the 1-thread mc (264 and 516,
//    A blocks of 396 and 516 KiB; f64 has 516 since step 6, a 792 KiB A
//    block, within the L2) than with half of it (A/B, medians).
// 8. Products whose A and B have at most L2 / 16 elements are not packed
//    at all (matrix-version-products): packing costs a copy of both per
//    tile, too much for a small product, and the L2 keeps them anyway.
//    The 16 is the target's `unpackedL2Divisor` (Target.cpp's table: 4 on
//    Zen 4, whose L3 serves the unpacked schedule's rows fast enough up to
//    361 x 361).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Target/MatmulModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::matrix;

std::string MatmulTiles::str() const {
  return llvm::join_items(",", std::to_string(mr), std::to_string(nr),
                          std::to_string(kc), std::to_string(mc),
                          std::to_string(nc));
}

llvm::Expected<MatmulTiles>
mlir::matrix::makeMatmulTiles(ArrayRef<int64_t> sizes) {
  if (sizes.size() == 5 &&
      llvm::all_of(sizes, [](int64_t size) { return size > 0; })) {
    MatmulTiles tiles{sizes[0], sizes[1], sizes[2], sizes[3], sizes[4]};
    if (tiles.mc % tiles.mr == 0 && tiles.nc % tiles.nr == 0)
      return tiles;
  }
  return llvm::createStringError(
      "tiles are 5 positive sizes mr,nr,kc,mc,nc with mc a multiple of mr "
      "and nc a multiple of nr");
}

llvm::Expected<MatmulTiles> mlir::matrix::parseMatmulTiles(StringRef text) {
  SmallVector<StringRef> fields;
  text.split(fields, ',');
  SmallVector<int64_t> sizes;
  for (StringRef field : fields) {
    int64_t size = 0;
    if (field.trim().getAsInteger(10, size))
      return llvm::createStringError("'" + text.str() +
                                     "' is not a list of sizes mr,nr,kc,mc,nc");
    sizes.push_back(size);
  }
  return makeMatmulTiles(sizes);
}

/// Rounds `value` down to a multiple of `step`, at least `step`.
static int64_t roundDownTo(int64_t value, int64_t step) {
  return std::max(step, value / step * step);
}

/// Rounds `value` up to a multiple of `step`.
static int64_t roundUpTo(int64_t value, int64_t step) {
  return (value + step - 1) / step * step;
}

/// Ways of `cache`, 8 if unknown, at least 2.
static int64_t getWays(const CacheDescription &cache) {
  return std::max<int64_t>(2, cache.associativity > 0 ? cache.associativity
                                                      : 8);
}

/// Bytes of one way of `cache`.
static int64_t getWayBytes(const CacheDescription &cache) {
  return cache.getNumSets() * std::max<int64_t>(cache.lineBytes, 1);
}

/// Step 1: the register tile, as {mr, vectors per row}.
static std::pair<int64_t, int64_t>
chooseRegisterTile(const TargetDescription &target, int64_t lanes) {
  int64_t registers = target.numVectorRegisters;
  int64_t maxAccumulators = registers * 3 / 4;
  double loadsPerFMA =
      double(target.loadsPerCycle) / std::max(1u, target.fmaPerCycle);
  int64_t bestMr = 1, bestNv = 1, bestAccumulators = 0;
  double bestLoadRatio = 0;
  // Rows of 1, 2 or 4 vectors: LLVM splits vectors of other multiples of
  // the register width badly (measured: 3 x 512-bit rows of f64 run at a
  // tenth of the speed).
  for (int64_t nv = 1; nv <= 4; nv *= 2) {
    for (int64_t mr = 1; mr <= registers; ++mr) {
      int64_t accumulators = mr * nv;
      if (accumulators + nv + 2 > registers ||
          accumulators > maxAccumulators)
        break;
      // Loads of one step of k: mr broadcasts of A, nv vectors of B.
      if (double(mr + nv) > loadsPerFMA * accumulators)
        continue;
      // Elements loaded per multiply-add: (mr + nr) / (mr * nr).
      double loadRatio = double(mr + nv * lanes) / double(mr * nv * lanes);
      if (accumulators > bestAccumulators ||
          (accumulators == bestAccumulators && loadRatio < bestLoadRatio)) {
        bestMr = mr;
        bestNv = nv;
        bestAccumulators = accumulators;
        bestLoadRatio = loadRatio;
      }
    }
  }
  return {bestMr, bestNv};
}

MatmulTiles mlir::matrix::computeMatmulTiles(const TargetDescription &target,
                                             unsigned elementBytes,
                                             int64_t stackBytes,
                                             unsigned threads) {
  MatmulTiles tiles;
  int64_t s = elementBytes;
  int64_t lanes = std::max<int64_t>(1, target.getVectorElements(elementBytes));
  auto [mr, nv] = chooseRegisterTile(target, lanes);
  tiles.mr = mr;
  tiles.nr = nv * lanes;

  // Step 2: kc from the L1.
  const CacheDescription &l1 = target.l1d;
  int64_t ways1 = getWays(l1);
  int64_t waysB =
      std::max<int64_t>(1, (ways1 - 1) * tiles.nr / (tiles.nr + tiles.mr));
  tiles.kc = roundDownTo(waysB * getWayBytes(l1) / (tiles.nr * s), 16);

  // Step 3: nc from the L2.
  const CacheDescription &l2 = target.l2;
  int64_t way2 = getWayBytes(l2);
  int64_t waysA2 = (tiles.mr * tiles.kc * s + way2 - 1) / way2;
  int64_t waysBlock = std::max<int64_t>(1, getWays(l2) - 1 - waysA2);
  tiles.nc = roundDownTo(waysBlock * way2 / (tiles.kc * s), tiles.nr);

  // Step 4: mc from the L3 share of a core (or the L2 without an L3).
  const CacheDescription &l3 = target.l3;
  int64_t share = l3.sizeBytes > 0
                      ? l3.sizeBytes / std::max<int64_t>(1, l3.sharedBy)
                      : l2.sizeBytes;
  tiles.mc = roundDownTo(share / 2 / (tiles.kc * s), tiles.mr);

  // Step 5: the cache tile within the caches' bounds (nc, mc above) and the
  // stack budget, of power-of-two sizes rounded up to multiples of mr and
  // nr: the largest square, then nc doubled while it fits.
  int64_t maxMc = tiles.mc, maxNc = tiles.nc;
  auto fits = [&](int64_t mc, int64_t nc) {
    MatmulTiles candidate = tiles;
    candidate.mc = roundUpTo(mc, tiles.mr);
    candidate.nc = roundUpTo(nc, tiles.nr);
    return candidate.getStackBytes(elementBytes) <= stackBytes;
  };
  int64_t mc = 1, nc = 1;
  while (2 * mc <= maxMc && 2 * mc <= maxNc && fits(2 * mc, 2 * mc))
    mc *= 2;
  while (2 * nc <= mc && 2 * nc <= maxNc)
    nc *= 2;
  while (2 * nc <= maxNc && fits(mc, 2 * nc))
    nc *= 2;
  while (2 * mc <= maxMc && fits(2 * mc, nc))
    mc *= 2;
  tiles.mc = roundUpTo(mc, tiles.mr);
  tiles.nc = roundUpTo(nc, tiles.nr);
  // Where a cache bound falls between two powers of two (small L2s), the
  // bound itself, if it fits: the tiles are many there anyway.
  for (auto [size, bound, step] :
       {std::make_tuple(&tiles.nc, maxNc, tiles.nr),
        std::make_tuple(&tiles.mc, maxMc, tiles.mr)}) {
    MatmulTiles larger = tiles;
    int64_t *largerSize = size == &tiles.nc ? &larger.nc : &larger.mc;
    *largerSize = roundDownTo(bound, step);
    if (*largerSize > *size && *largerSize < 2 * *size &&
        larger.getStackBytes(elementBytes) <= stackBytes)
      tiles = larger;
  }
  // Step 6: the rows of a 4-byte type's block for wider elements, when
  // their A and B blocks fit the stack and the A block the L3 bound.
  if (elementBytes > 4) {
    MatmulTiles narrow = computeMatmulTiles(target, 4, stackBytes, 1);
    int64_t rows = roundUpTo(narrow.mc, tiles.mr);
    if (rows > tiles.mc && rows <= maxMc &&
        (rows * tiles.kc + tiles.kc * tiles.nc) * s <= stackBytes)
      tiles.mc = rows;
  }
  // Step 7: with several threads, an A block within the L2.
  // The rows counted without the up to mr - 1 that rounding to a multiple
  // of mr added (Zen 3's f64 block of 258 rows is its L2's 256 rounded).
  if (threads > 1)
    while (tiles.mc > tiles.mr &&
           (tiles.mc - tiles.mr + 1) * tiles.kc * s > l2.sizeBytes)
      tiles.mc = roundUpTo(llvm::divideCeil(tiles.mc, 2), tiles.mr);
  return tiles;
}

CodegenSizes mlir::matrix::computeCodegenSizes(const TargetDescription &target,
                                               int64_t stackBytes,
                                               unsigned threads) {
  CodegenSizes sizes;
  sizes.f32 = computeMatmulTiles(target, 4, stackBytes, threads);
  sizes.f64 = computeMatmulTiles(target, 8, stackBytes, threads);
  sizes.elementwiseF32 = 1024 / 32;
  sizes.elementwiseF64 = 1024 / 64;
  // Read in place, A and B come from the L2 for the whole product: up to
  // L2 / 16 elements together (measured on Sapphire Rapids, 2 MiB L2, with
  // 8-row tiles: f32 and f64 at 1.02x-1.3x OpenBLAS for n = 128 and 256;
  // f32 at 361, 0.8x unpacked and 0.92x packed).
  sizes.unpackedMaxElements =
      target.l2.sizeBytes / std::max(1u, target.unpackedL2Divisor);
  // A static B that stays in the L1 (its rows are read for every tile of 8
  // rows of A) needs no packing whatever M.
  sizes.unpackedMaxRhsElements = target.l1d.sizeBytes / 16;
  return sizes;
}
