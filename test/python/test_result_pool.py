# RUN: %pymatc %s
"""The pool of result memory (python/matc/_pool.py): results of 4 MiB or
more reuse the memory of dead results, never of live ones, of their views
or of their base; set_result_pool bounds and disables it; a mapping that
cannot be made falls back to np.empty; an interrupt anywhere in the pool
leaves it consistent."""

import gc
import sys
import threading
import unittest
from unittest import mock

import numpy as np

import matc
from matc import _pool, _wrap
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

    def test_base_keeps_memory(self):
        # The base (the block over the mapping) holds the memory as the
        # result does; a memoryview of it too, and set_result_pool then
        # drops the pool's mappings without closing any.
        first = self.m.ew(*self.x)
        base = first.base
        kept = first.copy()
        del first
        self.assertEqual(_wrap.RESULT_POOL.held(), 0)
        second = self.m.ew(self.x[1], self.x[0], self.x[3], self.x[2])
        second[...] = 7.0
        through_base = np.frombuffer(base, np.float64, count=N * N)
        np.testing.assert_array_equal(through_base.reshape(N, N), kept)
        self.assertFalse(np.shares_memory(through_base, second))
        view = memoryview(base)
        del base, through_base, second
        gc.collect()
        self.assertEqual(matc.set_result_pool(0), 64 << 20)
        self.assertEqual(view.nbytes % (2 << 20), 0)
        view.release()

    def test_no_mapping(self):
        # mmap refused (an address-space limit): np.empty instead.
        with mock.patch.object(_pool.mmap, "mmap",
                               side_effect=OSError(12, "no memory")):
            r = self.m.ew(*self.x)
        self.assertTrue(r.flags.owndata)
        np.testing.assert_array_equal(r, self.expected)

    def test_interrupted_anywhere(self):
        # A KeyboardInterrupt (a Ctrl-C, an exception from a signal
        # handler) raised at each line of the pool in turn, while a result
        # is taken and dropped: afterwards the pool works and keeps to its
        # capacity. Exceptions out of __del__ are only reported; silenced.
        lines = set()
        for function in (_pool.ResultPool.empty, _pool.ResultPool._give_back,
                         _pool.ResultPool._trim, _pool.ResultPool.held,
                         _pool._give_back_block):
            code = function.__code__
            lines.update(line for _, _, line in code.co_lines()
                         if line is not None and line > code.co_firstlineno)
        hook = sys.unraisablehook
        sys.unraisablehook = lambda unraisable: None
        try:
            for line in sorted(lines):
                warm = self.m.ew(*self.x)  # A free mapping to take.
                del warm
                fired = []

                def local(frame, event, arg):
                    if event == "line" and frame.f_lineno == line \
                            and not fired:
                        fired.append(line)
                        raise KeyboardInterrupt
                    return local

                def tracer(frame, event, arg):
                    if frame.f_code.co_filename == _pool.__file__:
                        return local
                    return None

                sys.settrace(tracer)
                try:
                    r = self.m.ew(*self.x)
                    del r
                except KeyboardInterrupt:
                    pass
                finally:
                    sys.settrace(None)
                for _ in range(3):
                    r = self.m.ew(*self.x)
                    np.testing.assert_array_equal(r, self.expected)
                    del r
                self.assertLessEqual(_wrap.RESULT_POOL.held(), 64 << 20)
        finally:
            sys.unraisablehook = hook
        self.assertEqual(matc.set_result_pool(0), 64 << 20)
        self.assertEqual(_wrap.RESULT_POOL.held(), 0)

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
