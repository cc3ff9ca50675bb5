//===- harness_eigen.cpp - Eigen baseline of the matc benchmark -----------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The command line and output of harness.c (`harness eigen OP TYPE N
// SIZE REPS`, SIZE N or MxKxN), with Eigen 3.4 row-major matrices:
// C.noalias() = A * B, A * B.transpose(), A.transpose() * B, the fused expression A.cwiseProduct(B) + C - 0.5 * D and
// (A * B) * V evaluated as written. Threads: BENCH_THREADS (Eigen's OpenMP
// parallel products, compiled with -fopenmp).
//
//===----------------------------------------------------------------------===//

#include <Eigen/Dense>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
constexpr int kChainCols = 16;

template <typename T>
using Matrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The inputs of harness.c: deterministic values in [-1, 1).
template <typename T> void fill(Matrix<T> &m, unsigned seed) {
  uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v = double(x >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
    m.data()[i] = T(v);
  }
}

/// `m` x `k` times `k` x `n` (square: all equal); A is stored k x m for
/// matmul_at, B n x k for matmul_bt.
template <typename T>
int bench(const std::string &op, int m, int k, int n, int reps) {
  bool chain = op == "chain";
  bool at = op == "matmul_at", bt = op == "matmul_bt";
  Matrix<T> a(at ? k : m, at ? m : k), b(bt ? n : k, bt ? k : n),
      c(n, chain ? kChainCols : n), d(n, n);
  Matrix<T> out(m, chain ? kChainCols : n), t1(n, n);
  fill(a, 1);
  fill(b, 2);
  fill(c, 3);
  fill(d, 4);
  auto run = [&] {
    if (op == "matmul")
      out.noalias() = a * b;
    else if (bt)
      out.noalias() = a * b.transpose();
    else if (at)
      out.noalias() = a.transpose() * b;
    else if (op == "ew")
      out = a.cwiseProduct(b) + c - T(0.5) * d;
    else if (chain)
      out.noalias() = (a * b) * c;
    else
      return false;
    return true;
  };
  if (!run()) {
    std::fprintf(stderr, "harness_eigen: unknown operation %s\n", op.c_str());
    return 2;
  }
  // At least 60 ms of untimed warm-up runs, as in harness.c (the first
  // milliseconds of the OpenMP worker thread on the main thread's CPU).
  for (double warm = now(); now() - warm < 0.06;)
    run();
  // Printed after the runs, as in harness.c.
  std::vector<double> times(reps);
  for (int r = 0; r < reps; ++r) {
    double t = now();
    run();
    times[r] = now() - t;
  }
  for (double t : times)
    std::printf("time %.9f\n", t);
  // The weighted sums of harness.c.
  double sum = 0, magnitude = 0;
  for (Eigen::Index i = 0; i < out.rows(); ++i)
    for (Eigen::Index j = 0; j < out.cols(); ++j) {
      double w = double((i * 7 + j * 13) % 17) / 17.0, v = double(out(i, j));
      sum += w * v;
      magnitude += w * std::abs(v);
    }
  std::printf("checksum %.17g %.17g\n", sum, magnitude);
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 6 || std::strcmp(argv[1], "eigen") != 0) {
    std::fprintf(stderr, "usage: harness_eigen eigen OP TYPE N REPS\n");
    return 2;
  }
  if (const char *threads = std::getenv("BENCH_THREADS"))
    Eigen::setNbThreads(std::atoi(threads));
  int m = 0, k = 0, n = 0, reps = std::atoi(argv[5]);
  if (std::sscanf(argv[4], "%dx%dx%d", &m, &k, &n) != 3)
    m = k = n = std::atoi(argv[4]);
  if (m < 1 || k < 1 || n < 1 || reps < 1) {
    std::fprintf(stderr, "harness_eigen: SIZE and REPS must be positive\n");
    return 2;
  }
  if (std::strcmp(argv[3], "f64") == 0)
    return bench<double>(argv[2], m, k, n, reps);
  return bench<float>(argv[2], m, k, n, reps);
}
