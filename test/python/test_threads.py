# RUN: %pymatc %s
"""Calls from several Python threads at once, and the GIL released during
a call; and a 1000 x 1000 product, in f64 and f32, against NumPy."""

import sys
import threading
import unittest

import numpy as np

import matc
from mattest import assert_product_close, main, rng, run_in_threads

SOURCE = """
def mm(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a @ b

def mm32(a: f32[?, ?], b: f32[?, ?]) -> f32[?, ?]:
    return a @ b

def ew(a: f64[?, ?], b: f64[?, ?], c: f64[?, ?], d: f64[?, ?]) -> f64[?, ?]:
    return a * b + c - d * 0.5
"""


class Threads(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = matc.compile(SOURCE)
        cls.m1 = matc.compile(SOURCE, threads=1)

    def test_four_threads_at_once(self):
        # Each thread its own shapes and functions, many calls, all at
        # once (a barrier starts them together); every result checked.
        barrier = threading.Barrier(4, timeout=120)

        def work(seed):
            r = rng(seed)
            n = 40 + 13 * seed
            a, b = r.standard_normal((n, n + 3)), r.standard_normal(
                (n + 3, n - 1))
            x = [r.standard_normal((n, 2 * n)) for _ in range(4)]
            expected_ew = x[0] * x[1] + x[2] - x[3] * 0.5
            a32, b32 = a.astype(np.float32), b.astype(np.float32)
            out = np.empty((n, n - 1))
            barrier.wait()
            for i in range(30):
                m = self.m if i % 2 else self.m1
                assert_product_close(self, m.mm(a, b), a, b)
                m.mm(a, b, out=out)
                assert_product_close(self, out, a, b)
                assert_product_close(self, m.mm32(a32, b32), a32, b32)
                np.testing.assert_allclose(m.ew(*x), expected_ew,
                                           rtol=1e-15, atol=1e-15)

        run_in_threads(work)

    def test_gil_is_released(self):
        # With a switch interval of 100 s, a thread holding the GIL keeps
        # it until it blocks: the main thread, woken by `started`, runs
        # while the call is under way only if the call released the GIL.
        a = rng(5).standard_normal((700, 700))
        started = threading.Event()
        state = {"done": False}

        def work():
            started.set()
            self.m1.mm(a, a)
            state["done"] = True

        interval = sys.getswitchinterval()
        sys.setswitchinterval(100)
        try:
            thread = threading.Thread(target=work)
            thread.start()
            started.wait()
            during_call = not state["done"]
            thread.join()
        finally:
            sys.setswitchinterval(interval)
        self.assertTrue(during_call, "the main thread did not run during "
                        "the call: the GIL was held")


class Large(unittest.TestCase):
    def test_1000_by_1000_product(self):
        m = matc.compile(SOURCE)
        r = rng(6)
        a, b = r.standard_normal((1000, 1000)), r.standard_normal(
            (1000, 1000))
        got = m.mm(a, b)
        assert_product_close(self, got, a, b)
        np.testing.assert_allclose(got, a @ b, rtol=1e-10, atol=1e-10)
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        got32 = m.mm32(a32, b32)
        self.assertEqual(got32.dtype, np.float32)
        assert_product_close(self, got32, a32, b32)


if __name__ == "__main__":
    main()
