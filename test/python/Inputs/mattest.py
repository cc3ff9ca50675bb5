# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the tests of the Python package share: paths, tolerances, and a
runner that prints one line per test case.

The lit substitution %pymatc (test/python/lit.local.cfg) sets PYTHONPATH
(the package of this checkout, this directory), MATC (this build's matc),
MATC_SRC_ROOT and XDG_CACHE_HOME.
"""

import os
import sys
import threading
import unittest

import numpy as np

SRC_ROOT = os.environ["MATC_SRC_ROOT"]
EXAMPLES = os.path.join(SRC_ROOT, "examples")


def rng(seed=0):
    return np.random.default_rng(seed)


def integers(r, shape, dtype):
    """An array of `shape` and `dtype` of integers in -3 .. 3 from the
    generator `r`: every product and partial sum of a few thousand terms
    is exact in f32 and f64, so results compare with NumPy's exactly."""
    return r.integers(-3, 4, shape).astype(dtype)


def assert_product_close(test, got, a, b, expected=None):
    """`got` is a @ b within the rounding of a sum of K products (K the
    inner size): |got - a @ b| <= 2 K eps (|a| @ |b|), elementwise
    (Higham's gamma_K, doubled, as test/C/reference.h has it)."""
    a = np.asarray(a)
    b = np.asarray(b)
    exact = a.astype(np.float64) @ b.astype(np.float64) if expected is None \
        else expected
    eps = np.finfo(got.dtype).eps
    bound = 2 * a.shape[1] * eps * (np.abs(a).astype(np.float64) @
                                    np.abs(b).astype(np.float64))
    worst = np.max(np.abs(got.astype(np.float64) - exact) - bound)
    test.assertLessEqual(worst, 0, "product off by more than 2 K eps")


def run_in_threads(work, count=4):
    """Runs work(i) for i in range(count), each in a thread of its own;
    once all have ended, raises the first exception any of them raised."""
    errors = []

    def guarded(i):
        try:
            work(i)
        except BaseException as e:  # reported by the calling thread
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,))
               for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


class _Result(unittest.TextTestResult):
    """Reports failures as `FAIL in TEST`, not `FAIL: TEST`: lit echoes a
    failing test's output, and `FAIL: ` at the start of a line is how lit
    reports a failed test (scripts/lib/common.sh counts those)."""

    def printErrorList(self, flavour, errors):
        for test, err in errors:
            self.stream.writeln(self.separator1)
            self.stream.writeln("%s in %s" % (flavour,
                                              self.getDescription(test)))
            self.stream.writeln(self.separator2)
            self.stream.writeln("%s" % err)
            self.stream.flush()


def main():
    """unittest.main with one line per test; exit status 1 on a failure."""
    runner = unittest.TextTestRunner(verbosity=2, resultclass=_Result)
    unittest.main(testRunner=runner, argv=[sys.argv[0]])
