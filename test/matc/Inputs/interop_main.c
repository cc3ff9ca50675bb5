/* Links interop.mat's object (or shared library) through its header: calls
 * mat_scale with a good and a bad size, then the top level. */
#include "interop.h"
#include <stdio.h>

int main(void) {
  const double a[4] = {1, 2, 3, 4};
  double r[4] = {0, 0, 0, 0};
  int ok = mat_scale(a, 2, 0.5, r, 2);
  int bad = mat_scale(a, 2, 0.5, r, 3); /* result rows must be 2 */
  printf("status %d %d: %g %g %g %g\n", ok, bad, r[0], r[1], r[2], r[3]);
  matc_main();
  return 0;
}
