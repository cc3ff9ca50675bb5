/* Loads a Mat shared library (argv[1]) at run time and calls its top level,
 * matc_main; with a second argument `scale`, first interop.mat's mat_scale.
 *
 *   dlopen_main LIBRARY [scale] */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3)
    return 2;
  void *library = dlopen(argv[1], RTLD_NOW);
  if (!library) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  if (argc == 3) {
    int (*scale)(const double *, int64_t, double, double *, int64_t) =
        (int (*)(const double *, int64_t, double, double *, int64_t))dlsym(
            library, "mat_scale");
    if (!scale) {
      fprintf(stderr, "dlsym: %s\n", dlerror());
      return 1;
    }
    const double a[2] = {3, 4};
    double r[2];
    int status = scale(a, 1, 2.0, r, 1);
    printf("mat_scale: %d %g %g\n", status, r[0], r[1]);
  }
  void (*program)(void) = (void (*)(void))dlsym(library, "matc_main");
  if (!program) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    return 1;
  }
  program();
  fflush(stdout);
  return 0;
}
