# RUN: %pymatc %s
"""Products of run-time sizes given a few columns of B, which
matrix-version-products computes behind tests of N: one column (N = 1) as
a vector product (dot products of the rows of A, or the rows of a
transposed A scaled by B's elements), 2 to 8 as dot products of A's rows
with B^T in blocks of 4 columns padded with zeros (up to 16 f32 columns
with AVX-512) when M > 8 (fewer rows in register tiles); and, with B read transposed, a few rows of A (M = 1, M <=
8) as the dot products of B's rows with A's (C^T = B A^T, its blocks
copied transposed), and one row of A with B in place (B's rows scaled by
its elements); with A read transposed, fewer columns than a register
tile (below 32 f32, 16 f64 columns with AVX-512), and with both read
transposed also a few rows (up to the blocks' limit), as the transpose of
C^T = B^T A^T. Exact against NumPy on small integers, for every
layout (A and B in place or read transposed), through the general function
of a product and the functions of one row of C (`x @ b`, `x.T @ b`, `x @
b.T`), and `x.T @ y` of static vectors (one dot product), for K on both
sides of the vectors and blocks and of 32 (along a shorter k-range one
column or row of C is dot products, with the partial sums of the last
K mod 8 or 16 elements kept whole under a select; a few are not), N on both sides of the blocks (9: the packed or unpacked
branch) and of the register tiles (16, 17; 31, 32), M on both sides of
the blocks (8, 9; 16, 17), on 1 and 2 threads, f32 and f64."""

import unittest

import numpy as np

import matc
from mattest import integers, main, rng

TEMPLATE = """
def nn{t}(a: {T}[?, ?], b: {T}[?, ?]) -> {T}[?, ?]:
    return a @ b

def nt{t}(a: {T}[?, ?], b: {T}[?, ?]) -> {T}[?, ?]:
    return a @ b.T

def tn{t}(a: {T}[?, ?], b: {T}[?, ?]) -> {T}[?, ?]:
    return a.T @ b

def tt{t}(a: {T}[?, ?], b: {T}[?, ?]) -> {T}[?, ?]:
    return a.T @ b.T

def row{t}(x: {T}[1, ?], b: {T}[?, ?]) -> {T}[1, ?]:
    return x @ b

def trow{t}(x: {T}[?, 1], b: {T}[?, ?]) -> {T}[1, ?]:
    return x.T @ b

def rowt{t}(x: {T}[1, ?], b: {T}[?, ?]) -> {T}[1, ?]:
    return x @ b.T

def dot{t}(x: {T}[?, 1], y: {T}[?, 1]) -> {T}[1, 1]:
    return x.T @ y

def atx{t}(a: {T}[?, ?], x: {T}[?, 1]) -> {T}[?, 1]:
    return a.T @ x
"""
SOURCE = TEMPLATE.format(t="32", T="f32") + TEMPLATE.format(t="64", T="f64")

ROWS = [1, 2, 5, 8, 9, 16, 17, 300]
DEPTHS = [1, 3, 7, 8, 9, 31, 63, 1025, 4099]
COLUMNS = [1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 31, 32]


class UnitColumnProducts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.modules = [matc.compile(SOURCE, threads=1),
                       matc.compile(SOURCE, threads=2)]

    def check(self, t, dtype):
        r = rng(int(t))
        for module in self.modules:
            f = {name: getattr(module, name + t)
                 for name in ("nn", "nt", "tn", "tt", "row", "trow", "rowt",
                              "dot", "atx")}
            for k in DEPTHS:
                x, y = integers(r, (k, 1), dtype), integers(r, (k, 1), dtype)
                np.testing.assert_array_equal(f["dot"](x, y), x.T @ y,
                                              err_msg="dot K=%d %s" % (k, t))
                # `a.T @ x` given an `a` of one column: one dot product.
                np.testing.assert_array_equal(f["atx"](x, y), x.T @ y,
                                              err_msg="atx K=%d %s" % (k, t))
                for n in COLUMNS:
                    b = integers(r, (k, n), dtype)
                    for m in ROWS:
                        a = integers(r, (m, k), dtype)
                        expected = a @ b
                        what = "M=%d K=%d N=%d %s" % (m, k, n, t)
                        for name, got in (
                                ("nn", f["nn"](a, b)),
                                ("nt", f["nt"](a, b.T.copy())),
                                ("tn", f["tn"](a.T.copy(), b)),
                                ("tt", f["tt"](a.T.copy(), b.T.copy()))):
                            self.assertEqual(got.shape, (m, n), name + what)
                            np.testing.assert_array_equal(
                                got, expected, err_msg=name + " " + what)
                    x = integers(r, (1, k), dtype)
                    for name, got in (("row", f["row"](x, b)),
                                      ("trow", f["trow"](x.T.copy(), b)),
                                      ("rowt", f["rowt"](x, b.T.copy()))):
                        np.testing.assert_array_equal(
                            got, x @ b, err_msg="%s K=%d N=%d %s" % (
                                name, k, n, t))

    def test_one_row_wide(self):
        # One row of A against a wide B through the general a @ b (the
        # rows of B scaled by A's elements, the columns of C split between
        # the threads), N and K on both sides of the blocks; likewise a.T @
        # b and a.T @ b.T (the dot products of B's rows: a new-user
        # finding, 1 x 1 against 100000 x 1 read B^T through a copy in
        # blocks masked down to one row, 190x NumPy's time).
        for module in self.modules:
            for t, dtype in (("32", np.float32), ("64", np.float64)):
                r = rng(int(t) + 1)
                for k, n in ((1, 1000), (513, 1000), (2049, 70), (7, 4099),
                             (1, 100000), (3, 20011)):
                    x = integers(r, (1, k), dtype)
                    b = integers(r, (k, n), dtype)
                    xt, bt = x.T.copy(), b.T.copy()
                    # A read transposed (K x 1, a row's layout), with B in
                    # place and read transposed.
                    for name, got in (
                            ("nn", getattr(module, "nn" + t)(x, b)),
                            ("tn", getattr(module, "tn" + t)(xt, b)),
                            ("tt", getattr(module, "tt" + t)(xt, bt))):
                        np.testing.assert_array_equal(
                            got, x @ b,
                            err_msg="%s K=%d N=%d %s" % (name, k, n, t))

    def test_short_k_transposed_copy(self):
        # A few rows of A against B read transposed along fewer steps of k
        # than a register's lanes: the unpacked product reads B^T, copied
        # in blocks of a register's lanes whose rows (K of them) the masks
        # cut short, now guarded row by row (matrix-guard-masked-rows; a
        # new-user finding: 2 x 1 @ (100000 x 1).T took 13 ms, NumPy 0.18).
        for module in self.modules:
            for t, dtype in (("32", np.float32), ("64", np.float64)):
                r = rng(int(t) + 7)
                for m, k, n in ((2, 1, 20011), (5, 3, 20011), (50, 9, 2003),
                                (3, 17, 1001)):
                    a = integers(r, (m, k), dtype)
                    b = integers(r, (n, k), dtype)
                    for name, got in (
                            ("nt", getattr(module, "nt" + t)(a, b)),
                            ("tt", getattr(module, "tt" + t)(a.T.copy(), b))):
                        np.testing.assert_array_equal(
                            got, a @ b.T,
                            err_msg="%s M=%d K=%d N=%d %s" % (name, m, k, n, t))

    def test_few_rows_long_k_transposed(self):
        # A few rows and columns of C along a long K with both operands read
        # transposed: the packed product packs B (N x K) in blocks of rows
        # masked to N by a mask made outside the loop over k, now read row
        # by row at clamped rows (matrix-guard-masked-rows; a new-user
        # finding: 5 x 20000 f32 operands took 2.0 ms, NumPy 0.2). Values
        # small integers, so every order of the sums is exact.
        for module in self.modules:
            for t, dtype in (("32", np.float32), ("64", np.float64)):
                r = rng(int(t) + 11)
                for m, k, n in ((5, 20011, 5), (8, 16384, 8), (9, 20000, 3),
                                (3, 40000, 12)):
                    a = integers(r, (k, m), dtype)
                    b = integers(r, (n, k), dtype)
                    np.testing.assert_array_equal(
                        getattr(module, "tt" + t)(a, b), a.T @ b.T,
                        err_msg="tt M=%d K=%d N=%d %s" % (m, k, n, t))
                    np.testing.assert_array_equal(
                        getattr(module, "nt" + t)(a.T.copy(), b), a.T @ b.T,
                        err_msg="nt M=%d K=%d N=%d %s" % (m, k, n, t))

    def test_few_rows_short_k_transposed(self):
        # A few rows of C (M <= 8) from B read transposed along k-ranges of
        # one vector of dot products (8 f64, 16 f32) to 31: C^T = B A^T in
        # blocks of 4 rows of A (the unpacked schedule copied all of B
        # transposed: 4 x 16 @ (200000 x 16).T f64 took 11.5 ms, NumPy 1.4).
        for module in self.modules:
            for t, dtype in (("32", np.float32), ("64", np.float64)):
                r = rng(int(t) + 13)
                for m, k, n in ((4, 16, 20011), (2, 8, 1001), (5, 17, 3001),
                                (8, 31, 257), (3, 9, 5)):
                    a = integers(r, (m, k), dtype)
                    b = integers(r, (n, k), dtype)
                    np.testing.assert_array_equal(
                        getattr(module, "nt" + t)(a, b), a @ b.T,
                        err_msg="nt M=%d K=%d N=%d %s" % (m, k, n, t))

    def test_few_rows_few_columns_long_k(self):
        # At most 8 rows of C along a long K, every layout: a few columns
        # in register tiles (B read in place unpacked, M <= 4 or one tile of
        # rows, else packed), not blocks of dot products of a transposed
        # copy of B; `a.T @ b.T` with M == N as C^T = b @ a (a new-user
        # finding: M = N = 4, K = 200000 f64 took 2.5 ms, NumPy 0.5).
        for module in self.modules:
            for t, dtype in (("32", np.float32), ("64", np.float64)):
                r = rng(int(t) + 17)
                for m, k, n in ((4, 20011, 4), (8, 16384, 8), (6, 20000, 3),
                                (7, 9001, 5), (8, 2049, 300), (8, 5003, 17),
                                (5, 20011, 4), (2, 30000, 2)):
                    a = integers(r, (m, k), dtype)
                    b = integers(r, (k, n), dtype)
                    expected = a @ b
                    what = " M=%d K=%d N=%d %s" % (m, k, n, t)
                    for name, got in (
                            ("nn", getattr(module, "nn" + t)(a, b)),
                            ("nt", getattr(module, "nt" + t)(a, b.T.copy())),
                            ("tn", getattr(module, "tn" + t)(a.T.copy(), b)),
                            ("tt", getattr(module, "tt" + t)(
                                a.T.copy(), b.T.copy()))):
                        np.testing.assert_array_equal(got, expected,
                                                      err_msg=name + what)

    def test_f32(self):
        self.check("32", np.float32)

    def test_f64(self):
        self.check("64", np.float64)

    def test_out_and_views(self):
        # One column from a view (a column of a wider array, so copied to C
        # order) into out=, and a column that is a 1 x K row transposed
        # (read transposed, the same layout); 6 columns of a view into an
        # out= that was not zero.
        module = self.modules[1]
        r = rng(3)
        a = integers(r, (301, 513), np.float64)
        wide = integers(r, (513, 9), np.float64)
        out = np.full((301, 1), 99.0)
        got = module.nn64(a, wide[:, 2:3], out=out)
        self.assertIs(got, out)
        np.testing.assert_array_equal(out, a @ wide[:, 2:3])
        x = integers(r, (1, 513), np.float64)
        np.testing.assert_array_equal(module.nt64(a, x), a @ x.T)
        out = np.full((301, 6), 99.0)
        self.assertIs(module.nn64(a, wide[:, 1:7], out=out), out)
        np.testing.assert_array_equal(out, a @ wide[:, 1:7])


if __name__ == "__main__":
    main()
