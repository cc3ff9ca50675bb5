# RUN: %pymatc %s
# Every function of every examples/ file, loaded with matc.load and called
# from Python, against NumPy; the top-level statements are not run.
"""Every Mat function of examples/*.mat and examples/c/*.mat against its
NumPy translation, on random inputs of several sizes (both element types;
`?` dimensions at 1 and at larger sizes)."""

import glob
import os
import unittest

import numpy as np

import matc
from mattest import EXAMPLES, assert_product_close, main, rng

F32, F64 = np.float32, np.float64

# NumPy translations, by (file, function): (reference, argument maker).
# Each maker takes a generator and a `?` size and returns the arguments.
REFERENCES = {
    ("f32.mat", "blend"): (
        lambda a, b, t: a * (F32(1) - F32(t)) + b * F32(t),
        lambda r, n: (r.random((2, 3), F32), r.random((2, 3), F32), 0.25)),
    ("f32.mat", "gram32"): (
        lambda a: a.T @ a, lambda r, n: (r.random((n, 2), F32),)),
    ("gram.mat", "gram"): (
        lambda a: a.T @ a, lambda r, n: (r.standard_normal((n, 3)),)),
    ("gram.mat", "row_gram"): (
        lambda a: a @ a.T, lambda r, n: (r.standard_normal((2, n)),)),
    ("markov.mat", "step"): (
        lambda x, p: x @ p,
        lambda r, n: (r.random((1, 3)), r.random((3, 3)))),
    ("rotations.mat", "scaling"): (
        lambda s: s * np.eye(2), lambda r, n: (float(n) - 2.5,)),
    ("kernels.mat", "gram"): (
        lambda a: a.T @ a, lambda r, n: (r.standard_normal((n + 2, n)),)),
    ("kernels.mat", "step"): (
        lambda m, x, b, s: (m @ x + b) * s,
        lambda r, n: (r.standard_normal((n, n + 1)),
                      r.standard_normal((n + 1, 1)),
                      r.standard_normal((n, 1)), 0.125)),
}

SIZES = [1, 2, 7, 64, 129]


class Examples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        files = sorted(glob.glob(os.path.join(EXAMPLES, "*.mat")) +
                       glob.glob(os.path.join(EXAMPLES, "c", "*.mat")))
        cls.modules = {os.path.basename(f): matc.load(f) for f in files}

    def test_every_function_has_a_reference(self):
        found = {(name, fn) for name, m in self.modules.items()
                 for fn in m.__matc_functions__}
        self.assertEqual(found, set(REFERENCES))

    def test_against_numpy(self):
        for (name, fn), (reference, make) in sorted(REFERENCES.items()):
            function = getattr(self.modules[name], fn)
            for n in SIZES:
                with self.subTest(example=name, function=fn, n=n):
                    args = make(rng(n), n)
                    got = function(*args)
                    expected = reference(*args)
                    self.assertIsInstance(got, np.ndarray)
                    self.assertEqual(got.dtype, expected.dtype)
                    self.assertEqual(got.shape, expected.shape)
                    self.assertTrue(got.flags.c_contiguous)
                    # Products within their rounding bound, the rest
                    # within a few ulps.
                    tol = 8 * np.finfo(got.dtype).eps * max(
                        1.0, float(np.max(np.abs(expected))))
                    if fn in ("gram", "gram32", "row_gram"):
                        a = args[0]
                        lhs, rhs = (a, a.T) if fn == "row_gram" else (a.T, a)
                        assert_product_close(self, got, lhs, rhs)
                    else:
                        np.testing.assert_allclose(got, expected, rtol=0,
                                                   atol=tol * 8)

    def test_top_level_not_run(self):
        # Loading prints nothing: the modules have no program to run.
        m = self.modules["markov.mat"]
        self.assertEqual(sorted(m.__matc_functions__), ["step"])
        self.assertEqual(m.__name__, "markov")
        self.assertEqual(m.__file__, os.path.join(EXAMPLES, "markov.mat"))

    def test_flat_list_is_a_row(self):
        # As in examples/markov.mat: `step([0, 0, 1], W)`.
        w = [[0.9, 0.075, 0.025], [0.15, 0.8, 0.05], [0.25, 0.25, 0.5]]
        got = self.modules["markov.mat"].step([0, 0, 1], w)
        np.testing.assert_array_equal(got, [[0.25, 0.25, 0.5]])


if __name__ == "__main__":
    main()
