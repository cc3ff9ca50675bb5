# RUN: %pymatc %s
"""Products with a narrow static N (a multiple of 8 columns, at most the
packed register tile's width), which matc computes unpacked whatever M
when B fits the L2 budget, packed when it does not (matrix-outline-
products' .n<N> functions, matrix-version-products' narrow rule), and
products whose N is known only at run time, computed in register tiles one
vector wide or NR wide behind tests of N (versionNarrowColumns): exact
against NumPy on small integers, on 1 and 2 threads, for M, K and N on
both sides of the register tiles and of the budget."""

import unittest

import numpy as np

import matc
from mattest import integers, main, rng

SOURCE = """
def nv32(a: f32[?, ?], v: f32[?, 16]) -> f32[?, 16]:
    return a @ v

def nv32x8(a: f32[?, ?], v: f32[?, 8]) -> f32[?, 8]:
    return a @ v

def tnv32(a: f32[?, ?], v: f32[?, 32]) -> f32[?, 32]:
    return a.T @ v

def nv64(a: f64[?, ?], v: f64[?, 16]) -> f64[?, 16]:
    return a @ v

def nv64x8(a: f64[?, ?], v: f64[?, 8]) -> f64[?, 8]:
    return a @ v

def chain(a: f64[?, ?], b: f64[?, ?], v: f64[?, 16]) -> f64[?, 16]:
    return a @ (b @ v)

def mm32(a: f32[?, ?], b: f32[?, ?]) -> f32[?, ?]:
    return a @ b

def mm64(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a @ b

def tmm64(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a.T @ b

def mmt32(a: f32[?, ?], b: f32[?, ?]) -> f32[?, ?]:
    return a @ b.T
"""

# Run-time N around one and two vectors of f32 and f64 on AVX2 and
# AVX-512 (4, 8, 16 lanes), and around blocks of 4 dot products.
RUNTIME_N = [3, 5, 6, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33]

# (M, K): K x 16 of at most 65536 elements (the L2 budget of a 1 MiB L2)
# up to K = 4096; K = 5000 is beyond it on every target matc models.
SHAPES = [(1, 1), (7, 17), (13, 300), (100, 64), (257, 1000), (1031, 129),
          (600, 5000), (33, 4100)]


class NarrowProducts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.modules = [matc.compile(SOURCE, threads=1),
                       matc.compile(SOURCE, threads=2)]

    def check(self, name, dtype, n, transposed=False):
        r = rng(n)
        for m in self.modules:
            for rows, k in SHAPES:
                a = integers(r, (k, rows) if transposed else (rows, k), dtype)
                v = integers(r, (k, n), dtype)
                expected = (a.T if transposed else a) @ v
                got = getattr(m, name)(a, v)
                self.assertEqual(got.dtype, dtype)
                np.testing.assert_array_equal(
                    got, expected, err_msg="%s M=%d K=%d" % (name, rows, k))

    def test_f32_n16(self):
        self.check("nv32", np.float32, 16)

    def test_f32_n8(self):
        self.check("nv32x8", np.float32, 8)

    def test_f32_transposed_a_n32(self):
        self.check("tnv32", np.float32, 32, transposed=True)

    def test_f64_n16(self):
        self.check("nv64", np.float64, 16)

    def test_f64_n8(self):
        self.check("nv64x8", np.float64, 8)

    def check_runtime_n(self, name, dtype, form):
        r = rng(11)
        for m in self.modules:
            for rows, k in SHAPES[1:]:
                for n in RUNTIME_N:
                    a = integers(r, (rows, k), dtype)
                    b = integers(r, (k, n), dtype)
                    args = {"nn": (a, b), "tn": (a.T.copy(), b),
                            "nt": (a, b.T.copy())}[form]
                    np.testing.assert_array_equal(
                        getattr(m, name)(*args), a @ b,
                        err_msg="%s M=%d K=%d N=%d" % (name, rows, k, n))

    def test_f32_runtime_n(self):
        self.check_runtime_n("mm32", np.float32, "nn")

    def test_f64_runtime_n(self):
        self.check_runtime_n("mm64", np.float64, "nn")

    def test_f64_transposed_a_runtime_n(self):
        self.check_runtime_n("tmm64", np.float64, "tn")

    def test_f32_transposed_b_runtime_n(self):
        self.check_runtime_n("mmt32", np.float32, "nt")

    def test_chain(self):
        r = rng(7)
        for m in self.modules:
            for rows, k in [(5, 9), (300, 200), (64, 4100)]:
                a = integers(r, (rows, k), np.float64)
                b = integers(r, (k, k), np.float64)
                v = integers(r, (k, 16), np.float64)
                np.testing.assert_array_equal(m.chain(a, b, v), a @ (b @ v))


if __name__ == "__main__":
    main()
