# RUN: %pymatc %s
"""Every error of the package, with its message: CompileError (the located
diagnostics and caret lines), TypeError (arguments: number, non-numeric,
element type), ValueError (shapes: fixed sizes, `?` relations, sizes of 0),
MemoryError, bad options, no matc; and that the interpreter survives each
(nothing reaches the compiled code)."""

import decimal
import fractions
import os
import subprocess
import sys
import unittest

import numpy as np

import matc
from mattest import main

SOURCE = """
def mm(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a @ b

def gram(a: f64[?, 3]) -> f64[3, 3]:
    return a.T @ a

def add(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a + b

def chain(a: f64[?, ?], b: f64[?, ?], c: f64[?, ?]) -> f64[?, ?]:
    return mm(mm(a, b), c)

def two(a: f64[?, ?]) -> f64[2, 2]:
    return a

def scale(s: f64, a: f64[?, ?]) -> f64[?, ?]:
    return s * a

def scale32(s: f32, a: f32[?, ?]) -> f32[?, ?]:
    return s * a

def outer(a: f64[?, 1], b: f64[1, ?], c: f64[?, 1]) -> f64[?, 1]:
    return (a @ b) @ c
"""


class CompileErrors(unittest.TestCase):
    def test_located_diagnostics(self):
        bad = ("def f(a: f64[2, 3]) -> f64[2, 3]:\n"
               "    return a @ a\n")
        with self.assertRaises(matc.CompileError) as caught:
            matc.compile(bad)
        e = caught.exception
        self.assertEqual(e.source_name, "<string>")
        self.assertEqual(e.diagnostics.splitlines(), [
            "<string>:2:14: error: cannot multiply f64[2, 3] by f64[2, 3]: "
            "inner dimensions 3 and 2 differ",
            "    return a @ a",
            "           ~ ^ ~",
        ])
        self.assertIn("matc cannot compile <string>:", str(e))
        self.assertIn("<string>:2:14: error:", str(e))

    def test_unencodable_source(self):
        # A lone surrogate cannot be UTF-8 (from the new-user test: a raw
        # UnicodeEncodeError): a CompileError at its line and column.
        with self.assertRaises(matc.CompileError) as caught:
            matc.compile("x = 1\ny = 2 # \udcff\n")
        self.assertIn("<string>:2:9: error: the character U+DCFF cannot be "
                      "encoded in UTF-8", str(caught.exception))

    def test_every_error_is_reported(self):
        bad = "def f(a: f64[2]) -> f64:\n    return a\nprint(g(1))\n"
        with self.assertRaises(matc.CompileError) as caught:
            matc.compile(bad)
        self.assertGreaterEqual(caught.exception.diagnostics.count("error:"),
                                2)

    def test_load_names_the_file(self):
        path = os.path.join(os.environ["XDG_CACHE_HOME"], "..", "bad.mat")
        with open(path, "w") as f:
            f.write("x = [[1, 2]]\nprint(x @ x)\n")
        with self.assertRaisesRegex(matc.CompileError,
                                    r"bad\.mat:2:9: error: cannot multiply"):
            matc.load(path)
        with self.assertRaises(FileNotFoundError):
            matc.load(path + ".missing")
        # A bytes path, as open() takes (a new-user finding: an internal
        # TypeError of str.startswith); other types say what is expected.
        with self.assertRaisesRegex(matc.CompileError,
                                    r"bad\.mat:2:9: error: cannot multiply"):
            matc.load(os.fsencode(path))
        with self.assertRaisesRegex(TypeError, "path must be a str, bytes or "
                                    "os.PathLike, got int"):
            matc.load(3)

    def test_options(self):
        for kwargs, error in [({"opt": 4}, ValueError),
                              ({"opt": "2"}, TypeError),
                              ({"opt": True}, TypeError),
                              ({"threads": 0}, ValueError),
                              ({"threads": 2000}, ValueError),
                              ({"threads": 1.5}, TypeError)]:
            with self.subTest(**kwargs):
                with self.assertRaises(error):
                    matc.compile("", **kwargs)
        with self.assertRaisesRegex(TypeError, "source must be a str"):
            matc.compile(b"def f() -> f64:\n    return 1\n")
        # NumPy integers are ints here as in NumPy (a new-user finding:
        # threads=np.int64(2) was a TypeError); bools are not.
        m = matc.compile("def f(a: f64) -> f64:\n    return a\n",
                         opt=np.int64(1), threads=np.int32(2))
        self.assertEqual(m.f(2.0), 2.0)
        with self.assertRaises(TypeError):
            matc.compile("", threads=True)

    def test_no_matc(self):
        code = ("import matc\n"
                "try:\n"
                "    matc.compile('')\n"
                "except FileNotFoundError as e:\n"
                "    print(e)\n")
        env = dict(os.environ, MATC="/nonexistent/matc")
        out = subprocess.run([sys.executable, "-c", code], env=env,
                             stdout=subprocess.PIPE, check=True).stdout
        self.assertIn(b"MATC=/nonexistent/matc is not an executable", out)


class CallErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = matc.compile(SOURCE)

    def check(self, error, message, function, *args, **kwargs):
        with self.assertRaises(error) as caught:
            function(*args, **kwargs)
        self.assertEqual(str(caught.exception), message)

    def test_argument_count(self):
        a = np.ones((2, 2))
        with self.assertRaisesRegex(TypeError, r"mm\(\) missing 1 required "
                                    r"positional argument: 'b'"):
            self.m.mm(a)
        with self.assertRaisesRegex(TypeError, r"mm\(\) takes 2 positional "
                                    r"arguments but 3 were given"):
            self.m.mm(a, a, a)
        with self.assertRaisesRegex(TypeError, r"unexpected keyword "
                                    r"argument 'c'"):
            self.m.mm(a, a, c=a)

    def test_non_numeric(self):
        m = self.m
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got str 'abc'", m.gram, "abc")
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got NoneType None", m.gram, None)
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got float 2.0", m.gram, 2.0)
        # A list is named as such (a new-user finding: "an array of str").
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding str",
                   m.gram, [["a", "b", "c"]])
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got an array of str",
                   m.gram, np.array([["a", "b", "c"]]))
        # A ragged list: what is wrong with it, not NumPy's text about
        # setting an array element with a sequence (a new-user finding).
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got a ragged list (its rows differ in length "
                   "or depth)", m.gram, [[1.0, 2.0, 3.0], [1.0, 2.0]])
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got a ragged list (its rows differ in length "
                   "or depth)", m.gram, [[1.0, [2.0], 3.0]])
        # Rows of one length holding what is not a number are not ragged
        # (a new-user finding: they were reported so).
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding str",
                   m.gram, [[1.0, 2.0, 3.0], "abc"])
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding dict",
                   m.gram, [[1.0, 2.0, 3.0], {1: 2, 3: 4, 5: 6}])
        deep = [[1.0]]
        for _ in range(40):
            deep = [deep]
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got a list nested more than 32 deep",
                   m.gram, deep)
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got an array of complex128",
                   m.gram, np.ones((2, 3), complex))
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding bool",
                   m.gram, [[True, False, True]])
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got an array of bool",
                   m.gram, np.ones((2, 3), bool))
        self.check(TypeError, "scale(): s (Mat f64) must be a number, got "
                   "str", m.scale, "2", np.ones((1, 1)))
        self.check(TypeError, "scale(): s (Mat f64) must be a number, got "
                   "bool", m.scale, True, np.ones((1, 1)))
        self.check(TypeError, "scale(): s (Mat f64) must be a number, got an "
                   "array of shape (1, 1)", m.scale, np.ones((1, 1)),
                   np.ones((1, 1)))

    def test_not_an_array(self):
        # A Python object NumPy can only wrap as an object array is named
        # by its own type, not as "an array of object".
        m = self.m
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got dict {}", m.gram, {})
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be a 2-D array "
                   "of float64, got set {1}", m.gram, {1})
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding dict",
                   m.gram, [[{}, 1, 2]])
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding complex",
                   m.gram, [[1.0, 2j, 2.0]])

    def test_scalar_out_of_range(self):
        # An int beyond the element type: OverflowError, as float() raises,
        # with the parameter named.
        self.check(OverflowError, "scale(): s (Mat f64) must be a number "
                   "within the range of float64, got an int of 1329 bits",
                   self.m.scale, 10**400, np.ones((1, 1)))
        with self.assertRaises(OverflowError):  # Beyond str()'s 4300 digits.
            self.m.scale(10**5000, np.ones((1, 1)))
        # Within float64 but beyond float32 (3.4e38): OverflowError too, not
        # a silent inf, as the compiler rejects `x: f32 = 1e39`; infinities
        # themselves pass.
        a = np.ones((1, 1), np.float32)
        self.check(OverflowError, "scale32(): s (Mat f32) must be a number "
                   "within the range of float32, got an int of 130 bits",
                   self.m.scale32, 10**39, a)
        self.check(OverflowError, "scale32(): s (Mat f32) must be a number "
                   "within the range of float32, got 1e+39",
                   self.m.scale32, 1e39, a)
        self.check(OverflowError, "scale32(): s (Mat f32) must be a number "
                   "within the range of float32, got -1e+39",
                   self.m.scale32, -1e39, a)
        self.assertEqual(self.m.scale32(float("inf"), a)[0, 0], np.inf)
        self.assertEqual(self.m.scale32(3.4e38, a)[0, 0], np.float32(3.4e38))
        # Just beyond float32's largest, 3.4028235e+38: the number is given
        # with the digits that tell them apart (a new-user finding: "%g"
        # printed 3.40282e+38 for both).
        self.check(OverflowError, "scale32(): s (Mat f32) must be a number "
                   "within the range of float32, got 3.4028236e+38",
                   self.m.scale32, 3.4028236e38, a)
        self.check(OverflowError, "scale32(): a (Mat f32[?, ?]) must hold "
                   "numbers within the range of float32, got 3.4028236e+38 "
                   "in a list", self.m.scale32, 1.0, [[3.4028236e38]])

    def test_scalar_decimal_and_fraction(self):
        # A Decimal is a number as in a list argument (a new-user finding:
        # taken in a list, refused as a scalar); beyond float64 it is an
        # OverflowError, not the infinity float() makes of it, and a
        # Fraction beyond it is named by its repr (it said "got None").
        one = np.ones((1, 1))
        self.assertEqual(self.m.scale(decimal.Decimal("2.5"), one)[0, 0], 2.5)
        self.assertEqual(self.m.gram([[decimal.Decimal(1), 2, 3]])[0, 0], 1.0)
        self.check(OverflowError, "scale(): s (Mat f64) must be a number "
                   "within the range of float64, got Decimal('1E+400')",
                   self.m.scale, decimal.Decimal("1e400"), one)
        self.assertEqual(self.m.scale(decimal.Decimal("-Infinity"), one)[0, 0],
                         -np.inf)
        self.assertEqual(self.m.scale(fractions.Fraction(1, 4), one)[0, 0],
                         0.25)
        # A signaling NaN has no float: a ValueError naming the parameter
        # (it was Python's own, naming nothing).
        self.check(ValueError, "scale(): s (Mat f64) must be a number a float "
                   "can hold, got Decimal('sNaN')",
                   self.m.scale, decimal.Decimal("sNaN"), one)
        with self.assertRaisesRegex(OverflowError, r"scale\(\): s \(Mat f64\) "
                                    r"must be a number within the range of "
                                    r"float64, got Fraction\(1000"):
            self.m.scale(fractions.Fraction(10**400, 3), one)

    def test_list_out_of_range(self):
        # A list takes the parameter's element type as numbers do: a finite
        # number beyond float32 is an OverflowError, as for a scalar (it was
        # a silent inf, found by the new-user test); infinities pass.
        self.check(OverflowError, "scale32(): a (Mat f32[?, ?]) must hold "
                   "numbers within the range of float32, got 1e+39 in a list",
                   self.m.scale32, 1.0, [[1e39, 2.0]])
        self.assertEqual(self.m.scale32(1.0, [[np.inf, 2.0]])[0, 0], np.inf)
        # Ints beyond int64 are numbers too (NumPy keeps them as objects:
        # the message said "an array of object"); beyond float64, an
        # OverflowError.
        self.assertEqual(self.m.add([[2**70, 1]], [[0, 0]])[0, 0], 2.0**70)
        self.check(OverflowError, "add(): a (Mat f64[?, ?]) must hold "
                   "numbers within the range of float64, got an int of 1329 "
                   "bits in a list", self.m.add, [[10**400]], [[0]])
        # So are Decimals and Fractions: a finite one beyond float64 is an
        # OverflowError named by its repr (new-user findings: a Decimal
        # became a silent inf, a Fraction was called an int).
        self.check(OverflowError, "add(): a (Mat f64[?, ?]) must hold "
                   "numbers within the range of float64, got Decimal('1E+400') "
                   "in a list", self.m.add, [[decimal.Decimal("1e400")]], [[0]])
        with self.assertRaisesRegex(OverflowError, r"got Fraction\(1000"):
            self.m.add([[1, fractions.Fraction(10**400, 3)]], [[0, 0]])
        self.assertEqual(
            self.m.add([[decimal.Decimal("-Infinity")]], [[0]])[0, 0], -np.inf)

    def test_element_types_never_mix(self):
        m = self.m
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "float64, got an array of float32 (element types never "
                   "mix: convert it with .astype(numpy.float64))",
                   m.gram, np.ones((4, 3), np.float32))
        self.check(TypeError, "scale32(): a (Mat f32[?, ?]) must be an array "
                   "of float32, got an array of float64 (element types never "
                   "mix: convert it with .astype(numpy.float32))",
                   m.scale32, 1.0, np.ones((2, 2)))
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "float64, got an array of int64 (element types never mix: "
                   "convert it with .astype(numpy.float64))",
                   m.gram, np.ones((4, 3), np.int64))
        # A list holding NumPy arrays or scalars of the other element type,
        # or bools among numbers, is refused as the arrays themselves are
        # (NumPy's conversion of the list would mix them silently).
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "float64, got a list holding float32 (element types never "
                   "mix: convert it with .astype(numpy.float64))", m.gram,
                   [np.ones(3, np.float32), np.ones(3, np.float32)])
        self.check(TypeError, "scale32(): a (Mat f32[?, ?]) must be an array "
                   "of float32, got a list holding float64 (element types "
                   "never mix: convert it with .astype(numpy.float32))",
                   m.scale32, 1.0, [[np.float64(1), 2.0]])
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding bool", m.gram,
                   [[True, 2.5, 1.0]])
        # A new-user finding: None in a list became a NaN.
        self.check(TypeError, "gram(): a (Mat f64[?, 3]) must be an array of "
                   "real numbers, got a list holding None", m.gram,
                   [[1.0, None, 2.0]])
        # Python numbers and NumPy values of the parameter's type pass.
        np.testing.assert_array_equal(
            m.gram([np.ones(3), [1, 2.0, np.float64(3)]]),
            np.array([[2, 3, 4], [3, 5, 7], [4, 7, 10]], float))
        self.check(TypeError, "scale(): s (Mat f64) must be a Python number "
                   "or a numpy.float64, got a numpy.float32 (element types "
                   "never mix)", m.scale, np.float32(2), np.ones((1, 1)))
        self.check(TypeError, "scale32(): s (Mat f32) must be a Python "
                   "number or a numpy.float32, got a numpy.float64 (element "
                   "types never mix)", m.scale32, np.float64(2),
                   np.ones((1, 1), np.float32))

    def test_fixed_shapes(self):
        m = self.m
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) must have shape "
                   "(?, 3), got (7, 4)", m.gram, np.ones((7, 4)))
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) must be a 2-D "
                   "array, got a 1-D array of shape (3,)", m.gram,
                   np.ones(3))
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) must be a 2-D "
                   "array, got a 3-D array of shape (1, 2, 3)", m.gram,
                   np.ones((1, 2, 3)))
        self.check(ValueError, "gram(): a (Mat f64[?, 3]) has shape (0, 3): "
                   "a Mat matrix has at least one row and one column",
                   m.gram, np.ones((0, 3)))
        self.check(ValueError, "mm(): a (Mat f64[?, ?]) has shape (2, 0): a "
                   "Mat matrix has at least one row and one column",
                   m.mm, np.ones((2, 0)), np.ones((0, 2)))

    def test_dynamic_relations(self):
        m = self.m
        self.check(ValueError, "mm(): a.shape[1] (3) must equal b.shape[0] "
                   "(4): the inner dimensions of f64[?, ?] @ f64[?, ?] must "
                   "agree (line 3, column 14 of <string>)",
                   m.mm, np.ones((2, 3)), np.ones((4, 5)))
        self.check(ValueError, "add(): a.shape[1] (3) must equal b.shape[1] "
                   "(2): f64[?, ?] and f64[?, ?] must have the same shape "
                   "(line 9, column 14 of <string>)",
                   m.add, np.ones((2, 3)), np.ones((2, 2)))
        # In a callee: where the callee needs it.
        self.check(ValueError, "chain(): b.shape[1] (5) must equal c.shape[0]"
                   " (6): the inner dimensions of f64[?, ?] @ f64[?, ?] must "
                   "agree (line 3, column 14 of <string>)",
                   m.chain, np.ones((2, 4)), np.ones((4, 5)), np.ones((6, 1)))
        self.check(ValueError, "two(): a.shape[0] must be 2, got 3: a "
                   "f64[?, ?] is used as f64[2, 2] (line 15, column 12 of "
                   "<string>)", m.two, np.ones((3, 2)))

    def test_checked_before_copied(self):
        # A strided view standing for more memory than any machine has
        # (2**40 x 2 elements, all one float): its shapes are checked before
        # it is copied to C order (regression, a new-user finding: the copy
        # came first, 4 GB for 2**27 rows, or the out-of-memory killer).
        huge = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(1 << 40, 2),
                                               strides=(0, 0))
        self.check(ValueError, "mm(): a.shape[1] (2) must equal b.shape[0] "
                   "(1099511627776): the inner dimensions of f64[?, ?] @ "
                   "f64[?, ?] must agree (line 3, column 14 of <string>)",
                   self.m.mm, huge, huge)
        self.check(ValueError, "two(): a.shape[0] must be 2, got "
                   "1099511627776: a f64[?, ?] is used as f64[2, 2] (line 15,"
                   " column 12 of <string>)", self.m.two, huge)

    def test_memory(self):
        # (a @ b) @ c makes an n x n matrix of n x 1 and 1 x n inputs.
        n = 3_000_000
        a, b = np.ones((n, 1)), np.ones((1, n))
        with self.assertRaisesRegex(MemoryError, r"outer\(\): this call "
                                    r"would compute a 3000000 x 3000000 "
                                    r"matrix \(72000000000000 bytes\), more "
                                    r"than this machine's memory and swap"):
            self.m.outer(a, b, a)
        np.testing.assert_array_equal(
            self.m.outer(np.ones((3, 1)), np.ones((1, 3)), np.ones((3, 1))),
            np.full((3, 1), 3.0))

    def test_copies_count(self):
        # A strided view is copied to C order before the call: the copy and
        # the result must fit together. Regression: a 16 GiB broadcast view
        # (its copy 16 GiB) and its 16 GiB result on a 23 GiB machine got
        # the process killed by the kernel's OOM killer.
        from matc import _wrap
        n = _wrap.memory_limit() // 8 // 2 + 1000
        view = np.broadcast_to(np.ones((1, 1)), (n, 1))
        with self.assertRaisesRegex(MemoryError, r"mm\(\): this call would "
                                    r"copy a \(%d x 1\) to C order and "
                                    r"compute \d+ matrices: \d+ bytes in "
                                    r"all, more than this machine's memory "
                                    r"and swap" % n):
            self.m.mm(view, np.ones((1, 1)))
        # A small view is copied and computed.
        np.testing.assert_array_equal(
            self.m.mm(np.ones((6, 4))[:, ::2], np.ones((2, 1))),
            np.full((6, 1), 2.0))

    def test_interpreter_survives(self):
        # The calls above raised in Python: the compiled code never saw a
        # size it would reject (status 1) or could not allocate (exit 1).
        # Here, in a process of its own, the same calls, then a last line.
        code = "\n".join([
            "import numpy as np, matc",
            "m = matc.compile(%r)" % SOURCE,
            "for args in [(np.ones((2, 3)), np.ones((4, 5))),",
            "             (np.ones((0, 3)), np.ones((3, 5)))]:",
            "    try:",
            "        m.mm(*args)",
            "    except ValueError:",
            "        pass",
            "n = 3_000_000",
            "try:",
            "    m.outer(np.ones((n, 1)), np.ones((1, n)), np.ones((n, 1)))",
            "except MemoryError:",
            "    pass",
            "print('alive')",
        ])
        run = subprocess.run([sys.executable, "-c", code],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual((run.returncode, run.stdout, run.stderr),
                         (0, b"alive\n", b""))


class MalformedSignatures(unittest.TestCase):
    """Signatures that do not describe the C convention are refused before
    any call (a wrong prototype would crash in the C code)."""

    def test_refused(self):
        import copy
        import ctypes
        from matc import _wrap
        m = matc.compile(SOURCE)
        good = m.mm.__matc__
        lib = ctypes.CDLL(m.__matc_library__)
        _wrap.make_function(good, lib, "<string>", "m", 1 << 40)

        def broken(change):
            fn = copy.deepcopy(good)
            change(fn)
            return fn

        cases = {
            "a C argument missing":
                lambda fn: fn["c_args"].pop(1),
            "C arguments swapped":
                lambda fn: fn["c_args"].insert(0, fn["c_args"].pop(1)),
            "an unknown dtype":
                lambda fn: fn["params"][0].update(dtype="f16"),
            "a fixed size where the C code has one":
                lambda fn: fn["params"][0].update(shape=[2, "?"]),
            "a precondition on no parameter":
                lambda fn: fn["preconditions"][0].update(
                    lhs={"param": 5, "dim": 0}),
            "a result size of a fixed dimension":
                lambda fn: fn["result"].update(dims=[0, 1]),
            "no such symbol":
                lambda fn: fn.update(symbol="mat_nothing"),
        }
        for name, change in cases.items():
            with self.subTest(name):
                with self.assertRaises(_wrap.SignatureError):
                    _wrap.make_function(broken(change), lib, "<string>", "m",
                                        1 << 40)


if __name__ == "__main__":
    main()
