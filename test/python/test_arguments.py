# RUN: %pymatc %s
"""Arguments and results: `?` dimensions, layouts (C order without a copy;
Fortran order, strided, transposed and read-only views, lists), f32 and
f64, scalars, out=, and the module object (attributes, __doc__, help)."""

import inspect
import io
import pydoc
import re
import unittest

import numpy as np

import matc
from mattest import assert_product_close, main, rng

SOURCE = """
def mm(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a @ b

def mm32(a: f32[?, ?], b: f32[?, ?]) -> f32[?, ?]:
    return a @ b

def fixed(a: f64[2, 3], b: f64[3, ?]) -> f64[2, ?]:
    return a @ b

def axpy(s: f64, x: f64[?, ?], y: f64[?, ?]) -> f64[?, ?]:
    return s * x + y

def axpy32(s: f32, x: f32[?, ?], y: f32[?, ?]) -> f32[?, ?]:
    return s * x + y

def neg(a: f64[?, ?]) -> f64[?, ?]:
    return -a

def square(a: f64[?, 4]) -> f64[?, 4]:
    return a * a

def sum2(s: f64, t: f64) -> f64:
    return s + t

def half32(s: f32) -> f32:
    return s * 0.5

def cols(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a.T @ b

def eye2() -> f64[2, 2]:
    return eye(2)

def lambda(out: f64[1, 1], x: f64) -> f64[1, 1]:
    return out * x
"""


class Arguments(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = matc.compile(SOURCE)

    def converter_calls(self, function):
        """Counts the calls of `function`'s slow-path converters, to tell a
        zero-copy call from a converted one."""
        calls = []
        g = function.__globals__
        for name in [n for n in g if re.fullmatch(r"_m_c\d+", n)]:
            original = g[name]

            def counting(x, original=original):
                calls.append(x)
                return original(x)
            g[name] = counting
            self.addCleanup(g.__setitem__, name, original)
        return calls

    def test_dynamic_dims(self):
        r = rng(1)
        for n, k, p in [(1, 1, 1), (1, 5, 1), (5, 1, 7), (13, 31, 7),
                        (64, 65, 63)]:
            a, b = r.standard_normal((n, k)), r.standard_normal((k, p))
            got = self.m.mm(a, b)
            self.assertEqual(got.shape, (n, p))
            assert_product_close(self, got, a, b)
        # A fixed and a `?` dimension in one signature.
        a, b = r.standard_normal((2, 3)), r.standard_normal((3, 9))
        assert_product_close(self, self.m.fixed(a, b), a, b)
        # a.T @ b: the rows of both agree.
        a, b = r.standard_normal((6, 2)), r.standard_normal((6, 5))
        assert_product_close(self, self.m.cols(a, b), a.T, b)

    def test_c_order_is_not_copied(self):
        a = np.ones((3, 4))
        calls = self.converter_calls(self.m.mm)
        self.m.mm(a, a.T.copy())
        self.assertEqual(calls, [])
        # A read-only C-order array is only read: no copy either.
        a.flags.writeable = False
        self.m.mm(a, np.ones((4, 2)))
        self.assertEqual(calls, [])

    def test_other_layouts_are_copied(self):
        r = rng(2)
        base = r.standard_normal((8, 10))
        b = r.standard_normal((5, 3))
        cases = {
            "fortran": np.asfortranarray(base[:, :5]),
            "strided": base[::2, ::2],
            "transposed": base.T[:3, :5],
            "offset view": base[1:4, 2:7],
            "negative strides": base[::-1, 4::-1],
        }
        calls = self.converter_calls(self.m.mm)
        for name, a in cases.items():
            with self.subTest(name):
                del calls[:]
                expected = np.ascontiguousarray(a) @ b
                got = self.m.mm(a, b)
                self.assertEqual(len(calls), 1)
                np.testing.assert_array_equal(got, self.m.mm(
                    np.ascontiguousarray(a), b))
                assert_product_close(self, got, a, b, expected)
        # The other byte order is the same element type: converted.
        swapped = np.ones((2, 2)).astype(">f8")
        np.testing.assert_array_equal(self.m.mm(swapped, swapped), 2)

    def test_misaligned_data_is_copied(self):
        buffer = np.zeros(8 * 6 + 1, np.uint8)[1:]
        a = buffer.view(np.float64).reshape(2, 3)
        a[...] = [[1, 2, 3], [4, 5, 6]]
        self.assertFalse(a.flags.aligned)
        np.testing.assert_array_equal(self.m.neg(a), -a)

    def test_lists_take_the_element_type(self):
        np.testing.assert_array_equal(
            self.m.mm([[1, 2], [3, 4]], ((1,), (1,))), [[3], [7]])
        got = self.m.mm32([[1.5, 2]], [[2], [0.5]])
        self.assertEqual(got.dtype, np.float32)
        np.testing.assert_array_equal(got, [[4]])
        # A flat list is a row, as a Mat literal is.
        np.testing.assert_array_equal(self.m.mm([1, 2], [[1], [1]]), [[3]])
        # Integer arrays are not Python numbers: TypeError (test_errors).

    def test_f32_and_f64(self):
        r = rng(3)
        a32 = r.standard_normal((9, 17)).astype(np.float32)
        b32 = r.standard_normal((17, 4)).astype(np.float32)
        got = self.m.mm32(a32, b32)
        self.assertEqual(got.dtype, np.float32)
        assert_product_close(self, got, a32, b32)
        x, y = r.standard_normal((3, 3)), r.standard_normal((3, 3))
        np.testing.assert_array_equal(self.m.axpy(2.0, x, y), 2.0 * x + y)
        x32, y32 = x.astype(np.float32), y.astype(np.float32)
        got = self.m.axpy32(0.1, x32, y32)
        self.assertEqual(got.dtype, np.float32)
        # A Python number for an f32 parameter is rounded to f32, as a Mat
        # number is.
        np.testing.assert_allclose(got, np.float32(0.1) * x32 + y32,
                                   rtol=2e-7, atol=2e-7)

    def test_scalars(self):
        sum2 = self.m.sum2
        for s, t in [(1, 2), (1.5, 2.25), (np.float64(1.5), 2),
                     (np.int32(3), np.uint8(4)), (np.array(2.0), -1.0),
                     (True + 0, 0)]:
            with self.subTest(s=s, t=t):
                got = sum2(s, t)
                self.assertIsInstance(got, np.float64)
                self.assertEqual(got, float(s) + float(t))
        got = self.m.half32(np.float32(3))
        self.assertIsInstance(got, np.float32)
        self.assertEqual(got, 1.5)
        self.assertEqual(self.m.half32(3), 1.5)
        self.assertTrue(np.isnan(sum2(float("nan"), 1)))
        self.assertEqual(sum2(float("inf"), 1), float("inf"))
        np.testing.assert_array_equal(self.m.eye2(), np.eye(2))

    def test_keywords(self):
        a, b = np.ones((2, 3)), np.ones((3, 1))
        np.testing.assert_array_equal(self.m.mm(b=b, a=a), a @ b)
        # Mat names that cannot be Python keywords (`out`) are positional.
        self.assertEqual(self.m.__matc_functions__["lambda"](
            np.full((1, 1), 2.0), 3.0)[0, 0], 6.0)
        with self.assertRaises(TypeError):
            self.m.__matc_functions__["lambda"](out=np.ones((1, 1)), x=1.0)
        # Positional-only, they still carry the Mat names Python can show
        # (a new-user finding: Python's own TypeErrors named `_m_arg1`);
        # `out` becomes `out_`.
        fn = self.m.__matc_functions__["lambda"]
        self.assertEqual(list(inspect.signature(fn).parameters),
                         ["out_", "x", "out"])
        with self.assertRaisesRegex(TypeError, r"argument: 'x'"):
            fn(np.ones((1, 1)))
        with self.assertRaisesRegex(TypeError, r"positional-only .*'x'"):
            fn(np.ones((1, 1)), x=1.0)

    def test_out(self):
        r = rng(4)
        a, b = r.standard_normal((4, 5)), r.standard_normal((5, 6))
        out = np.full((4, 6), np.nan)
        self.assertIs(self.m.mm(a, b, out=out), out)
        np.testing.assert_array_equal(out, self.m.mm(a, b))
        # out= may be a parameter, or overlap one: the same numbers.
        x = r.standard_normal((5, 5))
        expected = -x
        self.assertIs(self.m.neg(x, out=x), x)
        np.testing.assert_array_equal(x, expected)
        y = r.standard_normal((5, 5))
        expected = y @ y
        self.assertIs(self.m.mm(y, y, out=y), y)
        assert_product_close(self, y, expected @ np.eye(5), np.eye(5),
                             expected)
        # A C-contiguous view of a bigger array.
        big = np.zeros((10, 6))
        self.m.mm(a, b, out=big[2:6])
        np.testing.assert_array_equal(big[2:6], self.m.mm(a, b))
        self.assertTrue((big[:2] == 0).all() and (big[6:] == 0).all())

    def test_out_errors(self):
        a, b = np.ones((2, 3)), np.ones((3, 2))
        mm = self.m.mm
        with self.assertRaisesRegex(TypeError, r"out must be a numpy.ndarray"
                                    r" of float64 and shape \(2, 2\), got "
                                    r"list"):
            mm(a, b, out=[[0, 0], [0, 0]])
        with self.assertRaisesRegex(TypeError, "out must be an array of "
                                    "float64, got an array of float32"):
            mm(a, b, out=np.zeros((2, 2), np.float32))
        with self.assertRaisesRegex(ValueError, r"out must have shape "
                                    r"\(2, 2\), got \(2, 3\)"):
            mm(a, b, out=np.zeros((2, 3)))
        with self.assertRaisesRegex(ValueError, "out must be C-contiguous, "
                                    "got a Fortran-order array"):
            mm(a, b, out=np.zeros((2, 2), order="F"))
        with self.assertRaisesRegex(ValueError, "out must be C-contiguous, "
                                    "got a strided view"):
            mm(a, b, out=np.zeros((2, 4))[:, ::2])
        # Misaligned: a float64 array one byte into a buffer (a new-user
        # finding: this had the message of a strided out=).
        raw = np.zeros(4 * 8 + 1, np.uint8)
        misaligned = raw[1:].view(np.float64).reshape(2, 2)
        with self.assertRaisesRegex(ValueError, "out must be aligned to its "
                                    r"element size \(8 bytes\), got an "
                                    "array at address 0x"):
            mm(a, b, out=misaligned)
        readonly = np.zeros((2, 2))
        readonly.flags.writeable = False
        with self.assertRaisesRegex(ValueError, "out is read-only"):
            mm(a, b, out=readonly)
        with self.assertRaisesRegex(TypeError, "out= is for matrix results"):
            self.m.sum2(1, 2, out=np.zeros(1))
        self.assertTrue((readonly == 0).all())

    def test_results_are_new_c_order_arrays(self):
        a = np.ones((3, 3))
        r1, r2 = self.m.neg(a), self.m.neg(a)
        self.assertFalse(np.shares_memory(r1, r2))
        self.assertFalse(np.shares_memory(r1, a))
        self.assertTrue(r1.flags.c_contiguous and r1.flags.owndata)

    def test_module_and_help(self):
        m = self.m
        self.assertIsInstance(m, matc.Module)
        self.assertIn("def mm(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]",
                      m.__doc__)
        self.assertTrue(m.mm.__doc__.startswith(
            "def mm(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]"))
        self.assertIn("a.shape[1] == b.shape[0]: the inner dimensions of "
                      "f64[?, ?] @ f64[?, ?] must agree (line 3, column 14 "
                      "of <string>)", " ".join(m.mm.__doc__.split()))
        self.assertEqual(m.mm.__name__, "mm")
        text = io.StringIO()
        pydoc.Helper(output=text).help(m)
        self.assertIn("mm(a, b, *, out=None)", text.getvalue())
        self.assertIn("def square(a: f64[?, 4]) -> f64[?, 4]",
                      text.getvalue())
        self.assertIn("mm", repr(m))
        self.assertIn("lambda", m.__matc_functions__)


if __name__ == "__main__":
    main()
