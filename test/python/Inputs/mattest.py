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
import unittest

import numpy as np

SRC_ROOT = os.environ["MATC_SRC_ROOT"]
EXAMPLES = os.path.join(SRC_ROOT, "examples")


def rng(seed=0):
    return np.random.default_rng(seed)


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


def main():
    """unittest.main with one line per test; exit status 1 on a failure."""
    unittest.main(verbosity=2, argv=[sys.argv[0]])
