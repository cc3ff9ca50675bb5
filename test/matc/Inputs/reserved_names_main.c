// Includes the C library's headers before the header matc writes for
// header-reserved-names.test, whose parameters are named after their macros
// and after identifiers reserved to the implementation.
#define _GNU_SOURCE
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "reserved.h"

int main(void) {
  double a[4] = {1, 2, 3, 4};
  double result;
  int status = mat_g(2.5, a, 2, 1, 2, 3, 4, &result);
  printf("status %d, result %g\n", status, result);
  return 0;
}
