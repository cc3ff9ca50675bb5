# RUN: %pymatc %s
"""The pool of result memory (python/matc/_pool.py): results of 4 MiB or
more reuse the memory of dead results, never of live ones or of their
views; set_result_pool bounds and disables it."""

import gc
import threading
import unittest

import numpy as np

import matc
from matc import _wrap
from mattest import main, rng, run_in_threads

SOURCE = """
def ew(a: f64[?, ?], b: f64[?, ?], c: f64[?, ?], d: f64[?, ?]) -> f64[?, ?]:
    return a * b + c - d * 0.5

def neg(a: f64[1024, 1024]) -> f64[1024, 1024]:
    return -a

def small(a: f64[?, ?]) -> f64[?, ?]:
    return a * 2.0
"""

# 1024 x 1024 f64: 8 MiB, a pooled result.
N = 1024


def address(a):
    return a.__array_interface__["data"][0]


class ResultPool(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = matc.compile(SOURCE)
        r = rng(3)
        cls.x = [r.standard_normal((N, N)) for _ in range(4)]
        x = cls.x
        cls.expected = x[0] * x[1] + x[2] - x[3] * 0.5

    def setUp(self):
        gc.collect()
        self.previous = matc.set_result_pool(0)  # An empty pool.
        matc.set_result_pool(64 << 20)

    def tearDown(self):
        matc.set_result_pool(self.previous)

    def test_dead_result_reused(self):
        first = self.m.ew(*self.x)
        np.testing.assert_array_equal(first, self.expected)
        where = address(first)
        self.assertEqual(where % 4096, 0)  # Page-aligned.
        self.assertIsNotNone(first.base)
        del first
        self.assertGreaterEqual(_wrap.RESULT_POOL.held(), N * N * 8)
        second = self.m.ew(*self.x)
        self.assertEqual(address(second), where)
        np.testing.assert_array_equal(second, self.expected)
        self.assertEqual(_wrap.RESULT_POOL.held(), 0)
        # A static result shape takes the pool too.
        third = self.m.neg(self.x[0])
        np.testing.assert_array_equal(third, -self.x[0])
        self.assertEqual(address(third) % 4096, 0)

    def test_views_keep_memory(self):
        first = self.m.ew(*self.x)
        view = first[1:, ::2]
        row = np.frombuffer(first, count=N)  # A buffer export.
        kept = view.copy()
        del first
        self.assertEqual(_wrap.RESULT_POOL.held(), 0)
        second = self.m.ew(self.x[1], self.x[0], self.x[3], self.x[2])
        self.assertFalse(np.shares_memory(second, view))
        self.assertFalse(np.shares_memory(second, row))
        second[...] = 7.0
        np.testing.assert_array_equal(view, kept)
        del view, row
        gc.collect()
        self.assertGreaterEqual(_wrap.RESULT_POOL.held(), N * N * 8)

    def test_small_results_not_pooled(self):
        s = self.m.small(self.x[0][:100, :100])
        self.assertTrue(s.flags.owndata)
        np.testing.assert_array_equal(s, self.x[0][:100, :100] * 2.0)

    def test_capacity(self):
        results = [self.m.ew(*self.x) for _ in range(12)]  # 96 MiB.
        del results
        self.assertLessEqual(_wrap.RESULT_POOL.held(), 64 << 20)
        self.assertGreater(_wrap.RESULT_POOL.held(), 0)
        self.assertEqual(matc.set_result_pool(0), 64 << 20)
        self.assertEqual(_wrap.RESULT_POOL.held(), 0)
        plain = self.m.ew(*self.x)
        self.assertTrue(plain.flags.owndata)
        np.testing.assert_array_equal(plain, self.expected)

    def test_bad_capacity(self):
        with self.assertRaisesRegex(TypeError, "must be an int.*got float"):
            matc.set_result_pool(1.5)
        with self.assertRaisesRegex(TypeError, "got bool"):
            matc.set_result_pool(True)
        with self.assertRaisesRegex(ValueError, "0 or more bytes, got -1"):
            matc.set_result_pool(-1)

    def test_threads(self):
        # Four threads taking and dropping pooled results at once, each
        # result checked while the others write theirs.
        barrier = threading.Barrier(4, timeout=120)

        def work(seed):
            x = [a * (seed + 1) for a in self.x]
            expected = x[0] * x[1] + x[2] - x[3] * 0.5
            barrier.wait()
            for _ in range(10):
                r = self.m.ew(*x)
                np.testing.assert_array_equal(r, expected)

        run_in_threads(work)
        self.assertLessEqual(_wrap.RESULT_POOL.held(), 64 << 20)


if __name__ == "__main__":
    main()
