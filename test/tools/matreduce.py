#!/usr/bin/python3
"""matreduce: shrink a failing matgen program while it keeps failing.

  test/tools/matreduce.py --matc build/bin/matc --seed N --opt 2 \\
      [--size normal] [--grep REGEX] [-o reduced.mat]

Without --grep, "failing" means: `matc --run -O0` succeeds and the output
of `matc --run -O<opt>` disagrees with matgen's oracle (for --opt 0, the
-O0 output itself disagrees). With --grep, it means: `matc --run -O<opt>`
exits non-zero (or crashes) with stderr matching REGEX.

Reduction works on matgen's program tree, so the oracle stays available:
it removes statements and functions (ddmin), then replaces operator
nodes by one of their operands, keeping every change that still fails
(changes that make the program ill-typed fail to compile and are dropped).
Prints the reduced program and its expected output.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matgen  # noqa: E402


def evaluate(items):
    """Re-runs the oracle over `items`; returns a Program or None."""
    env, functions = {}, [i for k, i in items if k == "def"]
    ctx = matgen.Ctx(functions)
    try:
        for kind, item in items:
            if kind == "stmt":
                item.run(env, ctx)
    except (KeyError, matgen.GenFailure, ValueError, IndexError,
            AttributeError, TypeError, FloatingPointError):
        return None
    return matgen.Program(items, ctx.out)


class Checker:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.NamedTemporaryFile("w", suffix=".mat", delete=False)
        self.tmp.close()
        self.tries = 0

    def run(self, text, level):
        with open(self.tmp.name, "w") as f:
            f.write(text)
        try:
            return subprocess.run([self.args.matc, self.tmp.name, "--run",
                                   "-O%s" % level], capture_output=True,
                                  text=True, timeout=self.args.timeout,
                                  errors="replace")
        except subprocess.TimeoutExpired:
            return None

    def fails(self, items):
        self.tries += 1
        program = evaluate(items)
        if program is None:
            return False
        text = program.text()
        if self.args.grep:
            p = self.run(text, self.args.opt)
            return p is not None and p.returncode != 0 and \
                re.search(self.args.grep, p.stderr) is not None
        p0 = self.run(text, 0)
        if p0 is None or p0.returncode != 0:
            return False
        if self.args.opt == "0":
            return matgen.compare(program, p0.stdout) is not None
        p = self.run(text, self.args.opt)
        if p is None or p.returncode != 0:
            return False
        return matgen.compare(program, p.stdout) is not None


def ddmin(items, fails):
    """Removes chunks of `items` while `fails(items)` holds."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            cand = items[:start] + items[start + chunk:]
            if cand and fails(cand):
                items, n, reduced = cand, max(n - 1, 2), True
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    return items


def slots(node):
    """(getter, setter) for every expression slot under `node`."""
    out = []

    def add(obj, attr):
        out.append((lambda: getattr(obj, attr),
                    lambda v: setattr(obj, attr, v)))
        walk(getattr(obj, attr))

    def walk(n):
        if isinstance(n, matgen.Bin):
            add(n, "lhs")
            add(n, "rhs")
        elif isinstance(n, (matgen.Neg, matgen.Transpose)):
            add(n, "operand")
        elif isinstance(n, matgen.Call):
            for i in range(len(n.args)):
                out.append(((lambda n=n, i=i: n.args[i]),
                            (lambda v, n=n, i=i: n.args.__setitem__(i, v))))
                walk(n.args[i])
        elif isinstance(n, matgen.Literal):
            for row in n.rows:
                for i in range(len(row)):
                    out.append(((lambda row=row, i=i: row[i]),
                                (lambda v, row=row, i=i: row.__setitem__(i, v))))
                    walk(row[i])
        elif isinstance(n, matgen.Builtin) and n.value is not None:
            add(n, "value")

    walk(node)
    return out


def simplify(items, fails):
    """Replaces operator nodes by one of their operands while it fails."""
    changed = True
    while changed:
        changed = False
        roots = []
        for kind, item in items:
            stmts = item.body if kind == "def" else [item]
            for s in stmts:
                roots.append(s)
        for s in roots:
            for get, put in [(lambda s=s: s.expr,
                              lambda v, s=s: setattr(s, "expr", v))] + \
                    slots(s.expr):
                node = get()
                for repl in replacements(node):
                    put(repl)
                    if fails(items):
                        changed = True
                        break
                    put(node)
    return items


def replacements(node):
    if isinstance(node, matgen.Bin):
        return [node.lhs, node.rhs]
    if isinstance(node, (matgen.Neg, matgen.Transpose)):
        return [node.operand]
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matc", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--size", choices=["small", "normal"], default="normal")
    ap.add_argument("--opt", default="2")
    ap.add_argument("--grep", help="reduce a compile failure matching REGEX")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("-o", "--output", help="write the reduced program here")
    args = ap.parse_args()

    program = matgen.generate(args.seed, args.size)
    checker = Checker(args)
    items = list(program.items)
    if not checker.fails(items):
        print("matreduce: seed %d does not fail" % args.seed, file=sys.stderr)
        return 1
    items = ddmin(items, checker.fails)
    items = simplify(items, checker.fails)
    items = ddmin(items, checker.fails)
    program = evaluate(items)
    text = program.text()
    os.unlink(checker.tmp.name)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    sys.stdout.write(text)
    sys.stdout.write("# expected output:\n")
    for line in matgen.expected_text(program).splitlines():
        sys.stdout.write("# " + line + "\n")
    print("matreduce: %d candidates tried" % checker.tries, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
