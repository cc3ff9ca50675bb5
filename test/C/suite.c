/*===- suite.c - Compiled Mat functions against hand-written C ------------===*
 *
 * Part of the matc project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * Calls the functions of Inputs/ops.mat, compiled by matc, through the
 * header `matc --emit-header` wrote (ops.h, on the include path), on
 * pseudo-random inputs, and compares each result with reference.h (the
 * tolerances are stated there). Also checks that the inputs are left as
 * they were, and that sizes that do not fit return status 1 and leave the
 * result alone.
 *
 *   suite SET...    SET: small, medium, big, errors (see `shapes` below)
 *
 * Prints one FAIL line per failed check, then
 * "suite f64: N checks, N failed"; exits 1 if any failed.
 *
 *===----------------------------------------------------------------------===*/

#include "ops.h"
#include "reference.h"

/* m x k @ k x n. */
struct Shape {
  int64_t m, k, n;
};

/* Square, non-square, 1xN and Nx1, primes, around powers of two. */
static const struct Shape smallShapes[] = {
    {1, 1, 1},   {3, 3, 3},   {2, 3, 4}, {4, 3, 2},   {1, 17, 1},
    {17, 1, 17}, {1, 5, 9},   {9, 5, 1}, {1, 1, 9},   {7, 13, 31},
    {31, 7, 13}, {13, 31, 7}, {8, 8, 8}, {16, 1, 32},
};
static const struct Shape mediumShapes[] = {
    {63, 64, 65},  {64, 64, 64}, {65, 63, 64}, {127, 127, 127},
    {128, 1, 127}, {1, 127, 64}, {127, 65, 1}, {64, 1000, 63},
};
static const struct Shape bigShapes[] = {
    {1000, 1000, 1000},
    {1000, 1, 1000},
    {1, 1000, 1000},
};

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Calls and checks every function of ops.mat on one shape. `seed` makes
 * each shape's inputs its own. */
static void testShape(struct Shape s, uint64_t seed) {
  int64_t m = s.m, k = s.k, n = s.n;
  char what[128];
  lcg_seed(seed);
  REAL *a = random_matrix(m, k), *a2 = random_matrix(m, k);
  REAL *b = random_matrix(k, n), *c = random_matrix(m, n);
  REAL *at = random_matrix(k, m), *d = random_matrix(n, m);
  REAL sc = (REAL)lcg_uniform();
  /* Copies, to check that no call writes into its inputs. */
  size_t bytesA = sizeof(REAL) * (size_t)(m * k);
  REAL *aCopy = malloc(bytesA);
  memcpy(aCopy, a, bytesA);

  int64_t most = max64(m, max64(k, n));
  REAL *got = malloc(sizeof(REAL) * (size_t)(most * most));
  REAL *want = malloc(sizeof(REAL) * (size_t)(most * most));
  REAL *tmp = malloc(sizeof(REAL) * (size_t)(most * most));
  REAL *tmp2 = malloc(sizeof(REAL) * (size_t)(most * most));
  double *bound = malloc(sizeof(double) * (size_t)(most * most));
  double *bound2 = malloc(sizeof(double) * (size_t)(most * most));

#define SHAPE(op)                                                              \
  snprintf(what, sizeof what, "%s %lldx%lldx%lld", op, (long long)m,           \
           (long long)k, (long long)n)

  /* a @ b: 2 K eps |a||b|. */
  SHAPE("matmul");
  check_status(what, mat_matmul(a, m, k, b, k, n, got, m, n), 0);
  ref_matmul(m, k, n, a, b, want);
  ref_product_scale(m, k, n, a, b, bound);
  for (int64_t i = 0; i < m * n; ++i)
    bound[i] *= 2.0 * (double)k * REAL_EPS;
  check_close(what, m * n, got, want, bound);

  /* Single operations: exact. */
  SHAPE("trans");
  check_status(what, mat_trans(a, m, k, got, k, m), 0);
  ref_transpose(m, k, a, want);
  check_close(what, m * k, got, want, NULL);
  const char ops[] = {'+', '-', '*'};
  for (int o = 0; o < 3; ++o) {
    snprintf(what, sizeof what, "elementwise %c %lldx%lld", ops[o],
             (long long)m, (long long)k);
    int status = ops[o] == '+'   ? mat_add(a, m, k, a2, m, k, got, m, k)
                 : ops[o] == '-' ? mat_sub(a, m, k, a2, m, k, got, m, k)
                                 : mat_mul(a, m, k, a2, m, k, got, m, k);
    check_status(what, status, 0);
    ref_elementwise(ops[o], m * k, a, a2, want);
    check_close(what, m * k, got, want, NULL);
  }
  SHAPE("scale");
  check_status(what, mat_scale(a, m, k, sc, got, m, k), 0);
  ref_scale(m * k, sc, a, want);
  check_close(what, m * k, got, want, NULL);
  SHAPE("neg");
  check_status(what, mat_neg(a, m, k, got, m, k), 0);
  ref_neg(m * k, a, want);
  check_close(what, m * k, got, want, NULL);

  /* The 1000-cubed shapes stop here: each reference product is a second
   * or so. */
  int heavy = m * k * n > 256 * 256 * 256;

  /* (a @ b + c) * s - a @ (b * b): the bounds of both products, scaled,
   * plus 2 eps for each of the three elementwise roundings. */
  SHAPE("compose");
  if (!heavy) {
    check_status(what, mat_compose(a, m, k, b, k, n, c, m, n, sc, got, m, n),
                 0);
    ref_matmul(m, k, n, a, b, tmp);
    ref_elementwise('+', m * n, tmp, c, tmp);
    ref_scale(m * n, sc, tmp, tmp);
    ref_elementwise('*', k * n, b, b, tmp2);
    ref_matmul(m, k, n, a, tmp2, want);
    ref_elementwise('-', m * n, tmp, want, want);
    ref_product_scale(m, k, n, a, b, bound);
    ref_product_scale(m, k, n, a, tmp2, bound2);
    for (int64_t i = 0; i < m * n; ++i)
      bound[i] =
          2.0 * (double)(k + 3) * REAL_EPS *
          (fabs((double)sc) * (bound[i] + fabs((double)c[i])) + bound2[i]);
    check_close(what, m * n, got, want, bound);
  }

  /* at.T @ b with at k x m: a product with inner length k. */
  SHAPE("gram");
  if (!heavy) {
    check_status(what, mat_gram(at, k, m, b, k, n, got, m, n), 0);
    ref_transpose(k, m, at, tmp);
    ref_matmul(m, k, n, tmp, b, want);
    ref_product_scale(m, k, n, tmp, b, bound);
    for (int64_t i = 0; i < m * n; ++i)
      bound[i] *= 2.0 * (double)k * REAL_EPS;
    check_close(what, m * n, got, want, bound);
  }

  /* (a @ b) @ d with d n x m: 2 (k + n) eps |a||b||d|. */
  if (m * k * n <= 64 * 64 * 64) {
    SHAPE("chain");
    check_status(what, mat_chain(a, m, k, b, k, n, d, n, m, got, m, m), 0);
    ref_matmul(m, k, n, a, b, tmp);
    ref_matmul(m, n, m, tmp, d, want);
    ref_abs_matmul(m, k, n, a, b, bound2);
    for (int64_t i = 0; i < m * n; ++i)
      tmp2[i] = (REAL)bound2[i];
    ref_abs_matmul(m, n, m, tmp2, d, bound);
    for (int64_t i = 0; i < m * m; ++i)
      bound[i] *= 2.0 * (double)(k + n) * REAL_EPS * (1 + 4 * REAL_EPS);
    check_close(what, m * m, got, want, bound);
  }

  SHAPE("inputs unchanged");
  check_close(what, m * k, a, aCopy, NULL);

  free(a), free(a2), free(b), free(c), free(at), free(d), free(aCopy);
  free(got), free(want), free(tmp), free(tmp2), free(bound), free(bound2);
}

/* Fixed-size and scalar functions. */
static void testFixed(void) {
  lcg_seed(7);
  REAL *a = random_matrix(7, 13), *b = random_matrix(13, 31);
  REAL got[7 * 31], want[7 * 31];
  double bound[7 * 31];
  check_status("fixed 7x13x31", mat_fixed(a, b, got), 0);
  ref_matmul(7, 13, 31, a, b, want);
  ref_abs_matmul(7, 13, 31, a, b, bound);
  for (int i = 0; i < 7 * 31; ++i)
    bound[i] *= 2.0 * 13 * REAL_EPS;
  check_close("fixed 7x13x31", 7 * 31, got, want, bound);

  /* 1xN @ Nx1. */
  REAL *row = random_matrix(1, 97), *col = random_matrix(97, 1);
  REAL dot, dotWant;
  double dotBound;
  check_status("dot 97", mat_dot(row, 97, col, 97, &dot), 0);
  ref_matmul(1, 97, 1, row, col, &dotWant);
  ref_abs_matmul(1, 97, 1, row, col, &dotBound);
  dotBound *= 2.0 * 97 * REAL_EPS;
  check_close("dot 97", 1, &dot, &dotWant, &dotBound);

  REAL x = (REAL)0.75, y = (REAL)-0.3, alpha = (REAL)1.5, r;
  check_status("axpy", mat_axpy(alpha, x, y, &r), 0);
  REAL axpyWant = alpha * x + y;
  double axpyBound = 2 * REAL_EPS * (fabs((double)(alpha * x)) + fabs(y));
  check_close("axpy", 1, &r, &axpyWant, &axpyBound);
  free(a), free(b), free(row), free(col);
}

/* Sizes that do not fit: status 1, and the result is not written. */
static void testErrors(void) {
  lcg_seed(11);
  REAL *a = random_matrix(8, 8), *b = random_matrix(8, 8);
  REAL *c = random_matrix(8, 8), *d = random_matrix(8, 8);
  REAL out[81];
  for (int i = 0; i < 81; ++i)
    out[i] = (REAL)12345;

  /* Inner dimensions 3 and 4 differ. */
  check_status("matmul inner 3 vs 4", mat_matmul(a, 2, 3, b, 4, 2, out, 2, 2),
               1);
  /* The caller expects a 2x3 result of a 2x2 product. */
  check_status("matmul result 2x3 for 2x2",
               mat_matmul(a, 2, 2, b, 2, 2, out, 2, 3), 1);
  check_status("matmul result rows", mat_matmul(a, 2, 2, b, 2, 2, out, 3, 2),
               1);
  /* Sizes below 1. */
  check_status("matmul 0 rows", mat_matmul(a, 0, 2, b, 2, 2, out, 0, 2), 1);
  check_status("trans -1 cols", mat_trans(a, 2, -1, out, -1, 2), 1);
  /* Elementwise shapes differ (rows, then columns). */
  check_status("add 2x3 + 3x3", mat_add(a, 2, 3, b, 3, 3, out, 2, 3), 1);
  check_status("mul 2x3 * 2x2", mat_mul(a, 2, 3, b, 2, 2, out, 2, 3), 1);
  check_status("scale result", mat_scale(a, 2, 3, (REAL)2, out, 3, 2), 1);
  /* compose: c must be m x n. */
  check_status("compose c 3x3 for 2x2",
               mat_compose(a, 2, 2, b, 2, 2, c, 3, 3, (REAL)1, out, 2, 2), 1);
  /* gram: the rows of both operands must agree. */
  check_status("gram rows 3 vs 4", mat_gram(a, 3, 2, b, 4, 2, out, 2, 2), 1);
  /* chain: matmul's precondition, checked on chain's entry. */
  check_status("chain inner", mat_chain(a, 2, 3, b, 3, 2, d, 3, 2, out, 2, 2),
               1);
  /* dot: the row and the column must have one length. */
  check_status("dot 5 vs 6", mat_dot(a, 5, b, 6, out), 1);
  for (int i = 0; i < 81; ++i)
    if (out[i] != (REAL)12345) {
      check_status("result untouched after errors", 1, 0);
      break;
    }
  free(a), free(b), free(c), free(d);
}

static void runSet(const struct Shape *shapes, size_t count) {
  for (size_t i = 0; i < count; ++i)
    testShape(shapes[i],
              1000 + shapes[i].m * 7919 + shapes[i].k * 104729 + shapes[i].n);
}

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "small")) {
      runSet(smallShapes, COUNT(smallShapes));
      testFixed();
    } else if (!strcmp(argv[i], "medium")) {
      runSet(mediumShapes, COUNT(mediumShapes));
    } else if (!strcmp(argv[i], "big")) {
      runSet(bigShapes, COUNT(bigShapes));
    } else if (!strcmp(argv[i], "errors")) {
      testErrors();
    } else {
      fprintf(stderr, "suite: unknown set '%s'\n", argv[i]);
      return 2;
    }
  }
  printf("suite %s: %d checks, %d failed\n", REAL_NAME, checks_run,
         checks_failed);
  return checks_failed ? 1 : 0;
}
