// Includes the C library's and POSIX's headers, with -DNDEBUG -DDEBUG
// -DWIN32, before the header matc writes for header-reserved-names.test,
// whose parameters are named after macros of theirs.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <time.h>
#include <wchar.h>

#include "macros.h"
