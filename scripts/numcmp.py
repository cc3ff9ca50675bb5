#!/usr/bin/env python3
"""Compare two outputs of Mat programs number by number.

Usage: numcmp.py [--rtol R] [--atol A] FILE_A FILE_B

Both files hold what `print` writes: lines of whitespace-separated numbers in
C %g format (`nan`, `inf`, `-inf` included). They match when they have the
same lines with the same number of tokens, and every pair of numbers a, b
satisfies

    |a - b| <= rtol * max(|a|, |b|) + atol * scale

where `scale` is the largest magnitude in FILE_A (so that a value that is
zero in one output and 1e-17 in the other, after a different summation
order, still matches); nan matches nan, an infinity only the same infinity.
The defaults (rtol 1e-5, atol 1e-9) allow for %g's six significant digits
and for reassociated sums of a few thousand terms in f32.

Exit status: 0 if the files match, 1 if not (the first difference is
printed), 2 on a usage error.
"""

import argparse
import math
import sys


def read_tokens(path):
    with open(path) as f:
        return [line.split() for line in f.read().splitlines()]


def to_number(token):
    try:
        return float(token)
    except ValueError:
        return None


def close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= rtol * max(abs(a), abs(b)) + atol


def compare(lines_a, lines_b, rtol, atol):
    """Returns None if the outputs match, else a message."""
    numbers = [to_number(t) for line in lines_a for t in line]
    finite = [abs(x) for x in numbers if x is not None and math.isfinite(x)]
    scale = max(finite, default=0.0)
    if len(lines_a) != len(lines_b):
        return "%d lines against %d" % (len(lines_a), len(lines_b))
    for row, (la, lb) in enumerate(zip(lines_a, lines_b), start=1):
        if len(la) != len(lb):
            return "line %d: %d values against %d" % (row, len(la), len(lb))
        for col, (ta, tb) in enumerate(zip(la, lb), start=1):
            a, b = to_number(ta), to_number(tb)
            if a is None or b is None:
                if ta != tb:
                    return "line %d, value %d: '%s' against '%s'" % (
                        row, col, ta, tb)
                continue
            if not close(a, b, rtol, atol * scale):
                return "line %d, value %d: %s against %s" % (row, col, ta, tb)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-9)
    parser.add_argument("file_a")
    parser.add_argument("file_b")
    args = parser.parse_args()
    message = compare(read_tokens(args.file_a), read_tokens(args.file_b),
                      args.rtol, args.atol)
    if message:
        print("%s and %s differ: %s" % (args.file_a, args.file_b, message))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
