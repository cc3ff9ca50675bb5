"""Writes a long Mat program to stdout, for the compile-time tests.

    long-program.py lines N   N straight-line statements on 8 x 8 matrices
    long-program.py funcs N   N small functions, each called once
    long-program.py chain N   one expression of N products
    long-program.py literal N a function returning an N x N literal of
                              scalar expressions (s * k), one row a line
"""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "lines":
    print("b = iota(8, 8) * 0.01")
    print("x = eye(8)")
    print("y = x")
    statements = ["x = x @ b + x.T", "y = x - b * 2",
                  "x = (y @ x).T * 0.25", "x = x + y @ b"]
    for i in range(n):
        print(statements[i % 4])
    print("print(x)")
    print("print(y)")
elif kind == "funcs":
    for i in range(n):
        print("def step%d(a: f64[?, 8], b: f64[8, 8]) -> f64[?, 8]:" % i)
        print("    c = a @ b")
        print("    d = (c @ b) * 0.5")
        print("    return c + d + a")
    print("a = iota(4, 8)")
    print("b = eye(8)")
    for i in range(n):
        print("print(step%d(a, b))" % i)
elif kind == "chain":
    print("a = eye(8)")
    print("print(" + " @ ".join(["a"] * n) + ")")
elif kind == "literal":
    print("def f(s: f64) -> f64[%d, %d]:" % (n, n))
    rows = ["[" + ", ".join("s * %d" % (i * n + j) for j in range(n)) + "]"
            for i in range(n)]
    print("    return [" + ",\n            ".join(rows) + "]")
    print("print(f(0.5))")
else:
    sys.exit("long-program.py: unknown kind " + kind)
