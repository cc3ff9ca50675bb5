/*===- alias.c - C entry points whose result buffer overlaps an argument --===*
 *
 * Part of the matc project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * A C entry point computes a matrix result directly in the caller's buffer
 * only when that buffer overlaps no argument; otherwise in a buffer of its
 * own, copied at the end. This program calls functions of Inputs/ops.mat
 * with the result over an argument (the same buffer, or half-way into it),
 * next to it (adjacent, not overlapping), and checks each result against
 * reference.h, computed from a saved copy of the inputs.
 *
 * Prints one FAIL line per failed check, then "alias f64: N checks, N
 * failed"; exits 1 if any failed.
 *
 *===----------------------------------------------------------------------===*/

#include "ops.h"
#include "reference.h"

#include <string.h>

static REAL *copy_of(const REAL *a, int64_t count) {
  REAL *c = malloc((size_t)count * sizeof(REAL));
  memcpy(c, a, (size_t)count * sizeof(REAL));
  return c;
}

/* Checks an n x n product `got` of a and b (k = n) with reference.h's
 * tolerance: 2 k eps (|a| @ |b|)_ij. */
static void check_product(const char *what, int64_t n, const REAL *got,
                          const REAL *a, const REAL *b) {
  REAL *want = malloc((size_t)(n * n) * sizeof(REAL));
  double *bound = malloc((size_t)(n * n) * sizeof(double));
  ref_matmul(n, n, n, a, b, want);
  ref_abs_matmul(n, n, n, a, b, bound);
  for (int64_t i = 0; i < n * n; ++i)
    bound[i] *= 2.0 * (double)n * REAL_EPS;
  check_close(what, n * n, got, want, bound);
  free(want);
  free(bound);
}

static void testSize(int64_t n) {
  int64_t count = n * n;
  lcg_seed((uint64_t)n);
  REAL *a = random_matrix(n, n), *b = random_matrix(n, n);
  REAL *want = malloc((size_t)count * sizeof(REAL));
  char what[96];

  /* Transpose onto itself. */
  REAL *buf = copy_of(a, count);
  check_status("trans in place", mat_trans(buf, n, n, buf, n, n), 0);
  ref_transpose(n, n, a, want);
  snprintf(what, sizeof what, "trans in place n=%lld", (long long)n);
  check_close(what, count, buf, want, NULL);
  free(buf);

  /* a @ b onto a, and onto b. */
  buf = copy_of(a, count);
  check_status("matmul onto a", mat_matmul(buf, n, n, b, n, n, buf, n, n), 0);
  snprintf(what, sizeof what, "matmul onto a n=%lld", (long long)n);
  check_product(what, n, buf, a, b);
  free(buf);
  buf = copy_of(b, count);
  check_status("matmul onto b", mat_matmul(a, n, n, buf, n, n, buf, n, n), 0);
  snprintf(what, sizeof what, "matmul onto b n=%lld", (long long)n);
  check_product(what, n, buf, a, b);
  free(buf);

  /* a + b with the result half-way into a: a partial overlap. */
  REAL *big = malloc((size_t)(2 * count) * sizeof(REAL));
  memcpy(big, a, (size_t)count * sizeof(REAL));
  REAL *half = big + count / 2;
  check_status("add half over a", mat_add(big, n, n, b, n, n, half, n, n), 0);
  ref_elementwise('+', count, a, b, want);
  snprintf(what, sizeof what, "add half over a n=%lld", (long long)n);
  check_close(what, count, half, want, NULL);

  /* The result right after a: adjacent, no overlap; a is left alone. */
  memcpy(big, a, (size_t)count * sizeof(REAL));
  check_status("neg next to a", mat_neg(big, n, n, big + count, n, n), 0);
  ref_neg(count, a, want);
  snprintf(what, sizeof what, "neg next to a n=%lld", (long long)n);
  check_close(what, count, big + count, want, NULL);
  snprintf(what, sizeof what, "a kept next to neg n=%lld", (long long)n);
  check_close(what, count, big, a, NULL);
  free(big);

  free(a);
  free(b);
  free(want);
}

int main(void) {
  /* Below and above the sizes the optimizer tiles (16), ragged tiles. */
  static const int64_t sizes[] = {1, 3, 16, 17, 64, 200, 517};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    testSize(sizes[i]);
  printf("alias %s: %d checks, %d failed\n", REAL_NAME, checks_run,
         checks_failed);
  return checks_failed != 0;
}
