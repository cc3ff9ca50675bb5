/* A C program using Mat functions (kernels.mat) through the header matc
 * generates, checked against its own loops. Build and run (see
 * docs/c-interop.md):
 *
 *   matc kernels.mat --emit-header -o kernels.h
 *   matc kernels.mat -c --threads 1 -o kernels.o
 *   cc main.c kernels.o -o main
 *   ./main
 *
 * Without --threads 1 the object runs its loops on OpenMP threads: link it
 * with -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp. */
#include "kernels.h"

#include <math.h>
#include <stdio.h>

#define N 5 /* observations */
#define K 3 /* features */

int main(void) {
  /* Row-major: observation i, feature j is data[i * K + j]. */
  const double data[N * K] = {1.0, 2.0, 0.5, 0.0, 1.0, 1.0,  2.0, 0.0,
                              1.0, 1.5, 1.0, 1.0, 3.0, -1.0, 2.0};

  /* G = data.T @ data, by Mat: data is N x K, G is K x K. */
  double g[K * K];
  if (mat_gram(data, N, K, g, K, K) != 0) {
    fprintf(stderr, "mat_gram: the sizes do not fit\n");
    return 1;
  }

  /* The same with plain loops. */
  double ref[K * K];
  double worst = 0;
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) {
      double sum = 0;
      for (int p = 0; p < N; ++p)
        sum += data[p * K + i] * data[p * K + j];
      ref[i * K + j] = sum;
      double diff = fabs(g[i * K + j] - sum);
      worst = diff > worst ? diff : worst;
    }

  printf("Gram matrix (Mat):\n");
  for (int i = 0; i < K; ++i)
    printf("%g %g %g\n", g[i * K], g[i * K + 1], g[i * K + 2]);
  printf("largest difference from the C loops: %g\n", worst);

  /* x' = (G @ x + b) / 8, three steps, by Mat and by loops. */
  double x[K] = {1, 0, 0}, b[K] = {0, 1, 0}, next[K];
  double y[K] = {1, 0, 0}, ynext[K];
  for (int t = 0; t < 3; ++t) {
    if (mat_step(g, K, K, x, K, b, K, 0.125, next, K) != 0)
      return 1;
    for (int i = 0; i < K; ++i) {
      double sum = 0;
      for (int j = 0; j < K; ++j)
        sum += ref[i * K + j] * y[j];
      ynext[i] = (sum + b[i]) * 0.125;
    }
    for (int i = 0; i < K; ++i) {
      x[i] = next[i];
      y[i] = ynext[i];
      double diff = fabs(x[i] - y[i]);
      worst = diff > worst ? diff : worst;
    }
  }
  printf("after 3 steps (Mat): %g %g %g\n", x[0], x[1], x[2]);
  printf("largest difference from the C loops: %g\n", worst);

  /* Sizes that do not fit are refused, not read out of bounds: m is 3 x 3
   * but x is said to have 2 rows. */
  int status = mat_step(g, K, K, x, 2, b, K, 0.1, next, K);
  printf("mat_step with a 2-row x: status %d\n", status);
  return worst == 0 && status == 1 ? 0 : 1;
}
