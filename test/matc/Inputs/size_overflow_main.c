// Calls mat_f of size-overflow.test with the `?` sizes of argv[1]: the C
// entry point checks them before it reads a byte, so a one-element buffer
// stands for matrices of any claimed size.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int mat_f(const double *a, int64_t a_rows, const double *b, int64_t b_cols,
          double *result);

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? strtoll(argv[1], NULL, 10) : 2;
  double one = 1, result = 0;
  int status = mat_f(&one, n, &one, n, &result);
  printf("status %d\n", status);
  return 0;
}
