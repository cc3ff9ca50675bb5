#!/usr/bin/python3
"""Independent NumPy reference outputs for the Mat programs in examples/.

Each Mat program examples/NAME.mat has a hand translation to NumPy below
(function ex_NAME) that recomputes the same values and prints them the way
Mat's print() does: one line per row, elements separated by one space, each
formatted with C's "%g" (f32 values are widened to double first).
Nothing here uses matc; the .expected files are meant to check matc.

  python3 examples/reference.py NAME      print the expected stdout of NAME
  python3 examples/reference.py --write   rewrite every examples/NAME.expected
  python3 examples/reference.py --check   only run the robustness checks

Robustness checks (run for every example, reported on stderr, and --write
refuses to write when one fails):
  * every program is also evaluated with three naive, zero-initialised
    matmul loops (summing forwards, backwards, and forwards with fused
    multiply-adds, accumulating in the element type, as compiled code
    would) and must print exactly the same text;
  * every printed value must keep its %g text when nudged by a relative
    1e-12 (f64) or 1e-7 (f32, about one ulp), so summation order or rounding differences
    in a compiled program cannot flip the 6th significant digit;
  * no printed value may be -0, whose sign would depend on how a matmul
    accumulator starts.

Mat-to-NumPy dictionary: `a @ b` -> a @ b (np.matmul), `a * b` -> a * b,
`a + b`, `a - b`, `-a`, `a.T`, transpose(a) -> a.T, zeros/ones/full/eye/iota
-> the helpers below, a 1-D literal [1, 2, 3] -> a 1x3 matrix.
"""

import os
import sys
from fractions import Fraction

try:
    import numpy as np
except ImportError:  # e.g. a pyenv python3 without numpy: use Debian's.
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

F64 = np.float64
F32 = np.float32
f32 = np.float32  # a plain number that takes the f32 type, as Mat numbers do

# ---------------------------------------------------------------------------
# Evaluation machinery.

MATMUL_MODE = "numpy"  # "numpy"; "fwd"/"rev": naive zero-initialised loops;
                       # "fma": forward loop with fused multiply-adds


def fma(x, y, z, dt):
    """x * y + z rounded once (through double for f32), like a fused multiply-add."""
    return dt(float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))))


def naive_matmul(a, b, mode):
    a = np.asarray(a)
    b = np.asarray(b)
    assert a.ndim == 2 and b.ndim == 2 and a.shape[1] == b.shape[0], (a.shape, b.shape)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)  # Mat never mixes f32/f64
    dt = a.dtype.type
    m, k = a.shape
    n = b.shape[1]
    c = np.empty((m, n), dtype=a.dtype)
    order = range(k - 1, -1, -1) if mode == "rev" else range(k)
    for i in range(m):
        for j in range(n):
            acc = dt(0)
            for p in order:
                if mode == "fma":
                    acc = fma(a[i, p], b[p, j], acc, dt)
                else:
                    acc = dt(acc + dt(a[i, p] * b[p, j]))
            c[i, j] = acc
    return c


class M(np.ndarray):
    """A 2-D matrix; only `@` differs from plain NumPy (see MATMUL_MODE)."""

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)


def matmul(a, b):
    a = np.asarray(a)
    b = np.asarray(b)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    if MATMUL_MODE == "numpy":
        c = np.matmul(a, b)
    else:
        c = naive_matmul(a, b, MATMUL_MODE)
    return c.view(M)


def _m(x):
    x = np.asarray(x)
    assert x.ndim == 2, x.shape
    return x.view(M)


def mat(rows, dt=F64):
    """A matrix literal; a flat list [1, 2, 3] is a 1x3 row, as in Mat."""
    x = np.array(rows, dtype=dt)
    if x.ndim == 1:
        x = x.reshape(1, -1)
    return _m(x)


def zeros(m, n, dt=F64):
    return _m(np.zeros((m, n), dtype=dt))


def ones(m, n, dt=F64):
    return _m(np.ones((m, n), dtype=dt))


def full(m, n, v, dt=F64):
    return _m(np.full((m, n), v, dtype=dt))


def eye(n, dt=F64):
    return _m(np.eye(n, dtype=dt))


def iota(m, n, dt=F64):
    return _m(np.arange(m * n, dtype=dt).reshape(m, n))


class Printer:
    def __init__(self):
        self.lines = []
        self.problems = []

    def __call__(self, x):
        """Mat's print(x)."""
        x = np.asarray(x)
        if x.ndim == 0:
            x = x.reshape(1, 1)
        assert x.ndim == 2, x.shape
        assert x.dtype in (np.float32, np.float64), x.dtype
        eps = 1e-7 if x.dtype == np.float32 else 1e-12
        for row in x:
            texts = []
            for v in row:
                d = float(v)  # f32 widened to double, as the contract says
                t = "%g" % d
                if d == 0 and np.signbit(d):
                    self.problems.append("value -0 in line %d" % (len(self.lines) + 1))
                for nudged in (d * (1 + eps), d * (1 - eps)):
                    if "%g" % nudged != t:
                        self.problems.append(
                            "%r (%s) in line %d is within %g of a %%g rounding "
                            "boundary" % (d, t, len(self.lines) + 1, eps))
                texts.append(t)
            self.lines.append(" ".join(texts))


# ---------------------------------------------------------------------------
# The examples, each a line-by-line translation of examples/NAME.mat.

def ex_markov(print):
    # Two-state chain from LANGUAGE.md.
    P = mat([[0.9, 0.1],
             [0.5, 0.5]])
    x = mat([[1.0, 0.0]])
    print(x @ P @ P)
    # Repeated squaring: P^2, P^4, P^8, P^16.
    P2 = P @ P
    P4 = P2 @ P2
    P8 = P4 @ P4
    P16 = P8 @ P8
    print(x @ P16)
    print(P16)
    # Three-state weather chain.
    W = mat([[0.5, 0.25, 0.25],
             [0.25, 0.5, 0.25],
             [0.125, 0.375, 0.5]])

    def step(x, p):  # f64[1, 3], f64[3, 3] -> f64[1, 3]
        assert x.shape == (1, 3) and p.shape == (3, 3)
        return x @ p

    today = mat([0, 0, 1])
    d = step(today, W)
    print(d)
    d = step(d, W)
    print(d)
    d2 = d
    d = step(step(step(step(step(d, W), W), W), W), W)
    print(d)
    print(d - d2)
    print(d @ ones(3, 1))
    print(W @ ones(3, 1) - 1)
    # Lazy chain.
    L = 0.5 * eye(3) + W * 0.5
    print(today @ L @ L @ L)


def ex_gram(print):
    def gram(a):  # f64[?, 3] -> f64[3, 3]
        assert a.shape[1] == 3
        return a.T @ a

    def row_gram(a):  # f64[2, ?] -> f64[2, 2]
        assert a.shape[0] == 2
        return a @ a.T

    print(gram(iota(4, 3)))
    data = mat([[1, 2, 0],
                [0, 1, 1],
                [2, 0, 1],
                [1, 1, 1],
                [3, -1, 2]])
    g = gram(data)
    print(g)
    print(g - g.T)
    v = mat([[1, -2, 3]])
    print(gram(v))
    a = iota(4, 3) * iota(4, 3) - 2 * iota(4, 3)
    centered = a - ones(4, 4) @ a * 0.25  # (ones @ a) * 0.25, left to right
    print(centered)
    print(ones(1, 4) @ centered)
    print(gram(centered) * 0.25)
    print(row_gram(iota(2, 5)))
    print(row_gram(mat([[1, 0, 1],
                        [0.5, 0.5, -1]])))


def ex_walks(print):
    A = mat([[0, 1, 1, 0, 1],
             [1, 0, 1, 0, 0],
             [1, 1, 0, 1, 0],
             [0, 0, 1, 0, 1],
             [1, 0, 0, 1, 0]])
    A2 = A @ A
    A3 = A2 @ A
    print(A2)
    print(A3)
    print(ones(1, 5) @ (A3 * eye(5)) @ ones(5, 1))  # trace(A^3)
    u = ones(1, 5)
    print(u @ A @ u.T)
    print(u @ A2 @ u.T)
    print(u @ A3 @ u.T)  # written with a backslash continuation in Mat
    e3 = mat([[0, 0, 0, 1, 0]])
    print(e3 @ A3 @ A)
    C = 1 - A - eye(5)
    print(C)
    print(C @ C)
    G = mat([[0, 1, 1],
             [0, 0, 1],
             [1, 0, 0]])
    Gk = G
    Gk = Gk @ G
    Gk = Gk @ G
    print(Gk)
    print(G @ G.T)
    print((G + G @ G + Gk) @ ones(3, 1))


def ex_rotations(print):
    R90 = mat([[0, -1],
               [1, 0]])
    S = mat([[2, 0],
             [0, 0.5]])
    H = mat([[1, 1.5],
             [0, 1]])
    Q = mat([[0.8, -0.6],
             [0.6, 0.8]])
    pts = mat([[1, 2, 3, 2, 1],
               [1, 1, 2, 3, 2]])
    print(R90 @ pts)
    print(S @ pts)
    print(H @ S @ pts)
    print(Q @ pts)
    print(pts @ full(5, 1, 0.2))
    print(R90 @ R90 @ R90 @ R90 @ pts - pts)
    print(R90.T @ R90)
    print(Q @ Q)
    print((-R90) @ pts - R90 @ R90 @ R90 @ pts)  # unary minus binds tighter

    def scaling(s):  # f64 -> f64[2, 2]
        return s * eye(2)

    print(scaling(3) @ Q - Q @ scaling(3))
    print(S @ Q - Q @ S)
    hp = mat([[1, 0], [0, 1], [0, 0]]) @ pts + mat([[0], [0], [1]]) @ ones(1, 5)
    print(hp)
    T = mat([[1, 0, 3],
             [0, 1, -2],
             [0, 0, 1]])
    R3 = mat([[0, -1, 0],
              [1, 0, 0],
              [0, 0, 1]])
    drop = mat([[1, 0, 0],
                [0, 1, 0]])
    print(drop @ T @ R3 @ hp)
    print(drop @ R3 @ T @ hp)


def ex_laplacian(print):
    A = mat([[0, 1, 1, 0, 0, 1],
             [1, 0, 1, 0, 0, 0],
             [1, 1, 0, 1, 0, 0],
             [0, 0, 1, 0, 1, 1],
             [0, 0, 0, 1, 0, 1],
             [1, 0, 0, 1, 1, 0]])
    deg = A @ ones(6, 1)
    print(deg.T)
    print(ones(1, 6) @ deg * 0.5)
    D = eye(6) * (ones(6, 1) @ deg.T)
    L = D - A
    print(L)
    print((L @ ones(6, 1)).T)
    B = mat([[1, -1, 0, 0, 0, 0],
             [1, 0, -1, 0, 0, 0],
             [0, 1, -1, 0, 0, 0],
             [0, 0, 1, -1, 0, 0],
             [0, 0, 0, 1, -1, 0],
             [0, 0, 0, 1, 0, -1],
             [0, 0, 0, 0, 1, -1],
             [1, 0, 0, 0, 0, -1]])
    print(B.T @ B - L)
    x = iota(6, 1)
    print(x.T @ L @ x)
    dx = B @ x
    print(dx.T)
    print(dx.T @ dx)
    w = mat([[1, 1, 1, 0.5, 1, 1, 1, 0.25]])
    Wd = eye(8) * (ones(8, 1) @ w)
    Lw = B.T @ Wd @ B
    print(Lw)
    print((Lw @ ones(6, 1)).T)
    h = mat([[4], [0], [0], [-4], [2], [2]])
    print((L @ h).T)
    h1 = h - 0.125 * L @ h  # (0.125 * L) @ h, left to right
    h2 = h1 - 0.125 * L @ h1
    print(h1.T)
    print(h2.T)
    print(ones(1, 6) @ h2)


def ex_f32(print):
    big = mat([1000, 1e7, 16777216, 1e8], F32)
    print(big + f32(1) - big)
    bigd = mat([1000, 1e7, 16777216, 1e8], F64)
    print(bigd + 1 - bigd)
    tenth = mat([[0.1]], F32)
    print(tenth * f32(3) - f32(0.3))
    tenthd = mat([[0.1]])
    print(tenthd * 3 - 0.3)
    P = mat([[0.9, 0.1],
             [0.5, 0.5]], F32)
    x = mat([1, 0], F32)
    print(x @ P @ P)

    def blend(a, b, t):  # f32[2, 3], f32[2, 3], f32 -> f32[2, 3]
        assert a.dtype == b.dtype == F32 and isinstance(t, F32)
        return a * (f32(1) - t) + b * t

    def gram32(a):  # f32[?, 2] -> f32[2, 2]
        assert a.dtype == F32 and a.shape[1] == 2
        return a.T @ a

    a = iota(2, 3, F32)
    b = full(2, 3, 10, F32)
    print(blend(a, b, f32(0.25)))
    print(blend(a, -b, f32(0.5)))
    pts = iota(3, 2, F32) * f32(0.5) - f32(1)
    print(pts)
    print(gram32(pts))
    I = eye(2, F32)
    z = zeros(1, 2, F32)
    print(gram32(I) + gram32(z))
    q = iota(5, 2, F32)
    print(gram32(q).T * f32(0.125))


EXAMPLES = {
    name[3:]: fn for name, fn in sorted(globals().items()) if name.startswith("ex_")
}


def run(name):
    """Returns (stdout text, list of robustness problems) for one example."""
    global MATMUL_MODE
    texts = {}
    problems = []
    for mode in ("numpy", "fwd", "rev", "fma"):
        MATMUL_MODE = mode
        p = Printer()
        with np.errstate(all="raise"):
            EXAMPLES[name](p)
        texts[mode] = "".join(line + "\n" for line in p.lines)
        if mode == "numpy":
            problems += p.problems
    MATMUL_MODE = "numpy"
    for mode in ("fwd", "rev", "fma"):
        if texts[mode] != texts["numpy"]:
            problems.append("output with the naive %s matmul loop differs from numpy's" % mode)
    return texts["numpy"], problems


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    if len(argv) == 2 and argv[1] in ("--write", "--check"):
        ok = True
        for name in EXAMPLES:
            text, problems = run(name)
            for pr in problems:
                ok = False
                sys.stderr.write("%s: %s\n" % (name, pr))
            if argv[1] == "--write" and not problems:
                with open(os.path.join(here, name + ".expected"), "w") as f:
                    f.write(text)
                sys.stderr.write("wrote %s.expected\n" % name)
        return 0 if ok else 1
    if len(argv) == 2 and argv[1] in EXAMPLES:
        text, problems = run(argv[1])
        for pr in problems:
            sys.stderr.write("%s: warning: %s\n" % (argv[1], pr))
        sys.stdout.write(text)
        return 1 if problems else 0
    sys.stderr.write("usage: %s NAME | --write | --check\nexamples: %s\n"
                     % (argv[0], " ".join(EXAMPLES)))
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
