/*===- products.c - Exact products of every size, checked from C -----------===*
 *
 * Part of the matc project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===-----------------------------------------------------------------------===*
 *
 * Calls the products of Inputs/products.mat (plain, b transposed, a
 * transposed; f32 and f64) on every size a test asks for and checks each
 * result exactly. The inputs are small integers (-2 .. 2), so every product
 * and partial sum is an integer below 2^24 and exact in f32 and f64 in any
 * order of summation: a result must equal the reference bit for bit.
 *
 *   products square N0 N1 [S] the n x n x n products for n = N0, N0 + S, ...
 *                              up to N1 (S = 1 by default)
 *   products rect M K N ...    the m x k x n products for every m, k, n of
 *                              the lists (comma-separated)
 *   products narrow M0 M1 S K0 K1 T
 *                              the products of N = 1, 3, 7 and 8 columns
 *                              (mv32, mn3_32, ...) for m = M0, M0 + S, ...
 *                              up to M1 and k = K0, K0 + T, ... up to K1
 *   products vecmat K0 K1 S N0 N1 T
 *                              the vector-matrix products (M = 1: vm32,
 *                              vmt32, ...) for k = K0, K0 + S, ... up to K1
 *                              and n = N0, N0 + T, ... up to N1, x @ b.T
 *                              (vmbt32, vmbt64) on 1 x k x n and a.T @ x
 *                              (vtm32, vtm64) on n x k x 1
 *   products tiny M0 M1 S      the products of a tiny static B (3 x 3,
 *                              7 x 2, 1 x 9, 16 x 15: tiny3x3_32, ...) for
 *                              m = M0, M0 + S, ... up to M1
 *
 * Up to 128^3 multiply-adds the reference is the whole product (i-k-j
 * loops in double); above, each result is checked with Freivalds' test
 * (C x == A (B x) for two integer vectors x, exact in double), which finds
 * any wrong element but for errors that cancel in both sums.
 * A product that writes past its C (into 64 guard elements after it)
 * counts as wrong too.
 * Prints "products: N checked, W wrong" and exits 1 if W > 0.
 *
 *===-----------------------------------------------------------------------===*/

#include "products.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long checked, wrong;

/* Deterministic integers in -2 .. 2. */
static double value(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)((*state >> 33) % 5) - 2.0;
}

typedef int (*Product32)(const float *, int64_t, int64_t, const float *,
                         int64_t, int64_t, float *, int64_t, int64_t);
typedef int (*Product64)(const double *, int64_t, int64_t, const double *,
                         int64_t, int64_t, double *, int64_t, int64_t);

/* Element (i, j) of the logical operand X (rows x cols) stored as `x`,
 * transposed in memory when `t`. */
static double at(const double *x, int t, int64_t rows, int64_t cols,
                 int64_t i, int64_t j) {
  (void)rows;
  return t ? x[j * rows + i] : x[i * cols + j];
}

/* Checks `got` (m x n) = A B, with A (m x k) stored transposed when ta, B
 * (k x n) when tb; a and b hold the stored values in double. */
static void check(const char *what, const double *a, int ta, const double *b,
                  int tb, const double *got, int64_t m, int64_t k,
                  int64_t n) {
  ++checked;
  int bad = 0;
  if (m * k * n <= 128LL * 128 * 128) {
    double *ref = calloc((size_t)(m * n), sizeof(double));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) {
        double x = at(a, ta, m, k, i, p);
        for (int64_t j = 0; j < n; ++j)
          ref[i * n + j] += x * at(b, tb, k, n, p, j);
      }
    for (int64_t e = 0; e < m * n && !bad; ++e)
      bad = got[e] != ref[e];
    free(ref);
  } else {
    double *x = malloc(sizeof(double) * (size_t)n);
    double *bx = malloc(sizeof(double) * (size_t)k);
    for (int v = 0; v < 2 && !bad; ++v) {
      for (int64_t j = 0; j < n; ++j)
        x[j] = (double)((j * (v ? 7 : 3) + v) % 5 + 1);
      for (int64_t p = 0; p < k; ++p) {
        double s = 0;
        for (int64_t j = 0; j < n; ++j)
          s += at(b, tb, k, n, p, j) * x[j];
        bx[p] = s;
      }
      for (int64_t i = 0; i < m && !bad; ++i) {
        double cx = 0, abx = 0;
        for (int64_t j = 0; j < n; ++j)
          cx += got[i * n + j] * x[j];
        for (int64_t p = 0; p < k; ++p)
          abx += at(a, ta, m, k, i, p) * bx[p];
        bad = cx != abx;
      }
    }
    free(x);
    free(bx);
  }
  if (bad) {
    ++wrong;
    printf("FAIL %s %lld x %lld x %lld\n", what, (long long)m, (long long)k,
           (long long)n);
  }
}

/* The operands of an m x k x n product: A and B of integers in -2 .. 2 (in
 * double and in float, from `seed`), C in both types. */
typedef struct {
  double *a, *b, *c;
  float *a32, *b32, *c32;
} Operands;

/* Elements after each C, set to GUARD_VALUE: a product writes its m x n
 * elements and nothing past them (checkGuards). */
enum { GUARD = 64 };
#define GUARD_VALUE 12345.0

static Operands makeOperands(int64_t m, int64_t k, int64_t n,
                             uint64_t seed) {
  Operands o;
  uint64_t state = seed;
  o.a = malloc(sizeof(double) * (size_t)(m * k));
  o.b = malloc(sizeof(double) * (size_t)(k * n));
  o.c = malloc(sizeof(double) * (size_t)(m * n + GUARD));
  o.a32 = malloc(sizeof(float) * (size_t)(m * k));
  o.b32 = malloc(sizeof(float) * (size_t)(k * n));
  o.c32 = malloc(sizeof(float) * (size_t)(m * n + GUARD));
  for (int64_t e = m * n; e < m * n + GUARD; ++e)
    o.c32[e] = (float)(o.c[e] = GUARD_VALUE);
  for (int64_t e = 0; e < m * k; ++e)
    o.a32[e] = (float)(o.a[e] = value(&state));
  for (int64_t e = 0; e < k * n; ++e)
    o.b32[e] = (float)(o.b[e] = value(&state));
  return o;
}

/* Counts a product that wrote past its m x n C (into the GUARD elements
 * after c or c32) as wrong. */
static void checkGuards(const char *what, const Operands *o, int64_t m,
                        int64_t n) {
  for (int64_t e = m * n; e < m * n + GUARD; ++e)
    if (o->c[e] != GUARD_VALUE || o->c32[e] != (float)GUARD_VALUE) {
      ++wrong;
      printf("FAIL %s %lld x %lld wrote past C\n", what, (long long)m,
             (long long)n);
      return;
    }
}

static void freeOperands(Operands *o) {
  free(o->a);
  free(o->b);
  free(o->c);
  free(o->a32);
  free(o->b32);
  free(o->c32);
}

/* Runs the six products on m x k x n. */
static void run(int64_t m, int64_t k, int64_t n) {
  static const struct {
    const char *name;
    Product32 f32;
    Product64 f64;
    int ta, tb;
  } products[] = {
      {"a @ b", mat_mm32, mat_mm64, 0, 0},
      {"a @ b.T", mat_mmbt32, mat_mmbt64, 0, 1},
      {"a.T @ b", mat_mmat32, mat_mmat64, 1, 0},
  };
  Operands o = makeOperands(m, k, n, (uint64_t)(m * 1000003 + k * 1009 + n));
  double *a = o.a, *b = o.b, *c = o.c;
  float *a32 = o.a32, *b32 = o.b32, *c32 = o.c32;
  for (size_t p = 0; p < sizeof(products) / sizeof(products[0]); ++p) {
    int ta = products[p].ta, tb = products[p].tb;
    /* Stored shapes: A as k x m when transposed, B as n x k. */
    int64_t ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k,
            bc = tb ? k : n;
    char what[64];
    if (products[p].f32(a32, ar, ac, b32, br, bc, c32, m, n) != 0) {
      ++checked;
      ++wrong;
      printf("FAIL f32 %s refused its sizes\n", products[p].name);
    } else {
      for (int64_t e = 0; e < m * n; ++e)
        c[e] = c32[e];
      snprintf(what, sizeof what, "f32 %s", products[p].name);
      check(what, a, ta, b, tb, c, m, k, n);
    }
    if (products[p].f64(a, ar, ac, b, br, bc, c, m, n) != 0) {
      ++checked;
      ++wrong;
      printf("FAIL f64 %s refused its sizes\n", products[p].name);
    } else {
      snprintf(what, sizeof what, "f64 %s", products[p].name);
      check(what, a, ta, b, tb, c, m, k, n);
    }
    checkGuards(products[p].name, &o, m, n);
  }
  freeOperands(&o);
}

/* Counts a call of the `type` ("f32" or "f64") product `name` on the m x
 * k x n operands `o` (A stored transposed, k x m, when `ta`, B n x k when
 * `tb`) that refused its sizes (`status` not 0) as wrong, or checks its
 * result (an f32 one copied from c32 into c first). */
static void checkCall(const char *type, const char *name, int status,
                      Operands *o, int ta, int tb, int64_t m, int64_t k,
                      int64_t n) {
  char what[64];
  if (status != 0) {
    ++checked;
    ++wrong;
    printf("FAIL %s %s refused its sizes\n", type, name);
    return;
  }
  if (!strcmp(type, "f32"))
    for (int64_t e = 0; e < m * n; ++e)
      o->c[e] = o->c32[e];
  snprintf(what, sizeof what, "%s %s", type, name);
  check(what, o->a, ta, o->b, tb, o->c, m, k, n);
  checkGuards(what, o, m, n);
}

/* The products of a static N of at most 8 (one C type for every N: C has
 * N columns, B has K rows). */
typedef int (*Narrow32)(const float *, int64_t, int64_t, const float *,
                        int64_t, float *, int64_t);
typedef int (*Narrow64)(const double *, int64_t, int64_t, const double *,
                        int64_t, double *, int64_t);

/* Runs the products of N = 1, 3, 7 and 8 columns on m x k x N. */
static void runNarrow(int64_t m, int64_t k) {
  static const struct {
    const char *name;
    int64_t n;
    Narrow32 f32;
    Narrow64 f64;
  } products[] = {
      {"a @ v", 1, mat_mv32, mat_mv64},
      {"a @ b (N = 3)", 3, mat_mn3_32, mat_mn3_64},
      {"a @ b (N = 7)", 7, mat_mn7_32, mat_mn7_64},
      {"a @ b (N = 8)", 8, mat_mn8_32, mat_mn8_64},
  };
  for (size_t p = 0; p < sizeof(products) / sizeof(products[0]); ++p) {
    int64_t n = products[p].n;
    Operands o = makeOperands(m, k, n, (uint64_t)(m * 1000003 + k * 1009 + n));
    checkCall("f32", products[p].name,
              products[p].f32(o.a32, m, k, o.b32, k, o.c32, m), &o, 0, 0, m, k,
              n);
    checkCall("f64", products[p].name,
              products[p].f64(o.a, m, k, o.b, k, o.c, m), &o, 0, 0, m, k, n);
    freeOperands(&o);
  }
}

/* The products of a tiny static B (K x N, both static; A has K columns,
 * C has N). */
typedef int (*Tiny32)(const float *, int64_t, const float *, float *,
                      int64_t);
typedef int (*Tiny64)(const double *, int64_t, const double *, double *,
                      int64_t);

/* Runs the products of a tiny static B (3 x 3, 7 x 2, 1 x 9, 16 x 15) on
 * m rows. */
static void runTiny(int64_t m) {
  static const struct {
    const char *name;
    int64_t k, n;
    Tiny32 f32;
    Tiny64 f64;
  } products[] = {
      {"a @ b (B 3 x 3)", 3, 3, mat_tiny3x3_32, mat_tiny3x3_64},
      {"a @ b (B 7 x 2)", 7, 2, mat_tiny7x2_32, mat_tiny7x2_64},
      {"a @ b (B 1 x 9)", 1, 9, mat_tiny1x9_32, mat_tiny1x9_64},
      {"a @ b (B 16 x 15)", 16, 15, mat_tiny16x15_32, mat_tiny16x15_64},
  };
  for (size_t p = 0; p < sizeof(products) / sizeof(products[0]); ++p) {
    int64_t k = products[p].k, n = products[p].n;
    Operands o = makeOperands(m, k, n, (uint64_t)(m * 1000003 + k * 1009 + n));
    checkCall("f32", products[p].name,
              products[p].f32(o.a32, m, o.b32, o.c32, m), &o, 0, 0, m, k, n);
    checkCall("f64", products[p].name, products[p].f64(o.a, m, o.b, o.c, m), &o,
              0, 0, m, k, n);
    freeOperands(&o);
  }
}

/* The vector-matrix products: x @ b with x 1 x K, and x.T @ b with x K x 1
 * (the same K values in memory), M = 1; x @ b.T (M = 1, b N x K); a.T @ x
 * (N = 1, a K x M). */
typedef int (*Vecmat32)(const float *, int64_t, const float *, int64_t,
                        int64_t, float *, int64_t);
typedef int (*Vecmat64)(const double *, int64_t, const double *, int64_t,
                        int64_t, double *, int64_t);

/* Runs the vector-matrix products and x @ b.T on 1 x k x n, and a.T @ x on
 * n x k x 1. */
static void runVecmat(int64_t k, int64_t n) {
  static const struct {
    const char *name;
    Vecmat32 f32;
    Vecmat64 f64;
    int tb; /* B stored n x k */
  } products[] = {
      {"x @ b (M = 1)", mat_vm32, mat_vm64, 0},
      {"x.T @ b (M = 1)", mat_vmt32, mat_vmt64, 0},
      {"x @ b.T (M = 1)", mat_vmbt32, mat_vmbt64, 1},
  };
  for (size_t p = 0; p < sizeof(products) / sizeof(products[0]); ++p) {
    int tb = products[p].tb;
    int64_t br = tb ? n : k, bc = tb ? k : n;
    Operands o = makeOperands(1, k, n, (uint64_t)(k * 1009 + n));
    checkCall("f32", products[p].name,
              products[p].f32(o.a32, k, o.b32, br, bc, o.c32, n), &o, 0, tb, 1,
              k, n);
    checkCall("f64", products[p].name,
              products[p].f64(o.a, k, o.b, br, bc, o.c, n), &o, 0, tb, 1, k,
              n);
    freeOperands(&o);
  }
  /* a.T @ x: C (n x 1) from A stored k x n and x (k x 1). */
  Operands o = makeOperands(n, k, 1, (uint64_t)(k * 1013 + n));
  checkCall("f32", "a.T @ x (N = 1)",
            mat_vtm32(o.a32, k, n, o.b32, k, o.c32, n), &o, 1, 0, n, k, 1);
  checkCall("f64", "a.T @ x (N = 1)", mat_vtm64(o.a, k, n, o.b, k, o.c, n), &o,
            1, 0, n, k, 1);
  freeOperands(&o);
}

/* Parses a comma-separated list of positive sizes into `out` (at most 64). */
static int parseList(const char *text, int64_t *out) {
  int count = 0;
  for (const char *p = text; *p && count < 64;) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 1) {
      fprintf(stderr, "products: bad size list '%s'\n", text);
      exit(2);
    }
    out[count++] = v;
    p = *end == ',' ? end + 1 : end;
  }
  return count;
}

int main(int argc, char **argv) {
  if ((argc == 4 || argc == 5) && !strcmp(argv[1], "square")) {
    long first = atol(argv[2]), last = atol(argv[3]);
    long step = argc == 5 ? atol(argv[4]) : 1;
    if (first < 1 || step < 1) {
      fprintf(stderr, "products: sizes and step must be positive\n");
      return 2;
    }
    for (long n = first; n <= last; n += step)
      run(n, n, n);
  } else if (argc == 8 &&
             (!strcmp(argv[1], "narrow") || !strcmp(argv[1], "vecmat"))) {
    /* Two ranges, first, last and step each: m and k for narrow, k and n
     * for vecmat. */
    long v[6];
    for (int i = 0; i < 6; ++i)
      v[i] = atol(argv[i + 2]);
    if (v[0] < 1 || v[2] < 1 || v[3] < 1 || v[5] < 1) {
      fprintf(stderr, "products: bad %s sizes\n", argv[1]);
      return 2;
    }
    void (*runPair)(int64_t, int64_t) =
        !strcmp(argv[1], "narrow") ? runNarrow : runVecmat;
    for (long x = v[0]; x <= v[1]; x += v[2])
      for (long y = v[3]; y <= v[4]; y += v[5])
        runPair(x, y);
  } else if (argc == 5 && !strcmp(argv[1], "tiny")) {
    long m0 = atol(argv[2]), m1 = atol(argv[3]), ms = atol(argv[4]);
    if (m0 < 1 || ms < 1) {
      fprintf(stderr, "products: bad tiny sizes\n");
      return 2;
    }
    for (long m = m0; m <= m1; m += ms)
      runTiny(m);
  } else if (argc == 5 && !strcmp(argv[1], "rect")) {
    int64_t ms[64], ks[64], ns[64];
    int cm = parseList(argv[2], ms), ck = parseList(argv[3], ks),
        cn = parseList(argv[4], ns);
    for (int i = 0; i < cm; ++i)
      for (int p = 0; p < ck; ++p)
        for (int j = 0; j < cn; ++j)
          run(ms[i], ks[p], ns[j]);
  } else {
    fprintf(stderr,
            "usage: products square N0 N1 [STEP] | rect M,.. K,.. N,.. | "
            "narrow M0 M1 S K0 K1 T | tiny M0 M1 S | vecmat K0 K1 S N0 N1 T\n");
    return 2;
  }
  printf("products: %ld checked, %ld wrong\n", checked, wrong);
  return wrong != 0;
}
