/*===- reference.h - Hand-written C references for the C suite ------------===*
 *
 * Part of the matc project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * Plain loops computing what the Mat functions of Inputs/ops.mat compute,
 * a deterministic pseudo-random generator for their inputs, and the
 * comparison with stated tolerances. Compiled once per element type:
 * REAL is `double` (default) or `float` (-DMAT_F32).
 *
 * All matrices are row-major and contiguous: element (i, j) of an R x C
 * matrix m is m[i * C + j], as in the C interface matc generates.
 *
 * Tolerances. eps is the machine epsilon of REAL (DBL_EPSILON = 2^-52 ~
 * 2.2e-16, FLT_EPSILON = 2^-23 ~ 1.2e-7); inputs are uniform in [-1, 1).
 *  - One IEEE operation per element (transpose, +, -, elementwise *,
 *    scalar *, negation): bit-exact. Nothing can be reordered.
 *  - A product with inner length K: |mat - ref| <= 2 K eps (|A| |B|)_ij.
 *    Any summation order, with or without fused multiply-adds, stays
 *    within gamma_K (|A| |B|) of the exact product, gamma_K = K u / (1 -
 *    K u) with u = eps / 2 (Higham, Accuracy and Stability of Numerical
 *    Algorithms, 2nd ed., section 3.5); two such results differ by at most
 *    2 gamma_K ~ K eps, and the bound doubles that for margin. Where
 *    |A| |B| would cost a second product, its Cauchy-Schwarz upper bound
 *    |row i of A|_2 |column j of B|_2 stands in (ref_product_scale).
 *  - Compositions add the bounds of their parts (see suite.c); a scalar
 *    a * x + y, which may or may not be fused, is within 2 eps (|a x| +
 *    |y|).
 *
 *===----------------------------------------------------------------------===*/

#ifndef MATC_TEST_C_REFERENCE_H
#define MATC_TEST_C_REFERENCE_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MAT_F32
typedef float REAL;
#define REAL_EPS FLT_EPSILON
#define REAL_NAME "f32"
#else
typedef double REAL;
#define REAL_EPS DBL_EPSILON
#define REAL_NAME "f64"
#endif

/*===----------------------------------------------------------------------===*
 * Inputs: a 64-bit linear congruential generator (Knuth's MMIX constants),
 * seeded per test, so every run sees the same numbers.
 *===----------------------------------------------------------------------===*/

static uint64_t lcg_state;

static void lcg_seed(uint64_t seed) { lcg_state = seed * 2654435761u + 1; }

/* Uniform in [-1, 1), from the top 53 bits of the state. */
static double lcg_uniform(void) {
  lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(lcg_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* A fresh R x C matrix of pseudo-random elements. */
static REAL *random_matrix(int64_t rows, int64_t cols) {
  REAL *m = malloc(sizeof(REAL) * (size_t)(rows * cols));
  for (int64_t i = 0; i < rows * cols; ++i)
    m[i] = (REAL)lcg_uniform();
  return m;
}

/*===----------------------------------------------------------------------===*
 * References. `c` is m x n; products accumulate in REAL from zero, k going
 * up, as the definition reads (the i-k-j loop order only makes the walk
 * over b contiguous).
 *===----------------------------------------------------------------------===*/

/* c = a @ b with a m x k, b k x n. */
static void ref_matmul(int64_t m, int64_t k, int64_t n, const REAL *a,
                       const REAL *b, REAL *c) {
  for (int64_t i = 0; i < m * n; ++i)
    c[i] = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      REAL aip = a[i * k + p];
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += aip * b[p * n + j];
    }
}

/* c = |a| @ |b| in double: the scale of a product's rounding error. */
static void ref_abs_matmul(int64_t m, int64_t k, int64_t n, const REAL *a,
                           const REAL *b, double *c) {
  for (int64_t i = 0; i < m * n; ++i)
    c[i] = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      double aip = fabs((double)a[i * k + p]);
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += aip * fabs((double)b[p * n + j]);
    }
}

/* bound[i * n + j] = |row i of a|_2 |column j of b|_2 with a m x k, b k x n:
 * by Cauchy-Schwarz at least (|a| @ |b|)_ij, at O(mk + kn + mn) cost. */
static void ref_product_scale(int64_t m, int64_t k, int64_t n, const REAL *a,
                              const REAL *b, double *bound) {
  double *rows = calloc((size_t)m, sizeof(double));
  double *cols = calloc((size_t)n, sizeof(double));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      rows[i] += (double)a[i * k + p] * (double)a[i * k + p];
  for (int64_t p = 0; p < k; ++p)
    for (int64_t j = 0; j < n; ++j)
      cols[j] += (double)b[p * n + j] * (double)b[p * n + j];
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      bound[i * n + j] = sqrt(rows[i]) * sqrt(cols[j]);
  free(rows);
  free(cols);
}

/* t = a.T with a m x n. */
static void ref_transpose(int64_t m, int64_t n, const REAL *a, REAL *t) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      t[j * m + i] = a[i * n + j];
}

/* c = a OP b elementwise, `count` elements; OP is '+', '-' or '*'. */
static void ref_elementwise(char op, int64_t count, const REAL *a,
                            const REAL *b, REAL *c) {
  for (int64_t i = 0; i < count; ++i)
    c[i] = op == '+' ? a[i] + b[i] : op == '-' ? a[i] - b[i] : a[i] * b[i];
}

/* c = s * a, `count` elements. */
static void ref_scale(int64_t count, REAL s, const REAL *a, REAL *c) {
  for (int64_t i = 0; i < count; ++i)
    c[i] = s * a[i];
}

/* c = -a, `count` elements. */
static void ref_neg(int64_t count, const REAL *a, REAL *c) {
  for (int64_t i = 0; i < count; ++i)
    c[i] = -a[i];
}

/*===----------------------------------------------------------------------===*
 * Comparison
 *===----------------------------------------------------------------------===*/

static int checks_run, checks_failed;

/* Compares `count` elements of `got` with `want`: element i may differ by
 * `bound[i]` (all exact when `bound` is NULL). Reports the first element
 * that does not fit, with the largest error relative to its bound. */
static void check_close(const char *what, int64_t count, const REAL *got,
                        const REAL *want, const double *bound) {
  ++checks_run;
  int64_t bad = -1;
  double worst = 0;
  for (int64_t i = 0; i < count; ++i) {
    double err = fabs((double)got[i] - (double)want[i]);
    double allowed = bound ? bound[i] : 0;
    if (!(err <= allowed) && bad < 0) /* !(<=) also catches a NaN */
      bad = i;
    if (allowed > 0 && err / allowed > worst)
      worst = err / allowed;
  }
  if (bad >= 0) {
    ++checks_failed;
    printf("FAIL %s %s: element %lld is %.17g, expected %.17g (bound %g)\n",
           REAL_NAME, what, (long long)bad, (double)got[bad], (double)want[bad],
           bound ? bound[bad] : 0.0);
  } else if (getenv("MATC_SUITE_VERBOSE")) {
    printf("ok %s %s (largest error %.3f of its bound)\n", REAL_NAME, what,
           worst);
  }
}

/* Checks that a status is `expected`. */
static void check_status(const char *what, int got, int expected) {
  ++checks_run;
  if (got != expected) {
    ++checks_failed;
    printf("FAIL %s %s: status %d, expected %d\n", REAL_NAME, what, got,
           expected);
  }
}

#endif /* MATC_TEST_C_REFERENCE_H */
