#!/usr/bin/env python3
"""Check that optimized code prints what the reference lowering prints.

Usage: check_opt_levels.py --matc PATH [--levels 0,2] [--threads 0,1,2]
                           [--rtol R] [--atol A] FILE_OR_DIR...

Runs every Mat program given (a directory stands for its *.mat files) with
`matc -O<level> --run`: the first level is the reference (-O0, the plain
Linalg -> affine lowering), every other level is run once per thread count
(`--threads N`) and its output compared with the reference by numcmp (same
lines, numbers equal within rtol * max(|a|, |b|) + atol * (largest |value|
of the reference output)). A program that fails to compile or run at the
reference level is skipped (reported, not counted as a failure: the error
tests of the suite live beside the programs); one that fails at an
optimized level only is a failure.

Exit status: 0 if every output matches, 1 otherwise.
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numcmp  # noqa: E402


def mat_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".mat"):
                    yield os.path.join(path, name)
        else:
            yield path


def run(matc, path, level, threads):
    command = [matc, "-O%d" % level, path, "--run"]
    if threads is not None:
        command += ["--threads", str(threads)]
    result = subprocess.run(command, capture_output=True, text=True,
                            timeout=600)
    return result.returncode, result.stdout, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matc", required=True)
    parser.add_argument("--levels", default="0,2")
    parser.add_argument("--threads", default="0,1,2")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-9)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    thread_counts = [int(x) for x in args.threads.split(",")]

    checked = failed = 0
    for path in mat_files(args.paths):
        status, reference, error = run(args.matc, path, levels[0], None)
        if status != 0:
            print("skipped %s: -O%d exits with %d" % (path, levels[0], status))
            continue
        ref_lines = [line.split() for line in reference.splitlines()]
        for level in levels[1:]:
            for threads in thread_counts:
                checked += 1
                what = "%s at -O%d --threads %d" % (path, level, threads)
                status, output, error = run(args.matc, path, level, threads)
                if status != 0:
                    failed += 1
                    print("FAIL %s: exit status %d\n%s" % (what, status, error))
                    continue
                message = numcmp.compare(
                    ref_lines, [line.split() for line in output.splitlines()],
                    args.rtol, args.atol)
                if message:
                    failed += 1
                    print("FAIL %s: %s" % (what, message))
    print("%d runs compared with -O%d, %d differ" % (checked, levels[0],
                                                      failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
