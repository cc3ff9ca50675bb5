#!/usr/bin/env python3
# Runs `matc` with each command line of CASES and checks the contract of a
# command-line error: exit status 1, nothing on stdout, and every line on
# stderr `matc: error: ...` in matc's words (none of LLVM's option-parser
# phrases). Prints each command line and its errors, for FileCheck.
#
# Usage: command-line.py MATC INPUT.mat
import subprocess
import sys

matc, source = sys.argv[1], sys.argv[2]

CASES = [
    # Unknown options, with the closest one when it is a misspelling.
    ["--bogus"],
    ["-x"],
    ["--emt=mlir"],
    ["--runn"],
    ["--stat"],
    ["--thread", "2"],
    ["--mlir-timingg"],
    # Options that start like a help option are not it (cl took them).
    ["--helpx"],
    ["--help-hiddenx"],
    # Two letters swapped, or another case, count as one edit.
    ["--rnu"],
    ["--Run"],
    # A missing value.
    ["-o"],
    ["--emit"],
    ["--emit="],
    ["-O"],
    ["-O", "--run"],
    ["--target-cpu"],
    # A value of the wrong kind, or not in the option's list.
    ["--emit=foo"],
    ["--emit=lvm"],
    ["--emit=mlri"],
    ["--emit=MLIR"],
    ["-Ofast"],
    ["-Os"],
    ["-O-1"],
    ["--run=yes"],
    ["--mlir-timing-display=foo"],
    # A value where none is taken.
    ["--version=3"],
    # The input file: none, or two.
    ["NO-INPUT"],
    ["EMPTY-NAME"],
    [source, "--run"],
    # --print-target prints and exits: an output asked for too is an error.
    ["--print-target", "--run"],
    ["--print-target", "-c"],
    # ... and so is an input file (regression: it was ignored, a missing
    # one too).
    ["--print-target"],
    # The header and the signatures are the same for every thread count
    # (regression: --threads was ignored silently).
    ["--emit-header", "--threads", "2"],
    ["--emit=signatures", "--threads=1"],
    # Empty target options are errors, not the defaults, and compile
    # threads are capped as --threads is (regressions: all were taken).
    ["-c", "--target-cpu="],
    ["-c", "--target-triple="],
    # Every empty value is worded as a missing one (regression: three
    # wordings).
    ["-c", "--compile-threads="],
    ["-c", "--threads="],
    ["-c", "--compile-threads=99999"],
    # Several errors: each is said.
    ["--bogus", "--emit=x"],
]

LLVM_WORDS = ["for the ", "Cannot find option", "Unknown command line",
              "Try:", "positional", "value invalid", "invalid value",
              "requires a value", "does not allow", "Did you mean"]

failed = False
for args in CASES:
    argv = [matc] + ([] if args == ["NO-INPUT"] else
                     [""] if args == ["EMPTY-NAME"] else [source] + args)
    shown = " ".join(a if a else "''" for a in argv[1:]).replace(source,
                                                                 "INPUT")
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True)
    print(("$ matc " + shown).rstrip())
    sys.stdout.write(p.stderr)
    problems = []
    if p.returncode != 1:
        problems.append("exit status %d, not 1" % p.returncode)
    if p.stdout:
        problems.append("stdout is not empty: %r" % p.stdout[:200])
    lines = p.stderr.splitlines()
    if not lines:
        problems.append("no error on stderr")
    for line in lines:
        if not line.startswith("matc: error: "):
            problems.append("not a matc error: %r" % line)
        for words in LLVM_WORDS:
            if words in line:
                problems.append("LLVM's words (%r): %r" % (words, line))
    for problem in problems:
        print("PROBLEM: " + problem)
        failed = True

# --help, --help-hidden and --version print to stdout, nothing to stderr,
# and exit 0.
for flag in ["--help", "--help-hidden", "--version"]:
    p = subprocess.run([matc, flag], capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout or p.stderr:
        print("PROBLEM: %s: status %d, stdout %d bytes, stderr %r" %
              (flag, p.returncode, len(p.stdout), p.stderr[:200]))
        failed = True
    else:
        print("%s: %d lines on stdout" % (flag, len(p.stdout.splitlines())))

sys.exit(1 if failed else 0)
