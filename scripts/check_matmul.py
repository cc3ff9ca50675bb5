#!/usr/bin/env python3
"""Check matc's matrix products against NumPy, size by size.

Usage: check_matmul.py --matc PATH [--sizes 1,7,...] [--types f32,f64]
                       [--threads 0] [--opt 2] [--quick]

For every size n and element type it compiles and runs (`matc -O<opt>
--run --threads N`) a Mat program that multiplies two n x n matrices made
from iota, scaled by powers of two so that every input is exact in f32 and
f64, through a function with `?` dimensions (the run-time-shape code path)
and, up to n = 129, also with static shapes, with the rhs transposed and with
the lhs transposed. Then it runs rectangular products (1 x k x 1, tall and
thin, ...). Each printed product is compared with NumPy's product of the
same inputs in float64: element (i, j) must satisfy

    |c - r| <= 2 * gamma_k * (|A| @ |B|)[i, j] + 5e-6 * |r| + tiny

with gamma_k = k u / (1 - k u) and u the unit roundoff of the type (the
classical bound for a sum of k products in any order, Higham, "Accuracy and
Stability of Numerical Algorithms", 2nd ed., section 3.5), plus %g's six
significant digits. Exit status 0 when every product is within the bound.
"""

import argparse
import subprocess
import sys
import tempfile

import numpy as np

SIZES = [1, 7, 31, 63, 64, 65, 127, 128, 129, 1000, 1023]
RECTANGULAR = [(1, 33, 1), (1, 1000, 7), (65, 1, 129), (129, 127, 200),
               (3, 1023, 5), (200, 17, 1),
               # A tiny static B (K, N <= 16, N not a multiple of 8): the
               # plain loops, whatever M (points @ r).
               (129, 3, 3), (100, 16, 7), (77, 5, 1), (129, 7, 15),
               # A tiny C from a long k-range (with A transposed: the
               # plain loops, k outermost; a.T @ a of a ? x 3 a).
               (3, 129, 3), (16, 100, 16), (1, 129, 7), (5, 17, 2)]
UNIT_ROUNDOFF = {"f32": 2.0**-24, "f64": 2.0**-53}


def inputs(m, k, n):
    """The exact values of A (m x k) and B (k x n) and their Mat definitions."""
    c1, c2 = (m * k) // 2, (k * n) // 3
    a = (np.arange(m * k, dtype=np.float64).reshape(m, k) - c1) * 2.0**-10
    b = (c2 - np.arange(k * n, dtype=np.float64).reshape(k, n)) * 2.0**-9
    return a, b, ("(iota(%d, %d) - %d) * 0.0009765625" % (m, k, c1),
                  "(%d - iota(%d, %d)) * 0.001953125" % (c2, k, n))


def program(t, m, k, n, static):
    """A Mat program printing A @ B (and variants when `static`)."""
    a, b, (a_expr, b_expr) = inputs(m, k, n)
    lines = ["def mm(a: %s[?, ?], b: %s[?, ?]) -> %s[?, ?]:" % (t, t, t),
             "    return a @ b",
             "A: %s[%d, %d] = %s" % (t, m, k, a_expr),
             "B: %s[%d, %d] = %s" % (t, k, n, b_expr),
             "print(mm(A, B))"]
    expected = [(a, b)]
    if static:
        lines += ["print(A @ B)",
                  "Bt: %s[%d, %d] = transpose(B)" % (t, n, k),
                  "print(A @ Bt.T)",
                  "At: %s[%d, %d] = transpose(A)" % (t, k, m),
                  "print(At.T @ B)"]
        expected += [(a, b)] * 3
    return "\n".join(lines) + "\n", expected


def check(matc, opt, threads, t, m, k, n, static):
    source, expected = program(t, m, k, n, static)
    with tempfile.NamedTemporaryFile("w", suffix=".mat") as f:
        f.write(source)
        f.flush()
        result = subprocess.run(
            [matc, "-O%d" % opt, f.name, "--run", "--threads", str(threads)],
            capture_output=True, text=True, timeout=900)
    what = "%s %dx%dx%d -O%d --threads %d" % (t, m, k, n, opt, threads)
    if result.returncode != 0:
        return "%s: exit status %d\n%s" % (what, result.returncode,
                                            result.stderr)
    values = np.array(result.stdout.split(), dtype=np.float64)
    if values.size != m * n * len(expected):
        return "%s: %d values printed, %d expected" % (
            what, values.size, m * n * len(expected))
    gamma = k * UNIT_ROUNDOFF[t] / (1 - k * UNIT_ROUNDOFF[t])
    for index, (a, b) in enumerate(expected):
        got = values[index * m * n:(index + 1) * m * n].reshape(m, n)
        reference = a @ b
        bound = (2 * gamma * (np.abs(a) @ np.abs(b)) +
                 5e-6 * np.abs(reference) + 1e-30)
        error = np.abs(got - reference)
        if not np.all(error <= bound):
            i, j = np.unravel_index(np.argmax(error - bound), error.shape)
            return "%s, product %d: element (%d, %d) is %r, expected %r" % (
                what, index, i, j, got[i, j], reference[i, j])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matc", required=True)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--types", default="f32,f64")
    parser.add_argument("--threads", default="0")
    parser.add_argument("--opt", type=int, default=2)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    failures = checks = 0
    for threads in [int(x) for x in args.threads.split(",")]:
        for t in args.types.split(","):
            cases = [(n, n, n) for n in sizes] + RECTANGULAR
            for m, k, n in cases:
                checks += 1
                message = check(args.matc, args.opt, threads, t, m, k, n,
                                static=max(m, k, n) <= 129)
                if message:
                    failures += 1
                    print("FAIL " + message)
    print("%d products checked against NumPy, %d wrong" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
