#!/usr/bin/python3
# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that `matc --emit=signatures` (JSON) and `matc --emit-header`
declare the same C entry points: for each function of the JSON, the header
has the prototype `int SYMBOL(TYPE NAME, ...);` built from its c_args, and
the header declares nothing else (but matc_main when "program" says so).

  check_signatures.py SIGNATURES.json HEADER.h
Prints "N entry points agree" or the first difference (exit status 1).
"""

import json
import re
import sys


def main():
    with open(sys.argv[1]) as f:
        signatures = json.load(f)
    with open(sys.argv[2]) as f:
        header = f.read()
    # Prototypes, each on one line: a declaration ends at ';'.
    code = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    declared = {}
    for m in re.finditer(r"^(int|void) (\w+)\(([^;]*)\);", code, re.M):
        params = [" ".join(p.split()) for p in m.group(3).split(",")]
        declared[m.group(2)] = params
    for fn in signatures["functions"]:
        expected = []
        for arg in fn["c_args"]:
            sep = "" if arg["type"].endswith("*") else " "
            expected.append(arg["type"] + sep + arg["name"])
        got = declared.pop(fn["symbol"], None)
        if got != expected:
            print("%s: header %s, signatures %s" % (fn["symbol"], got, expected))
            return 1
    if signatures["program"]:
        if declared.pop(signatures["program"], None) != ["void"]:
            print("no 'void %s(void)' in the header" % signatures["program"])
            return 1
    if declared:
        print("only in the header: %s" % ", ".join(sorted(declared)))
        return 1
    print("%d entry points agree" % len(signatures["functions"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
