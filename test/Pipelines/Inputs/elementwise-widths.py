"""Prints a Mat program of elementwise functions on every row width around
the vector lengths of the elementwise schedule (32 f32, 16 f64; fewer
columns, known statically, take @schedule_narrow_rows): static shapes, a
transposed operand and a dynamic row count, each called and printed.

Usage: elementwise-widths.py f32|f64"""
import sys

element = sys.argv[1]
parts = []
for cols in (1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33):
    for rows in (1, 17):
        n = "%d_%d" % (rows, cols)
        t = element
        parts.append(
            f"def f{n}(a: {t}[{rows}, {cols}], b: {t}[{rows}, {cols}]) -> {t}[{rows}, {cols}]:\n"
            f"    return a * b + a - b * 0.25\n"
            f"def g{n}(a: {t}[{cols}, {rows}]) -> {t}[{rows}, {cols}]:\n"
            f"    return a.T * 2 + 1\n"
            f"def h{n}(a: {t}[?, {cols}], b: {t}[?, {cols}]) -> {t}[?, {cols}]:\n"
            f"    return a - b * 3\n"
            f"x{n}: {t}[{rows}, {cols}] = iota({rows}, {cols}) * 0.125 - 3\n"
            f"y{n}: {t}[{rows}, {cols}] = iota({rows}, {cols}) * 0.5 + 1\n"
            f"t{n}: {t}[{cols}, {rows}] = iota({cols}, {rows}) * 0.25\n"
            f"print(f{n}(x{n}, y{n}))\n"
            f"print(g{n}(t{n}))\n"
            f"print(h{n}(x{n}, y{n}))\n")
print("".join(parts), end="")
