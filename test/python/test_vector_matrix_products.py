# RUN: %pymatc %s
"""Vector-matrix products: one row of C (x @ b with x 1 x K, x.T @ b with
x K x 1) or one column (a.T @ x), which matc computes as a sum of the
matrix's rows scaled by the elements of x (matrix-version-products'
matc.vector_matrix, Schedule.mlir's @schedule_vector_matrix; split along k
when C is one vector), and one row of C from a transposed B (x @ b.T: dot
products of the rows of b): exact
against NumPy on small integers, on 1 and 2 threads, for K and N on both
sides of the tiles (8 rows of k, 2048 bits of C), from views and with
out=."""

import unittest

import numpy as np

import matc
from mattest import integers, main, rng

SOURCE = """
def xb32(x: f32[1, ?], b: f32[?, ?]) -> f32[1, ?]:
    return x @ b

def xtb32(x: f32[?, 1], b: f32[?, ?]) -> f32[1, ?]:
    return x.T @ b

def atx32(a: f32[?, ?], x: f32[?, 1]) -> f32[?, 1]:
    return a.T @ x

def xb64(x: f64[1, ?], b: f64[?, ?]) -> f64[1, ?]:
    return x @ b

def xtb64(x: f64[?, 1], b: f64[?, ?]) -> f64[1, ?]:
    return x.T @ b

def atx64(a: f64[?, ?], x: f64[?, 1]) -> f64[?, 1]:
    return a.T @ x

def xbt32(x: f32[1, ?], b: f32[?, ?]) -> f32[1, ?]:
    return x @ b.T

def xbt64(x: f64[1, ?], b: f64[?, ?]) -> f64[1, ?]:
    return x @ b.T

def layer(x: f64[1, ?], w: f64[?, ?], v: f64[?, ?]) -> f64[1, ?]:
    return (x @ w) @ v
"""

# (K, N): around the 8 rows of a block of k and the 32 (f64) or 64 (f32)
# elements of a tile of C, and larger than the caches' budgets; a C of at
# most one vector (split along k into 8 partial sums: K below, at and
# around multiples of 8, N up to 16 f32 lanes and 8 f64 on AVX-512, 8 and
# 4 on AVX2); C carried in registers in 2, 4 or 8 vectors (N of 12, 24,
# 33 and 40 around them).
SHAPES = [(1, 17), (7, 31), (8, 32), (9, 65), (63, 129), (300, 1000),
          (1025, 77), (2049, 2050), (7, 3), (8, 4), (17, 2), (16, 8),
          (1003, 7), (20001, 16), (20007, 5), (20003, 9), (4001, 24),
          (999, 63), (4001, 12), (3001, 33), (2003, 40)]


class VectorMatrixProducts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.modules = [matc.compile(SOURCE, threads=1),
                       matc.compile(SOURCE, threads=2)]

    def check(self, suffix, dtype):
        r = rng(len(suffix))
        for m in self.modules:
            for k, n in SHAPES:
                b = integers(r, (k, n), dtype)
                x = integers(r, (1, k), dtype)
                what = "K=%d N=%d %s" % (k, n, dtype.__name__)
                for name, got, expected in (
                        ("xb", getattr(m, "xb" + suffix)(x, b), x @ b),
                        ("xtb", getattr(m, "xtb" + suffix)(x.T, b), x @ b),
                        ("atx", getattr(m, "atx" + suffix)(b, x.T), b.T @ x.T),
                        ("xbt", getattr(m, "xbt" + suffix)(x, b.T.copy()),
                         x @ b)):
                    self.assertEqual(got.dtype, dtype)
                    np.testing.assert_array_equal(got, expected,
                                                  err_msg=name + " " + what)

    def test_f32(self):
        self.check("32", np.float32)

    def test_f64(self):
        self.check("64", np.float64)

    def test_views_and_out(self):
        r = rng(11)
        b = integers(r, (300, 1000), np.float64)
        rows = integers(r, (5, 300), np.float64)
        for m in self.modules:
            # A row of a matrix (contiguous) and a column (strided: copied).
            np.testing.assert_array_equal(m.xb64(rows[2:3], b),
                                          rows[2:3] @ b)
            np.testing.assert_array_equal(m.xtb64(rows.T[:, 3:4], b),
                                          rows[3:4] @ b)
            # A Fortran-order matrix, and a transposed view.
            np.testing.assert_array_equal(m.xb64(rows[:1], np.asfortranarray(b)),
                                          rows[:1] @ b)
            np.testing.assert_array_equal(m.atx64(b.T.T, rows[1:2].T),
                                          b.T @ rows[1:2].T)
            out = np.full((1, 1000), np.nan)
            self.assertIs(m.xb64(rows[:1], b, out=out), out)
            np.testing.assert_array_equal(out, rows[:1] @ b)

    def test_out_before_inaccessible_page(self):
        """A C of less than one tile is carried in masked vectors: their
        masked-off lanes, past C's end, must neither fault nor be written.
        out= ends where a page without access begins."""
        import ctypes
        import mmap
        page = mmap.PAGESIZE
        region = mmap.mmap(-1, 2 * page)
        anchor = ctypes.c_char.from_buffer(region)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                  ctypes.c_int]
        if libc.mprotect(ctypes.addressof(anchor) + page, page, 0) != 0:
            self.skipTest("mprotect failed")
        r = rng(13)
        for m in self.modules:
            for name, dtype, k, n in (("xb64", np.float64, 2001, 9),
                                      ("xb64", np.float64, 2001, 16),
                                      ("xb64", np.float64, 37, 31),
                                      ("xtb32", np.float32, 1003, 20),
                                      ("xtb32", np.float32, 1003, 17),
                                      ("xb32", np.float32, 8, 63)):
                nbytes = n * np.dtype(dtype).itemsize
                out = np.frombuffer(region, dtype, count=n,
                                    offset=page - nbytes).reshape(1, n)
                x = integers(r, (1, k), dtype)
                b = integers(r, (k, n), dtype)
                arg = x.T if name.startswith("xtb") else x
                self.assertIs(getattr(m, name)(arg, b, out=out), out)
                np.testing.assert_array_equal(
                    out, x @ b, err_msg="%s K=%d N=%d" % (name, k, n))
        del out, anchor

    def test_chain(self):
        r = rng(5)
        x = integers(r, (1, 200), np.float64)
        w = integers(r, (200, 300), np.float64)
        v = integers(r, (300, 70), np.float64)
        for m in self.modules:
            np.testing.assert_array_equal(m.layer(x, w, v), (x @ w) @ v)

    def test_mismatched_k(self):
        x = np.ones((1, 5))
        b = np.ones((6, 7))
        with self.assertRaises(ValueError):
            self.modules[0].xb64(x, b)


if __name__ == "__main__":
    main()
