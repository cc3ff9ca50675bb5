/*===- harness.c - Timing harness of the matc benchmark --------------------===*
 *
 * Part of the matc project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===-----------------------------------------------------------------------===*
 *
 * One binary per implementation family, chosen at compile time:
 *   -DIMPL_MATC   kernels compiled by matc (kernels.mat, see bench.py),
 *                 called through their C entry points (kernels.h);
 *   -DIMPL_NAIVE  hand-written C loops (gcc -O3 -march=native);
 *   -DIMPL_BLAS   OpenBLAS (cblas_sgemm/dgemm).
 * Eigen lives in harness_eigen.cpp with the same command line.
 *
 *   harness IMPL OP TYPE SIZE REPS
 *     IMPL  matc | ijk | ikj | fused | temps | blas | fma
 *     OP    matmul (C = A B), matmul_bt (C = A B^T, B stored n x k),
 *           matmul_at (C = A^T B, A stored k x m), ew (R = A*B + C - D/2,
 *           elementwise), chain (R = (A B) V with V of N x 16: the
 *           parentheses cost 2 N^3 flops where A (B V) costs 64 N^2),
 *           peak (IMPL fma only: independent FMA chains on the widest
 *           vector registers, no memory; SIZE millions of FMAs per chain)
 *     TYPE  f32 | f64
 *     SIZE  N (square), or MxKxN for the products (A is M x K, B K x N)
 *
 * It prints one line per repetition, "time <seconds>" (wall clock, after
 * 60 ms of untimed warm-up runs, see main), then "checksum <S> <M>": S
 * weights each element of the result by a function of its position, M is
 * the same sum of magnitudes (see weighted_sum).
 *
 *===-----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef IMPL_BLAS
#include <cblas.h>
#endif

#define CHAIN_COLS 16

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void die(const char *message) {
  fprintf(stderr, "harness: %s\n", message);
  exit(2);
}

/* Deterministic inputs in [-1, 1), different for every operand. */
static void fill(void *p, int f64, size_t count, unsigned seed) {
  uint64_t x = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (size_t i = 0; i < count; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v = (double)(x >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
    if (f64)
      ((double *)p)[i] = v;
    else
      ((float *)p)[i] = (float)v;
  }
}

#ifdef IMPL_MATC
/* The C entry points of the kernels (kernels.h, written by
 * `matc --emit-header`): row-major inputs, then the caller's result buffer;
 * status 0 on success. */
#include "kernels.h"
static void check_ok(int status) {
  if (status != 0)
    die("a matc kernel refused its sizes");
}
/* chain<bits>_<n>: static shapes, so that matrix-optimize may reassociate.
 * Declared in kernels.h, dispatched by the generated bench_chains.h. */
#include "bench_chains.h"
#endif

typedef struct {
  const char *impl, *op;
  int f64, n, m, k; /* C is m x n, the inner dimension k; n = m = k if square */
  void *a, *b, *c, *d, *out, *t1, *t2;
  double magnitude;
} Problem;

/* ---------------------------------------------------------------- naive */

#define NAIVE_KERNELS(T, S)                                                    \
  static void ijk_##S(int n, const T *a, const T *b, T *c, int bt) {           \
    for (int i = 0; i < n; ++i)                                                \
      for (int j = 0; j < n; ++j) {                                            \
        T s = 0;                                                               \
        for (int k = 0; k < n; ++k)                                            \
          s += a[(size_t)i * n + k] *                                          \
               (bt ? b[(size_t)j * n + k] : b[(size_t)k * n + j]);             \
        c[(size_t)i * n + j] = s;                                              \
      }                                                                        \
  }                                                                            \
  /* rows x inner times inner x cols, i-k-j order. */                          \
  static void ikj_##S(int rows, int inner, int cols, const T *restrict a,      \
                      const T *restrict b, T *restrict c, int bt) {            \
    memset(c, 0, sizeof(T) * (size_t)rows * cols);                             \
    for (int i = 0; i < rows; ++i)                                             \
      for (int k = 0; k < inner; ++k) {                                        \
        T x = a[(size_t)i * inner + k];                                        \
        T *restrict ci = c + (size_t)i * cols;                                 \
        if (bt)                                                                \
          for (int j = 0; j < cols; ++j)                                       \
            ci[j] += x * b[(size_t)j * inner + k];                             \
        else                                                                   \
          for (int j = 0; j < cols; ++j)                                       \
            ci[j] += x * b[(size_t)k * cols + j];                              \
      }                                                                        \
  }                                                                            \
  static void fused_##S(size_t count, const T *restrict a,                     \
                        const T *restrict b, const T *restrict c,              \
                        const T *restrict d, T *restrict r) {                  \
    for (size_t i = 0; i < count; ++i)                                         \
      r[i] = a[i] * b[i] + c[i] - d[i] * (T)0.5;                               \
  }                                                                            \
  /* One loop per operation and a fresh temporary per intermediate, as an      \
   * array library without expression fusion evaluates the chain. */           \
  static void temps_##S(size_t count, const T *restrict a,                     \
                        const T *restrict b, const T *restrict c,              \
                        const T *restrict d, T *restrict r) {                  \
    T *t1 = malloc(sizeof(T) * count), *t2 = malloc(sizeof(T) * count),        \
      *t3 = malloc(sizeof(T) * count);                                         \
    for (size_t i = 0; i < count; ++i)                                         \
      t1[i] = a[i] * b[i];                                                     \
    for (size_t i = 0; i < count; ++i)                                         \
      t2[i] = t1[i] + c[i];                                                    \
    for (size_t i = 0; i < count; ++i)                                         \
      t3[i] = d[i] * (T)0.5;                                                   \
    for (size_t i = 0; i < count; ++i)                                         \
      r[i] = t2[i] - t3[i];                                                    \
    free(t1);                                                                  \
    free(t2);                                                                  \
    free(t3);                                                                  \
  }

NAIVE_KERNELS(float, f32)
NAIVE_KERNELS(double, f64)

/* ----------------------------------------------------------------- peak */

#ifdef IMPL_NAIVE
/* The widest vectors -march=native gives, and as many independent FMA
 * chains as keep both FMA pipes busy without spilling. */
#if defined(__AVX512F__)
#define PEAK_BYTES 64
#define PEAK_CHAINS 24
#else
#define PEAK_BYTES 32
#define PEAK_CHAINS 12
#endif
#define PEAK_KERNEL(T, S)                                                      \
  typedef T S##_vec __attribute__((vector_size(PEAK_BYTES)));                 \
  /* millions x PEAK_CHAINS vector FMAs; returns a value depending on all */   \
  static double peak_##S(long millions) {                                      \
    S##_vec acc[PEAK_CHAINS], x, y;                                            \
    for (int i = 0; i < (int)(PEAK_BYTES / sizeof(T)); ++i) {                  \
      x[i] = (T)0.999999;                                                      \
      y[i] = (T)1e-7;                                                          \
    }                                                                          \
    for (int c = 0; c < PEAK_CHAINS; ++c)                                      \
      acc[c] = x * (T)c;                                                       \
    for (long r = 0; r < millions * 1000000; ++r) {                            \
      _Pragma("GCC unroll 24") for (int c = 0; c < PEAK_CHAINS; ++c)           \
          acc[c] = acc[c] * x + y;                                             \
    }                                                                          \
    double s = 0;                                                              \
    for (int c = 0; c < PEAK_CHAINS; ++c)                                      \
      for (int i = 0; i < (int)(PEAK_BYTES / sizeof(T)); ++i)                  \
        s += acc[c][i];                                                        \
    return s;                                                                  \
  }
PEAK_KERNEL(float, f32)
PEAK_KERNEL(double, f64)
#endif

/* One run of the problem: the result ends in p->out. */
static void run(Problem *p) {
  int n = p->n, m = p->m, k = p->k;
  size_t nn = (size_t)n * n;
  int bt = !strcmp(p->op, "matmul_bt"), at = !strcmp(p->op, "matmul_at");
  int matmul = !strcmp(p->op, "matmul") || bt || at;
  int ew = !strcmp(p->op, "ew"), chain = !strcmp(p->op, "chain");
  (void)nn;
  (void)ew;
#ifdef IMPL_NAIVE
  if (!strcmp(p->impl, "fma") && !strcmp(p->op, "peak")) {
    /* The result is kept so that the chains are not optimized away. */
    p->magnitude = p->f64 ? peak_f64(n) : peak_f32(n);
    return;
  }
  if ((!strcmp(p->impl, "ijk") || !strcmp(p->impl, "ikj")) && at)
    die("the C loops have no A^T B");
  if ((!strcmp(p->impl, "ijk") || !strcmp(p->impl, "ikj")) && matmul &&
      (m != n || k != n))
    die("the C loops are square only");
  if (!strcmp(p->impl, "ijk") && matmul) {
    if (p->f64)
      ijk_f64(n, p->a, p->b, p->out, bt);
    else
      ijk_f32(n, p->a, p->b, p->out, bt);
    return;
  }
  if (!strcmp(p->impl, "ikj") && (matmul || chain)) {
    if (p->f64) {
      if (chain) {
        ikj_f64(n, n, n, p->a, p->b, p->t1, 0);
        ikj_f64(n, n, CHAIN_COLS, p->t1, p->c, p->out, 0);
      } else {
        ikj_f64(n, n, n, p->a, p->b, p->out, bt);
      }
    } else {
      if (chain) {
        ikj_f32(n, n, n, p->a, p->b, p->t1, 0);
        ikj_f32(n, n, CHAIN_COLS, p->t1, p->c, p->out, 0);
      } else {
        ikj_f32(n, n, n, p->a, p->b, p->out, bt);
      }
    }
    return;
  }
  if (ew && !strcmp(p->impl, "fused")) {
    if (p->f64)
      fused_f64(nn, p->a, p->b, p->c, p->d, p->out);
    else
      fused_f32(nn, p->a, p->b, p->c, p->d, p->out);
    return;
  }
  if (ew && !strcmp(p->impl, "temps")) {
    if (p->f64)
      temps_f64(nn, p->a, p->b, p->c, p->d, p->out);
    else
      temps_f32(nn, p->a, p->b, p->c, p->d, p->out);
    return;
  }
#endif
#ifdef IMPL_BLAS
  if (!strcmp(p->impl, "blas") && (matmul || chain)) {
    enum CBLAS_TRANSPOSE ta = at ? CblasTrans : CblasNoTrans;
    enum CBLAS_TRANSPOSE tb = bt ? CblasTrans : CblasNoTrans;
    /* Leading dimensions of A and B as stored (row-major). */
    int lda = at ? m : k, ldb = bt ? k : n;
    void *first = chain ? p->t1 : p->out;
    if (p->f64)
      cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, p->a, lda, p->b, ldb,
                  0.0, first, n);
    else
      cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, p->a, lda, p->b, ldb,
                  0.0f, first, n);
    if (chain) {
      if (p->f64)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, CHAIN_COLS, n,
                    1.0, p->t1, n, p->c, CHAIN_COLS, 0.0, p->out, CHAIN_COLS);
      else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, CHAIN_COLS, n,
                    1.0f, p->t1, n, p->c, CHAIN_COLS, 0.0f, p->out, CHAIN_COLS);
    }
    return;
  }
#endif
#ifdef IMPL_MATC
  if (!strcmp(p->impl, "matc")) {
    /* The result goes into p->out, as for every other variant. */
    if (matmul) {
      /* Stored shapes: A as k x m for A^T B, B as n x k for A B^T. */
      int ar = at ? k : m, ac = at ? m : k, br = bt ? n : k, bc = bt ? k : n;
      if (p->f64)
        check_ok((bt ? mat_mmbt64 : at ? mat_mmat64 : mat_mm64)(
            p->a, ar, ac, p->b, br, bc, p->out, m, n));
      else
        check_ok((bt ? mat_mmbt32 : at ? mat_mmat32 : mat_mm32)(
            p->a, ar, ac, p->b, br, bc, p->out, m, n));
      return;
    }
    if (ew) {
      if (p->f64)
        check_ok(mat_ew64(p->a, n, n, p->b, n, n, p->c, n, n, p->d, n, n,
                          p->out, n, n));
      else
        check_ok(mat_ew32(p->a, n, n, p->b, n, n, p->c, n, n, p->d, n, n,
                          p->out, n, n));
      return;
    }
    if (chain) {
      if (!run_chain(p->f64, n, p->a, p->b, p->c, p->out))
        die("no chain kernel of that size was compiled");
      return;
    }
  }
#endif
  die("unsupported implementation/operation for this binary");
}

/* sum of w(i, j) * r(i, j) with weights that differ between (i, j) and
 * (j, i), so that a transposed result does not pass; `magnitude` gets the
 * same sum of |r(i, j)|, the scale of rounding differences. */
static double weighted_sum(const void *r, int f64, size_t rows, size_t cols,
                           double *magnitude) {
  double s = 0, m = 0;
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < cols; ++j) {
      double w = (double)((i * 7 + j * 13) % 17) / 17.0;
      double v = f64 ? ((const double *)r)[i * cols + j]
                     : ((const float *)r)[i * cols + j];
      s += w * v;
      m += w * (v < 0 ? -v : v);
    }
  *magnitude = m;
  return s;
}

/* The checksum of the result the last run left in p->out. */
static double checksum(Problem *p) {
  if (!strcmp(p->op, "peak"))
    return p->magnitude;
  size_t cols = !strcmp(p->op, "chain") ? CHAIN_COLS : (size_t)p->n;
  return weighted_sum(p->out, p->f64, (size_t)p->m, cols, &p->magnitude);
}

int main(int argc, char **argv) {
  if (argc != 6)
    die("usage: harness IMPL OP TYPE SIZE REPS");
  Problem p = {0};
  p.impl = argv[1];
  p.op = argv[2];
  p.f64 = !strcmp(argv[3], "f64");
  if (sscanf(argv[4], "%dx%dx%d", &p.m, &p.k, &p.n) != 3) {
    p.n = atoi(argv[4]);
    p.m = p.k = p.n;
  }
  int reps = atoi(argv[5]);
  if (p.n < 1 || p.m < 1 || p.k < 1 || reps < 1)
    die("SIZE and REPS must be positive");
  if ((p.m != p.n || p.k != p.n) && strncmp(p.op, "matmul", 6))
    die("only the products take MxKxN sizes");
  /* Every buffer holds the largest operand. */
  size_t esize = p.f64 ? 8 : 4, nn = (size_t)p.n * p.n;
  size_t largest = (size_t)p.m * p.k;
  if ((size_t)p.k * p.n > largest)
    largest = (size_t)p.k * p.n;
  if ((size_t)p.m * p.n > largest)
    largest = (size_t)p.m * p.n;
  if (largest > nn)
    nn = largest;
  size_t thin = (size_t)p.n * CHAIN_COLS;
  int chain = !strcmp(p.op, "chain");
  p.a = aligned_alloc(64, esize * nn);
  p.b = aligned_alloc(64, esize * nn);
  p.c = aligned_alloc(64, esize * (chain ? thin : nn));
  p.d = aligned_alloc(64, esize * nn);
  p.out = aligned_alloc(64, esize * nn);
  p.t1 = aligned_alloc(64, esize * nn);
  if (!p.a || !p.b || !p.c || !p.d || !p.out || !p.t1)
    die("out of memory");
  fill(p.a, p.f64, nn, 1);
  fill(p.b, p.f64, nn, 2);
  fill(p.c, p.f64, chain ? thin : nn, 3);
  fill(p.d, p.f64, nn, 4);
  memset(p.out, 0, esize * nn);
  memset(p.t1, 0, esize * nn);

  /* The times are printed after the runs: output between runs would wake
   * the reading process, which then competes with the runs (and with
   * OpenMP threads waiting for the next parallel region) for the cores. */
  double *times = malloc((size_t)reps * sizeof(double));
  if (!times)
    die("out of memory");
  /* Warm-up, untimed: page faults, caches, thread pools, and the first
   * milliseconds of OpenMP's worker thread. Linux starts that thread on
   * the CPU of the main one and moves it to the idle core only when it
   * balances the load: on the 2-core Zen 5 VM, each parallel region of the
   * 2-thread kernels cost about 75 us instead of 2 for the first 10 to 34
   * ms of 58 processes in 60 (none with KMP_AFFINITY=scatter). A program
   * that runs longer than that does not see it; a benchmark that times the
   * first calls measured it instead of the kernel. So the runs are timed
   * after at least 60 ms of warm-up runs (one run at least). */
  double warm = now();
  do
    run(&p);
  while (now() - warm < 0.06);
  for (int r = 0; r < reps; ++r) {
    double t = now();
    run(&p);
    times[r] = now() - t;
  }
  for (int r = 0; r < reps; ++r)
    printf("time %.9f\n", times[r]);
#ifdef IMPL_NAIVE
  /* The flops of one run of the FMA loop, which bench.py cannot know. */
  if (!strcmp(p.op, "peak"))
    printf("work %.0f\n", (double)p.n * 1e6 * PEAK_CHAINS * 2.0 *
                              (double)(PEAK_BYTES / esize));
#endif
  free(times);
  double sum = checksum(&p);
  printf("checksum %.17g %.17g\n", sum, p.magnitude);
  return 0;
}
