#!/usr/bin/env python3
# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Mat functions called from Python (the matc package) against NumPy, in
the same process, on the same NumPy arrays.

Usage: bench/python_bench.py [--quick] [--sizes 256,1024,2048]
                             [--threads 1,2] [--types f32,f64]

Operations (n x n matrices of random numbers; v is n x 16):

  matmul   a @ b                  matc: def mm(a: T[?, ?], b: T[?, ?])
  ew       a * b + c - d * 0.5    one fused loop in matc; NumPy makes
                                  three temporaries
  chain    (a @ b) @ v            matc: static shapes, so matrix-optimize
                                  computes a @ (b @ v) (64 n^2 flops
                                  instead of 2 n^3 + 32 n^2)
  matvec   a @ x                  x is n x 1: matc: def mv(a: T[?, ?],
                                  x: T[?, 1]), dot products of the rows
                                  of A; NumPy calls OpenBLAS's gemv
  vecmat   x.T @ a                x is n x 1 (one row of C: the rows of
                                  a scaled by x's elements, axpy updates);
                                  NumPy calls OpenBLAS's gemv
  narrow   a @ w                  w is n x 4 (static N = 4: dot products
                                  of the rows of A and the columns of w)
  tew      a.T * 2.0 + b          an elementwise expression reading a
                                  transposed: matc computes it in square
                                  blocks transposed in registers
  tnarrow  a.T @ w                w is n x 4, through def tn(a: T[?, ?],
                                  b: T[?, ?]) (run-time sizes): computed as
                                  C^T = w.T @ a, then copied transposed
  points   p @ r                  p is 100000 x 3, r 3 x 3 (a tiny static
                                  B: plain loops); once per type
  gram     p.T @ p                the 3 x 3 Gram matrix of p (a tiny C
                                  from a long k-range); once per type
  pvec     p @ y                  y is 3 x 1, through def mm (run-time
                                  sizes): a matrix-vector product along a
                                  k-range of 3; once per type
  prow     x @ p                  x is 1 x 100000, through def mm: one row
                                  of C, p's rows scaled by x's elements,
                                  split along k into 8 partial sums (C is
                                  one vector); once per type
  call     a @ b on 2 x 2         the cost of one call: matc's minus
                                  NumPy's is the package's overhead

Each thread count runs in a process of its own: NumPy's OpenBLAS with
OPENBLAS_NUM_THREADS=T and OPENBLAS_CORETYPE from the CPU's flags
(bench.py's openblas_coretype(): SkylakeX with AVX-512, Haswell with AVX2),
matc's kernels compiled with --threads T (-O2). Both compute into a new
array (as `a @ b` does). Every case runs once untimed, then enough timed
repetitions for about --seconds (at least 3); the table gives medians (ms,
us for `call`) and NumPy's time divided by matc's (above 1: matc is
faster). Results are checked against NumPy before timing.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import cpu_model, openblas_coretype  # noqa: E402

CHAIN_COLS = 16
#: Rows of the points of `points` and `gram`.
POINTS = 100000


def kernels(ty, sizes):
    """The Mat source of the kernels of element type `ty`; one chain per
    size, with static shapes."""
    lines = ["def mm(a: %s[?, ?], b: %s[?, ?]) -> %s[?, ?]:" % (ty, ty, ty),
             "    return a @ b", "",
             "def ew(a: {0}[?, ?], b: {0}[?, ?], c: {0}[?, ?], d: {0}[?, ?])"
             " -> {0}[?, ?]:".format(ty),
             "    return a * b + c - d * 0.5", "",
             "def mv(a: {0}[?, ?], x: {0}[?, 1]) -> {0}[?, 1]:".format(ty),
             "    return a @ x", "",
             "def vm(x: {0}[?, 1], a: {0}[?, ?]) -> {0}[1, ?]:".format(ty),
             "    return x.T @ a", "",
             "def mn(a: {0}[?, ?], w: {0}[?, 4]) -> {0}[?, 4]:".format(ty),
             "    return a @ w", "",
             "def tew(a: {0}[?, ?], b: {0}[?, ?]) -> {0}[?, ?]:".format(ty),
             "    return a.T * 2.0 + b", "",
             "def tn(a: {0}[?, ?], b: {0}[?, ?]) -> {0}[?, ?]:".format(ty),
             "    return a.T @ b", "",
             "def points(p: {0}[?, 3], r: {0}[3, 3]) -> {0}[?, 3]:".format(ty),
             "    return p @ r", "",
             "def gram(p: {0}[?, 3]) -> {0}[3, 3]:".format(ty),
             "    return p.T @ p", ""]
    for n in sizes:
        lines += ["def chain%d(a: %s[%d, %d], b: %s[%d, %d], v: %s[%d, %d])"
                  " -> %s[%d, %d]:" % (n, ty, n, n, ty, n, n, ty, n,
                                       CHAIN_COLS, ty, n, CHAIN_COLS),
                  "    return (a @ b) @ v", ""]
    return "\n".join(lines)


#: Seconds to wait before timing: with 2 threads, the idle threads of the
#: library timed before (OpenBLAS's spin for about 2^28 cycles, LLVM's
#: OpenMP for KMP_BLOCKTIME, 200 ms) would otherwise compete for the cores
#: (measured on the 2-core Zen 4 VM: matc's 256 x 256 f64 matrix-vector
#: product 84 us right after NumPy's, 6 us alone).
IDLE_SECONDS = 0.3


def timed(function, seconds):
    """Median seconds of one call of `function`: IDLE_SECONDS of sleep, once
    untimed, then repetitions for about `seconds` (at least 3)."""
    time.sleep(IDLE_SECONDS)
    function()
    times = []
    total = 0.0
    while len(times) < 3 or total < seconds:
        start = time.perf_counter()
        function()
        t = time.perf_counter() - start
        times.append(t)
        total += t
    return statistics.median(times)


def timed_calls(function, seconds, batch=1000):
    """Median seconds per call of `function` for cheap calls, timed in
    batches of `batch` calls."""
    def many():
        for _ in range(batch):
            function()
    return timed(many, seconds) / batch


def check(got, expected, ty, k):
    """`got` within the rounding of k-term sums of `expected`."""
    import numpy as np
    eps = np.finfo(np.float32 if ty == "f32" else np.float64).eps
    scale = max(1.0, float(np.max(np.abs(expected))))
    err = float(np.max(np.abs(got.astype(np.float64) - expected)))
    if err > 4 * k * eps * scale:
        raise SystemExit("python_bench: wrong result (error %g)" % err)


def child(args):
    """Runs every case for one thread count; prints one JSON per case."""
    import numpy as np
    import matc
    threads = args.threads_child
    seconds = args.seconds
    rng = np.random.default_rng(0)
    for ty in args.types:
        dtype = np.float32 if ty == "f32" else np.float64
        m = matc.compile(kernels(ty, args.sizes), threads=threads)

        def emit(op, n, numpy_s, matc_s):
            print(json.dumps({"op": op, "type": ty, "n": n,
                              "threads": threads, "numpy": numpy_s,
                              "matc": matc_s}), flush=True)

        for n in args.sizes:
            a, b, c, d = (rng.random((n, n)).astype(dtype) for _ in range(4))
            v = rng.random((n, CHAIN_COLS)).astype(dtype)
            x = rng.random((n, 1)).astype(dtype)
            w = rng.random((n, 4)).astype(dtype)
            chain = getattr(m, "chain%d" % n)
            check(m.mm(a, b), a.astype(np.float64) @ b, ty, n)
            check(m.ew(a, b, c, d), a * b + c - d * 0.5, ty, 4)
            check(chain(a, b, v), (a.astype(np.float64) @ b) @ v, ty, n * n)
            check(m.mv(a, x), a.astype(np.float64) @ x, ty, n)
            check(m.vm(x, a), x.T.astype(np.float64) @ a, ty, n)
            check(m.mn(a, w), a.astype(np.float64) @ w, ty, n)
            emit("matmul", n, timed(lambda: a @ b, seconds),
                 timed(lambda: m.mm(a, b), seconds))
            emit("ew", n, timed(lambda: a * b + c - d * 0.5, seconds),
                 timed(lambda: m.ew(a, b, c, d), seconds))
            emit("chain", n, timed(lambda: (a @ b) @ v, seconds),
                 timed(lambda: chain(a, b, v), seconds))
            emit("matvec", n, timed_calls(lambda: a @ x, seconds, 100),
                 timed_calls(lambda: m.mv(a, x), seconds, 100))
            emit("vecmat", n, timed_calls(lambda: x.T @ a, seconds, 100),
                 timed_calls(lambda: m.vm(x, a), seconds, 100))
            emit("narrow", n, timed_calls(lambda: a @ w, seconds, 100),
                 timed_calls(lambda: m.mn(a, w), seconds, 100))
            check(m.tew(a, b), a.T * 2.0 + b, ty, 2)
            check(m.tn(a, w), a.T.astype(np.float64) @ w, ty, n)
            emit("tew", n, timed(lambda: a.T * 2.0 + b, seconds),
                 timed(lambda: m.tew(a, b), seconds))
            emit("tnarrow", n, timed_calls(lambda: a.T @ w, seconds, 100),
                 timed_calls(lambda: m.tn(a, w), seconds, 100))
        p = rng.random((POINTS, 3)).astype(dtype)
        r = rng.random((3, 3)).astype(dtype)
        check(m.points(p, r), p.astype(np.float64) @ r, ty, 3)
        check(m.gram(p), p.T.astype(np.float64) @ p, ty, POINTS)
        emit("points", POINTS, timed(lambda: p @ r, seconds),
             timed(lambda: m.points(p, r), seconds))
        emit("gram", POINTS, timed(lambda: p.T @ p, seconds),
             timed(lambda: m.gram(p), seconds))
        y = rng.random((3, 1)).astype(dtype)
        check(m.mm(p, y), p.astype(np.float64) @ y, ty, 3)
        emit("pvec", POINTS, timed(lambda: p @ y, seconds),
             timed(lambda: m.mm(p, y), seconds))
        xr = rng.random((1, POINTS)).astype(dtype)
        check(m.mm(xr, p), xr.astype(np.float64) @ p, ty, POINTS)
        emit("prow", POINTS, timed(lambda: xr @ p, seconds),
             timed(lambda: m.mm(xr, p), seconds))
        a, b = (rng.random((2, 2)).astype(dtype) for _ in range(2))
        mm = m.mm
        emit("call", 2, timed_calls(lambda: a @ b, seconds),
             timed_calls(lambda: mm(a, b), seconds))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="n = 256 only, 0.05 s per case: checks that "
                        "it runs, measures nothing")
    parser.add_argument("--sizes", default="256,1024,2048")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--types", default="f32,f64")
    parser.add_argument("--seconds", type=float, default=0.5,
                        help="timed seconds per case and implementation")
    parser.add_argument("--threads-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.types = args.types.split(",")
    if args.quick:
        args.sizes, args.seconds = [256], 0.05
    if args.threads_child is not None:
        return child(args)

    coretype = openblas_coretype()
    print("python_bench: %s; %s" % (
        cpu_model(), "OpenBLAS ran with OPENBLAS_CORETYPE=%s" % coretype
        if coretype else "OpenBLAS chose its kernel itself"))
    rows = []
    for threads in [int(t) for t in args.threads.split(",")]:
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
                   PYTHONPATH=os.pathsep.join(
                       [os.path.join(ROOT, "python")] +
                       os.environ.get("PYTHONPATH", "").split(os.pathsep)))
        if coretype:
            env["OPENBLAS_CORETYPE"] = coretype
        command = [sys.executable, os.path.abspath(__file__),
                   "--threads-child", str(threads), "--sizes",
                   ",".join(map(str, args.sizes)), "--types",
                   ",".join(args.types), "--seconds", str(args.seconds)]
        run = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                             check=True)
        rows += [json.loads(l) for l in run.stdout.decode().splitlines()]

    print("\n| operation | type | n | threads | NumPy | matc | NumPy / matc |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        unit, scale = (("us", 1e6) if r["op"] in ("call", "matvec", "vecmat",
                                                  "narrow", "tnarrow", "pvec",
                                                  "prow")
                       else ("ms", 1e3))
        print("| %s | %s | %d | %d | %.3f %s | %.3f %s | %.2fx |" % (
            "a @ b (2 x 2, one call)" if r["op"] == "call" else
            {"matmul": "a @ b", "ew": "a * b + c - d * 0.5",
             "chain": "(a @ b) @ v", "matvec": "a @ x (x: n x 1)",
             "vecmat": "x.T @ a (x: n x 1)",
             "narrow": "a @ w (w: n x 4)", "points": "p @ r (r: 3 x 3)",
             "tew": "a.T * 2.0 + b", "tnarrow": "a.T @ w (w: n x 4)",
             "gram": "p.T @ p (p: n x 3)",
             "pvec": "p @ y (p: n x 3, y: 3 x 1)",
             "prow": "x @ p (x: 1 x n, p: n x 3)"}[r["op"]],
            r["type"], r["n"], r["threads"], r["numpy"] * scale, unit,
            r["matc"] * scale, unit, r["numpy"] / r["matc"]))
    print()
    for r in rows:
        if r["op"] == "call":
            print("call overhead (%s, %d thread%s): matc's call of a 2 x 2 "
                  "product takes %.2f us more than NumPy's a @ b"
                  % (r["type"], r["threads"], "s" if r["threads"] > 1
                     else "", (r["matc"] - r["numpy"]) * 1e6))


if __name__ == "__main__":
    sys.exit(main())
