#!/usr/bin/python3
"""matgen: a seeded random generator of well-typed Mat programs, with a
NumPy oracle that computes what every print must show.

  python3 test/tools/matgen.py --seed N              print program N
  python3 test/tools/matgen.py --seed N --expected   print what it must print
                                                     (%g, as matc does)
  python3 test/tools/matgen.py --seed N --size small a shorter program

The same seed (and size) always gives the same program, on any machine:
only Python's own `random.Random(seed)` decides, never numpy's generator.

What a program holds: top-level statements (declared and undeclared
assignments of matrices, typed scalars and plain numbers, rebindings such
as `A = A @ A`, prints of matrices and scalars, discarded expression
statements), and function definitions with matrix and scalar parameters,
`?` dimensions (some shared between parameters), local variables, prints
inside the body, and calls to earlier functions. Expressions mix every
operator (`@ * + -`, unary `-`, `.T`), every builtin (zeros, ones, full,
eye, iota, transpose), matrix literals (one- and two-dimensional, with
numbers or typed scalars as elements, sometimes over several lines),
numbers in every spelling the lexer takes (`1_000`, `.5`, `1.`, `2.5E+1`),
f32 and f64 (never mixed in one expression), shapes 1..40.

The oracle evaluates the generated tree the way Mat defines it: numbers
are "weak" (an expression of numbers only is folded in double precision,
as Python would, and takes the element type of the matrix or typed scalar
it meets); f32 values are computed in float32, f64 in float64; calls and
prints run in source order, arguments and operands left to right.
Alongside every value it carries a magnitude matrix (the same expression
evaluated on absolute values: |a| @ |b|, |a| + |b|, ...), which bounds
how much rounding a different summation order, FMA contraction or
vectorization may change an element. `tolerance()` turns it into the
allowed difference.

Values are kept bounded so that comparisons mean something: numbers are
small integers and short fractions, every assigned matrix is scaled by an
exact power of two when it exceeds 64, and a statement whose intermediate
magnitudes would exceed 1e10 (f64) or 1e7 (f32) is generated again.
"""

import argparse
import math
import os
import random
import sys
from decimal import Decimal

try:
    import numpy as np
except ImportError:  # a python3 without numpy: use Debian's.
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3":
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

F32, F64 = "f32", "f64"
DTYPE = {F32: np.float32, F64: np.float64}

# Tolerances (see tolerance()): printed numbers have 6 significant digits,
# so every comparison allows PRINT_RTOL of the expected value; rounding
# errors are bounded by ROUNDING[elem] times the element's magnitude.
PRINT_RTOL = 1e-5
ROUNDING = {F64: 1e-12, F32: 1e-4}
# A statement whose intermediate magnitudes exceed this is regenerated.
MAG_LIMIT = {F64: 1e10, F32: 1e7}
# Assigned matrices are scaled by a power of two to at most this.
VALUE_LIMIT = 64.0

MAX_DIM = 40


class GenFailure(Exception):
    """The oracle met something the generator should not have produced."""


# ---------------------------------------------------------------------------
# Values.


class Val:
    """A Mat value: kind 'weak' (a plain number: python float), 'scalar'
    (numpy scalar of elem) or 'matrix' (2-D numpy array of elem). `mag`
    bounds the rounding a different evaluation order may introduce
    (a float, or a float64 array for matrices)."""

    __slots__ = ("kind", "elem", "v", "mag")

    def __init__(self, kind, elem, v, mag):
        self.kind, self.elem, self.v, self.mag = kind, elem, v, mag


def weak(x):
    return Val("weak", None, float(x), abs(float(x)))


def materialize(val, elem):
    """A weak number takes the element type `elem`; typed values stay."""
    if val.kind != "weak":
        return val
    x = DTYPE[elem](val.v)
    return Val("scalar", elem, x, abs(float(x)))


# ---------------------------------------------------------------------------
# Expression trees. Each node knows its text (with the parentheses Mat's
# precedence needs) and how to evaluate itself.

PREC_ADD, PREC_MUL, PREC_UNARY, PREC_ATOM = 1, 2, 3, 4


class Ctx:
    """Evaluation context: the outputs printed so far and the largest
    intermediate magnitude seen, per element type."""

    def __init__(self, functions):
        self.functions = functions
        self.out = []
        self.maxmag = {F32: 0.0, F64: 0.0}

    def note(self, val):
        if val.kind == "weak":
            return
        m = float(np.max(val.mag)) if val.kind == "matrix" else float(val.mag)
        v = float(np.max(np.abs(val.v)))
        if not math.isfinite(v):
            m = math.inf
        if m > self.maxmag[val.elem]:
            self.maxmag[val.elem] = m


class Node:
    prec = PREC_ATOM
    paren = False  # redundant parentheses, for variety

    def text(self):
        raise NotImplementedError

    def wrapped(self, minprec):
        t = self.text()
        if self.prec < minprec or self.paren:
            return "(" + t + ")"
        return t


class Num(Node):
    def __init__(self, value, spelling):
        self.value, self.spelling = value, spelling

    def text(self):
        return self.spelling

    def ev(self, env, ctx):
        return weak(self.value)


class Var(Node):
    def __init__(self, name):
        self.name = name

    def text(self):
        return self.name

    def ev(self, env, ctx):
        return env[self.name]


class Neg(Node):
    prec = PREC_UNARY

    def __init__(self, operand):
        self.operand = operand

    def text(self):
        return "-" + self.operand.wrapped(PREC_UNARY)

    def ev(self, env, ctx):
        a = self.operand.ev(env, ctx)
        if a.kind == "weak":
            return weak(-a.v)
        r = Val(a.kind, a.elem, -a.v, a.mag)
        ctx.note(r)
        return r


class Transpose(Node):
    """`x.T`, or `transpose(x)` when `builtin`."""

    def __init__(self, operand, builtin):
        self.operand, self.builtin = operand, builtin

    def text(self):
        if self.builtin:
            return "transpose(" + self.operand.text() + ")"
        return self.operand.wrapped(PREC_ATOM) + ".T"

    def ev(self, env, ctx):
        a = self.operand.ev(env, ctx)
        if a.kind != "matrix":
            raise GenFailure("transpose of a non-matrix")
        return Val("matrix", a.elem, a.v.T.copy(), a.mag.T.copy())


class Bin(Node):
    brk = False  # continue the line with a backslash after the operator

    def __init__(self, op, lhs, rhs):
        self.op, self.lhs, self.rhs = op, lhs, rhs
        self.prec = PREC_ADD if op in "+-" else PREC_MUL

    def text(self):
        return "%s %s%s%s" % (self.lhs.wrapped(self.prec), self.op,
                              " \\\n        " if self.brk else " ",
                              self.rhs.wrapped(self.prec + 1))

    def ev(self, env, ctx):
        a = self.lhs.ev(env, ctx)
        b = self.rhs.ev(env, ctx)
        op = self.op
        if a.kind == "weak" and b.kind == "weak":
            if op == "@":
                raise GenFailure("@ of numbers")
            return weak(a.v + b.v if op == "+" else
                        a.v - b.v if op == "-" else a.v * b.v)
        elem = a.elem or b.elem
        a, b = materialize(a, elem), materialize(b, elem)
        if a.elem != b.elem:
            raise GenFailure("mixed element types")
        if op == "@":
            if a.kind != "matrix" or b.kind != "matrix" or \
                    a.v.shape[1] != b.v.shape[0]:
                raise GenFailure("bad matmul")
            v, m = a.v @ b.v, a.mag @ b.mag
        else:
            if a.kind == "matrix" and b.kind == "matrix" and \
                    a.v.shape != b.v.shape:
                raise GenFailure("elementwise shapes differ")
            if op == "+":
                v, m = a.v + b.v, a.mag + b.mag
            elif op == "-":
                v, m = a.v - b.v, a.mag + b.mag
            else:
                v, m = a.v * b.v, a.mag * b.mag
        kind = "matrix" if "matrix" in (a.kind, b.kind) else "scalar"
        if kind == "scalar":
            v, m = DTYPE[elem](v), float(m)
        else:
            v = np.asarray(v, dtype=DTYPE[elem])
            m = np.asarray(m, dtype=np.float64)
        r = Val(kind, elem, v, m)
        ctx.note(r)
        return r


class Builtin(Node):
    """zeros/ones/iota(m, n), eye(n), full(m, n, value); element type
    `elem` (the one MLIRGen gives it from the context)."""

    def __init__(self, name, elem, rows, cols, value=None, dimtext=None):
        self.name, self.elem, self.rows, self.cols = name, elem, rows, cols
        self.value = value
        self.dimtext = dimtext or (str(rows), str(cols))

    def text(self):
        if self.name == "eye":
            return "eye(%s)" % self.dimtext[0]
        args = list(self.dimtext)
        if self.name == "full":
            args.append(self.value.text())
        return "%s(%s)" % (self.name, ", ".join(args))

    def ev(self, env, ctx):
        dt = DTYPE[self.elem]
        shape = (self.rows, self.cols)
        if self.name == "zeros":
            v = np.zeros(shape, dt)
        elif self.name == "ones":
            v = np.ones(shape, dt)
        elif self.name == "eye":
            v = np.eye(self.rows, dtype=dt)
        elif self.name == "iota":
            v = np.arange(self.rows * self.cols, dtype=np.float64) \
                .reshape(shape).astype(dt)
        else:
            x = materialize(self.value.ev(env, ctx), self.elem)
            if x.elem != self.elem:
                raise GenFailure("full of a mismatched scalar")
            v = np.full(shape, x.v, dt)
            r = Val("matrix", self.elem, v, np.full(shape, x.mag))
            ctx.note(r)
            return r
        return Val("matrix", self.elem, v, np.abs(v).astype(np.float64))


class Literal(Node):
    """`[[a, b], [c, d]]` (or `[a, b]`, one row, when `flat`); elements are
    scalar expressions. `layout` picks where lines break."""

    def __init__(self, rows, elem, flat, multiline):
        self.rows, self.elem, self.flat, self.multiline = rows, elem, flat, multiline

    def text(self):
        rowtexts = ["[" + ", ".join(e.text() for e in row) + "]"
                    for row in self.rows]
        if self.flat:
            return rowtexts[0]
        if self.multiline:
            return "[" + ",\n     ".join(rowtexts) + "]"
        return "[" + ", ".join(rowtexts) + "]"

    def ev(self, env, ctx):
        vals, mags = [], []
        for row in self.rows:
            vr, mr = [], []
            for e in row:
                x = materialize(e.ev(env, ctx), self.elem)
                if x.kind != "scalar" or x.elem != self.elem:
                    raise GenFailure("bad literal element")
                vr.append(x.v)
                mr.append(x.mag)
            vals.append(vr)
            mags.append(mr)
        return Val("matrix", self.elem, np.array(vals, dtype=DTYPE[self.elem]),
                   np.array(mags, dtype=np.float64))


class Call(Node):
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def text(self):
        return "%s(%s)" % (self.fn.name, ", ".join(a.text() for a in self.args))

    def ev(self, env, ctx):
        args = [a.ev(env, ctx) for a in self.args]
        return self.fn.call(args, ctx)


# ---------------------------------------------------------------------------
# Statements and functions.


class Assign:
    def __init__(self, name, declared, expr):
        self.name, self.declared, self.expr = name, declared, expr

    def text(self):
        if self.declared:
            return "%s: %s = %s" % (self.name, self.declared.text(), self.expr.text())
        return "%s = %s" % (self.name, self.expr.text())

    def run(self, env, ctx):
        v = self.expr.ev(env, ctx)
        if self.declared is not None and self.declared.shape is None:
            v = materialize(v, self.declared.elem)
        env[self.name] = v


class Print:
    def __init__(self, expr):
        self.expr = expr

    def text(self):
        return "print(%s)" % self.expr.text()

    def run(self, env, ctx):
        v = materialize(self.expr.ev(env, ctx), F64)
        ctx.out.append(v)


class ExprStmt:
    def __init__(self, expr):
        self.expr = expr

    def text(self):
        return self.expr.text()

    def run(self, env, ctx):
        self.expr.ev(env, ctx)


class Return:
    def __init__(self, expr):
        self.expr = expr

    def text(self):
        return "return " + self.expr.text()


class Type:
    """A declared type: `elem` plus `shape` None (scalar) or (rows, cols),
    each an int or a symbol (a str, written `?`)."""

    def __init__(self, elem, shape):
        self.elem, self.shape = elem, shape

    def text(self):
        if self.shape is None:
            return self.elem
        return "%s[%s]" % (self.elem, ", ".join(
            "?" if isinstance(d, str) else str(d) for d in self.shape))


class Function:
    def __init__(self, name, params, result, body, ret_shape):
        self.name = name
        self.params = params  # [(name, Type)]
        self.result = result  # Type, with symbols where '?' is written
        self.body = body  # [statement], ending with Return
        self.ret_shape = ret_shape  # the true shape returned, in symbols

    indent = "    "

    def text(self):
        params = ", ".join("%s: %s" % (n, t.text()) for n, t in self.params)
        lines = ["def %s(%s) -> %s:" % (self.name, params, self.result.text())]
        for s in self.body:
            lines.extend(layout(s, self.indent))
        return "\n".join(lines)

    def call(self, args, ctx):
        env, binding = {}, {}
        for (name, t), a in zip(self.params, args):
            a = materialize(a, t.elem)
            if a.elem != t.elem:
                raise GenFailure("argument of the wrong element type")
            if t.shape is None:
                if a.kind != "scalar":
                    raise GenFailure("matrix passed as a scalar")
            else:
                if a.kind != "matrix":
                    raise GenFailure("scalar passed as a matrix")
                for d, n in zip(t.shape, a.v.shape):
                    if isinstance(d, str):
                        if binding.setdefault(d, n) != n:
                            raise GenFailure("'?' dimension bound twice")
                    elif d != n:
                        raise GenFailure("argument of the wrong shape")
            env[name] = a
        for s in self.body[:-1]:
            s.run(env, ctx)
        r = self.body[-1].expr.ev(env, ctx)
        if self.result.shape is None:
            r = materialize(r, self.result.elem)
        return r


# ---------------------------------------------------------------------------
# Number spellings.


def spellings(x, rng):
    """Decimal spellings of the non-negative float x that Mat (and Python)
    read back as exactly x."""
    s = repr(float(x))
    d = Decimal(s)
    out = {s}
    if d == d.to_integral_value() and abs(d) < 10**7:
        i = int(d)
        out |= {str(i), "%d." % i, "%d.0" % i}
        if i >= 10:
            t = str(i)
            k = rng.randrange(1, len(t))
            out.add(t[:k] + "_" + t[k:])
    if s.startswith("0."):
        out.add(s[1:])
    sign, digits, exp = d.normalize().as_tuple()
    mant = "".join(map(str, digits))
    e = exp + len(mant) - 1
    sci = mant[0] + ("." + mant[1:] if len(mant) > 1 else "")
    out.add("%se%d" % (sci, e))
    out.add("%sE%+d" % (sci, e))
    out.add("%se%d" % (mant, exp))
    return sorted(out)


# ---------------------------------------------------------------------------
# The generator.


class Sym(str):
    """A '?' dimension of a function, as a symbol."""


class Scope:
    """Names visible in main or in a function body. Each entry: name ->
    (kind, elem, shape) with kind 'weak' | 'scalar' | 'matrix'; shapes of
    main are ints, shapes in a function body may hold symbols."""

    def __init__(self, in_function):
        self.in_function = in_function
        self.vars = {}

    def copy(self):
        s = Scope(self.in_function)
        s.vars = dict(self.vars)
        return s


def is_concrete(shape):
    return all(isinstance(d, int) for d in shape)


class Generator:
    def __init__(self, seed, size):
        self.rng = random.Random(seed)
        self.size = size
        self.functions = []
        self.counter = 0
        self.fuel = 0

    # -- helpers ----------------------------------------------------------

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def chance(self, p):
        return self.rng.random() < p

    def dim(self):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.randint(1, 6)
        if r < 0.85:
            return self.rng.randint(7, 16)
        return self.rng.randint(17, MAX_DIM)

    def number(self, value=None):
        if value is None:
            r = self.rng.random()
            if r < 0.55:
                value = self.rng.randint(0, 6)
            elif r < 0.8:
                value = self.rng.choice([0.5, 0.25, 0.75, 1.5, 2.5, 0.125, 3.5])
            elif r < 0.9:
                value = self.rng.choice([0.1, 0.2, 0.3, 0.01, 1e-3, 0.6])
            else:
                value = self.rng.choice([10, 25, 100, 1000, 0.0625, 1e2])
        sp = self.rng.choice(spellings(value, self.rng))
        assert float(sp.replace("_", "")) == float(value), sp
        return Num(float(value), sp)

    def int_spelling(self, n):
        t = str(n)
        if len(t) > 1 and self.chance(0.5):
            k = self.rng.randrange(1, len(t))
            t = t[:k] + "_" + t[k:]
        return t

    def maybe_paren(self, node):
        if self.chance(0.04):
            node.paren = True
        if isinstance(node, Bin) and self.chance(0.02):
            node.brk = True
        return node

    def decorate(self, stmt):
        """Comments and blank lines around a statement, sometimes."""
        r = self.rng.random()
        if r < 0.05:
            stmt.pre = [""]
        elif r < 0.09:
            stmt.pre = ["# a comment line"]
        elif r < 0.11:
            stmt.pre = ["    # an indented comment line"]
        if self.chance(0.08):
            stmt.comment = self.rng.choice(
                ["a trailing comment", "# twice", "print(1) is commented out",
                 "x = [1, 2"])
        return stmt

    # -- scalars -----------------------------------------------------------

    def gen_weak(self, scope, depth):
        opts = ["num"] * 5
        weaks = [n for n, (k, _, _) in scope.vars.items() if k == "weak"]
        if weaks:
            opts += ["var"] * 2
        if depth > 0:
            opts += ["neg", "bin"]
        choice = self.rng.choice(opts)
        if choice == "num":
            return self.number()
        if choice == "var":
            return Var(self.rng.choice(weaks))
        if choice == "neg":
            return Neg(self.gen_weak(scope, depth - 1))
        op = self.rng.choice("+-*")
        return self.maybe_paren(Bin(op, self.gen_weak(scope, depth - 1),
                                    self.gen_weak(scope, depth - 1)))

    def gen_typed_scalar(self, elem, scope, depth):
        """A scalar expression of type `elem` (not a plain number), or None."""
        self.fuel -= 1
        leaves = [n for n, (k, e, _) in scope.vars.items()
                  if k == "scalar" and e == elem]
        fns = [f for f in self.functions
               if f.result.shape is None and f.result.elem == elem]
        opts = []
        if leaves:
            opts += ["var"] * 4
        if fns and depth > 0 and self.fuel > 0:
            opts += ["call"]
        if depth > 0 and self.fuel > 0:
            opts += ["neg", "binweak", "bintyped"]
        self.rng.shuffle(opts)
        for choice in opts:
            if choice == "var":
                return Var(self.rng.choice(leaves))
            if choice == "call":
                node = self.gen_call(self.rng.choice(fns), None, scope, depth - 1)
                if node:
                    return node
            elif choice == "neg":
                x = self.gen_typed_scalar(elem, scope, depth - 1)
                if x:
                    return Neg(x)
            elif choice == "binweak":
                x = self.gen_typed_scalar(elem, scope, depth - 1)
                if x:
                    w = self.gen_weak(scope, 1)
                    op = self.rng.choice("+-*")
                    if self.chance(0.5):
                        return self.maybe_paren(Bin(op, x, w))
                    return self.maybe_paren(Bin(op, w, x))
            elif choice == "bintyped":
                x = self.gen_typed_scalar(elem, scope, depth - 1)
                y = x and self.gen_typed_scalar(elem, scope, depth - 1)
                if y:
                    return self.maybe_paren(Bin(self.rng.choice("+-*"), x, y))
        return None

    def gen_scalar(self, elem, scope, depth):
        """A number or a typed scalar of `elem`: what `*` with a matrix,
        a literal element or a fill value may be."""
        if self.chance(0.3):
            x = self.gen_typed_scalar(elem, scope, depth)
            if x:
                return x
        return self.gen_weak(scope, min(depth, 1))

    # -- matrices ----------------------------------------------------------

    def can_const(self, elem, hint):
        """Builtins and number-only literals get the hint's element type,
        else f64."""
        return hint == elem or (hint is None and elem == F64)

    def gen(self, elem, shape, hint, scope, depth):
        """A matrix expression of element type `elem` and (true) shape
        `shape`, in a context whose declared element type is `hint`; or None
        when none can be made here."""
        self.fuel -= 1
        r, c = shape
        concrete = is_concrete(shape)
        exact = [n for n, (k, e, s) in scope.vars.items()
                 if k == "matrix" and e == elem and s == (r, c)]
        flipped = [n for n, (k, e, s) in scope.vars.items()
                   if k == "matrix" and e == elem and s == (c, r) and r != c]
        opts = []
        if exact:
            opts += ["var"] * 6
        if flipped:
            opts += ["varT"] * 2
        const = concrete and self.can_const(elem, hint)
        if const:
            opts += ["builtin"] * 3
            if r * c <= 16:
                opts += ["literal"] * 2
        if concrete and hint in (None, elem) and not const:
            opts += ["full_typed", "literal_typed"]
        fns = [f for f in self.functions
               if f.result.shape is not None and f.result.elem == elem]
        if depth > 0 and self.fuel > 0:
            opts += ["neg", "transpose", "elementwise", "elementwise",
                     "scale", "scale", "matmul", "matmul", "matmul"]
            if fns:
                opts += ["call"] * 4
        if self.fuel > 0 and depth <= 0 and not (exact or flipped or const):
            # Ground a shape no leaf has (a '?' dimension, or f32 without a
            # declared type) through a product with what is in scope.
            opts += ["matmul", "transpose", "call"]
            depth = 1
        self.rng.shuffle(opts)
        tried = set()
        for choice in opts:
            if choice in tried:
                continue
            tried.add(choice)
            node = self.gen_option(choice, elem, shape, hint, scope, depth,
                                   exact, flipped, fns)
            if node is not None:
                return node
        return None

    def gen_option(self, choice, elem, shape, hint, scope, depth, exact,
                   flipped, fns):
        r, c = shape
        if choice == "var":
            return Var(self.rng.choice(exact))
        if choice == "varT":
            return Transpose(Var(self.rng.choice(flipped)), self.chance(0.3))
        if choice == "builtin":
            names = ["zeros", "ones", "full", "full", "iota", "iota"]
            if r == c:
                names += ["eye", "eye"]
            name = self.rng.choice(names)
            dimtext = (self.int_spelling(r), self.int_spelling(c)) \
                if self.chance(0.1) else None
            value = self.gen_scalar(elem, scope, 1) if name == "full" else None
            return Builtin(name, elem, r, c, value, dimtext)
        if choice == "literal":
            return self.gen_literal(elem, shape, scope, typed=False)
        if choice == "literal_typed":
            if r * c > 16:
                return None
            return self.gen_literal(elem, shape, scope, typed=True)
        if choice == "full_typed":
            x = self.gen_typed_scalar(elem, scope, 1)
            if x is None:
                return None
            return Builtin("full", elem, r, c, x)
        if choice == "neg":
            x = self.gen(elem, shape, hint, scope, depth - 1)
            return x and Neg(x)
        if choice == "transpose":
            x = self.gen(elem, (c, r), hint, scope, depth - 1)
            return x and Transpose(x, self.chance(0.3))
        if choice == "elementwise":
            x = self.gen(elem, shape, hint, scope, depth - 1)
            y = x and self.gen(elem, shape, hint, scope, depth - 1)
            return y and self.maybe_paren(Bin(self.rng.choice("+-*"), x, y))
        if choice == "scale":
            x = self.gen(elem, shape, hint, scope, depth - 1)
            if x is None:
                return None
            s = self.gen_scalar(elem, scope, 1)
            op = self.rng.choice("+-*")
            if self.chance(0.5):
                return self.maybe_paren(Bin(op, x, s))
            return self.maybe_paren(Bin(op, s, x))
        if choice == "matmul":
            k = self.inner_dim(elem, shape, scope)
            x = self.gen(elem, (r, k), hint, scope, depth - 1)
            y = x and self.gen(elem, (k, c), hint, scope, depth - 1)
            return y and self.maybe_paren(Bin("@", x, y))
        if choice == "call":
            fns = [f for f in self.functions
                   if f.result.shape is not None and f.result.elem == elem]
            if not fns:
                return None
            return self.gen_call(self.rng.choice(fns), shape, scope, depth - 1)
        raise AssertionError(choice)

    def inner_dim(self, elem, shape, scope):
        """The inner dimension of a product making `shape`: often one that
        a variable in scope pairs with a dimension of `shape`."""
        cands = []
        for k, e, s in scope.vars.values():
            if k != "matrix" or e != elem:
                continue
            for a, b in (s, s[::-1]):
                if a == shape[0] or b == shape[1]:
                    cands.append(b if a == shape[0] else a)
        if cands and (self.chance(0.6) or not is_concrete(shape)):
            return self.rng.choice(cands)
        syms = self.symbols(scope)
        if syms and self.chance(0.2):
            return self.rng.choice(syms)
        return self.dim()

    def symbols(self, scope):
        out = set()
        for k, _, s in scope.vars.values():
            if k == "matrix":
                out |= {d for d in s if isinstance(d, str)}
        return sorted(out)

    def gen_literal(self, elem, shape, scope, typed):
        r, c = shape
        flat = r == 1 and self.chance(0.5)
        rows = [[self.gen_weak(scope, 1) if self.chance(0.8) else
                 self.gen_scalar(elem, scope, 1) for _ in range(c)]
                for _ in range(r)]
        if typed:
            x = self.gen_typed_scalar(elem, scope, 1)
            if x is None:
                return None
            rows[self.rng.randrange(r)][self.rng.randrange(c)] = x
        return Literal(rows, elem, flat, r > 1 and self.chance(0.3))

    def gen_call(self, fn, shape, scope, depth):
        """A call of `fn` whose result has true shape `shape` (None: a
        scalar result), or None."""
        binding = {}
        if shape is not None:
            for d, want in zip(fn.ret_shape, shape):
                if isinstance(d, Sym):
                    if binding.setdefault(d, want) != want:
                        return None
                elif d != want:
                    return None
        syms = self.symbols(scope)
        args = []
        for pname, t in fn.params:
            if t.shape is None:
                if t.elem and self.chance(0.5):
                    x = self.gen_typed_scalar(t.elem, scope, depth)
                    args.append(x or self.gen_weak(scope, 1))
                else:
                    args.append(self.gen_weak(scope, 1))
                continue
            dims = []
            for d in t.shape:
                if isinstance(d, Sym):
                    if d not in binding:
                        binding[d] = self.rng.choice(syms) \
                            if syms and self.chance(0.3) else self.dim()
                    dims.append(binding[d])
                else:
                    dims.append(d)
            x = self.gen(t.elem, tuple(dims), t.elem, scope, depth)
            if x is None:
                return None
            args.append(x)
        return Call(fn, args)

    # -- statements ----------------------------------------------------------

    def pick_elem(self):
        return F32 if self.chance(0.3) else F64

    def gen_function(self):
        name = self.fresh("f")
        elem = self.pick_elem()
        scope = Scope(in_function=True)
        params, syms = [], []
        for i in range(self.rng.randint(1, 3)):
            pname = self.rng.choice("abcdxyzuvw") + str(i)
            if self.chance(0.2):
                pelem = elem if self.chance(0.8) else self.pick_elem()
                params.append((pname, Type(pelem, None)))
                scope.vars[pname] = ("scalar", pelem, None)
                continue
            dims = []
            for _ in range(2):
                if self.chance(0.4):
                    if syms and self.chance(0.4):
                        dims.append(self.rng.choice(syms))
                    else:
                        syms.append(Sym("s%d" % len(syms)))
                        dims.append(syms[-1])
                else:
                    dims.append(self.dim())
            pelem = elem if self.chance(0.9) else self.pick_elem()
            params.append((pname, Type(pelem, tuple(dims))))
            scope.vars[pname] = ("matrix", pelem, tuple(dims))
        body = []
        for _ in range(self.rng.randint(0, 3)):
            stmt = self.gen_body_statement(scope)
            if stmt:
                body.append(self.decorate(stmt))
        # The result: a scalar, or a matrix of some shape made of the
        # parameters' dimensions and small integers.
        for _ in range(20):
            self.fuel = 200
            if self.chance(0.12):
                ret = self.gen_typed_scalar(elem, scope, 2) or \
                    self.gen_weak(scope, 1)
                result, ret_shape = Type(elem, None), None
            else:
                dims = [d for _, (k, e, s) in scope.vars.items()
                        if k == "matrix" for d in s]
                pick = lambda: self.rng.choice(dims) if dims and \
                    self.chance(0.7) else self.dim()
                ret_shape = (pick(), pick())
                ret = self.gen(elem, ret_shape, elem, scope, self.rng.randint(1, 3))
                if ret is None:
                    continue
                written = tuple(d if isinstance(d, Sym) or self.chance(0.75)
                                else Sym("r") for d in ret_shape)
                result = Type(elem, written)
            break
        else:
            return None
        body.append(self.decorate(Return(ret)))
        fn = Function(name, params, result, body, ret_shape)
        fn.indent = self.rng.choice(["    ", "    ", "  ", "\t", "        "])
        return fn

    def gen_body_statement(self, scope):
        self.fuel = 200
        r = self.rng.random()
        mats = [(n, e, s) for n, (k, e, s) in scope.vars.items() if k == "matrix"]
        if r < 0.25 and mats:
            n, e, s = self.rng.choice(mats)
            x = self.gen(e, s, None, scope, self.rng.randint(0, 2))
            return Print(x) if x else Print(Var(n))
        if r < 0.35 and mats:
            # Rebind a parameter or local to a value of the same type.
            n, e, s = self.rng.choice(mats)
            x = self.gen(e, s, None, scope, self.rng.randint(1, 2))
            return Assign(n, None, x) if x else None
        dims = [d for _, e, s in mats for d in s]
        shape = tuple(self.rng.choice(dims) if dims and self.chance(0.6)
                      else self.dim() for _ in range(2))
        elem = self.pick_elem()
        name = self.fresh("t")
        if is_concrete(shape) and self.chance(0.5):
            x = self.gen(elem, shape, elem, scope, self.rng.randint(1, 3))
            if x is None:
                return None
            scope.vars[name] = ("matrix", elem, shape)
            return Assign(name, Type(elem, shape), x)
        x = self.gen(elem, shape, None, scope, self.rng.randint(1, 3))
        if x is None:
            return None
        scope.vars[name] = ("matrix", elem, shape)
        return Assign(name, None, x)

    def gen_main_statement(self, scope):
        """One top-level statement (or a few), not yet checked."""
        self.fuel = 300
        r = self.rng.random()
        mats = [(n, e, s) for n, (k, e, s) in scope.vars.items() if k == "matrix"]
        depth = self.rng.randint(1, 4)
        if r < 0.06:
            name = self.fresh("w")
            scope_kind = ("weak", None, None)
            return [Assign(name, None, self.gen_weak(scope, 2))], \
                {name: scope_kind}
        if r < 0.14:
            elem = self.pick_elem()
            name = self.fresh("s")
            x = self.gen_scalar(elem, scope, 2)
            return [Assign(name, Type(elem, None), x)], \
                {name: ("scalar", elem, None)}
        if r < 0.20:
            elem = self.pick_elem()
            x = self.gen_typed_scalar(elem, scope, 2) or self.gen_weak(scope, 2)
            return [Print(x)], {}
        if r < 0.22 and mats:
            # An expression statement: evaluated, discarded.
            _, elem, shape = self.rng.choice(mats)
            x = self.gen(elem, shape, None, scope, depth)
            return ([ExprStmt(x)], {}) if x else None
        if r < 0.25 and self.functions:
            fn = self.rng.choice(self.functions)
            shape = None if fn.result.shape is None else tuple(
                d if isinstance(d, int) else self.dim() for d in fn.ret_shape)
            x = self.gen_call(fn, shape, scope, depth)
            return ([ExprStmt(x)], {}) if x else None
        if r < 0.34 and self.functions:
            # A call at the root of an assignment or a print.
            fn = self.rng.choice(self.functions)
            shape = None if fn.result.shape is None else tuple(
                d if isinstance(d, int) else self.dim() for d in fn.ret_shape)
            x = self.gen_call(fn, shape, scope, depth)
            if x is None:
                return None
            if self.chance(0.3):
                return [Print(x)], {}
            if shape is None:
                name = self.fresh("s")
                return [Assign(name, fn.result, x)], \
                    {name: ("scalar", fn.result.elem, None)}
            name = self.fresh("C")
            declared = Type(fn.result.elem, shape) if self.chance(0.5) else None
            return [Assign(name, declared, x), Print(Var(name))], \
                {name: ("matrix", fn.result.elem, shape)}
        if r < 0.44 and mats:
            # Rebind a name (value semantics: A = A @ A, A = A.T, ...).
            n, e, s = self.rng.choice(mats)
            shape = s if self.chance(0.7) else (s[1], s[0])
            declared = self.chance(0.3)
            x = self.gen(e, shape, e if declared else None, scope, depth)
            if x is None:
                return None
            stmts = [Assign(n, Type(e, shape) if declared else None, x)]
            if self.chance(0.6):
                stmts.append(Print(Var(n)))
            return stmts, {n: ("matrix", e, shape)}
        if r < 0.62:
            elem = self.pick_elem()
            shape = (self.dim(), self.dim())
            name = self.fresh("A" if elem == F64 else "B")
            declared = self.chance(0.6)
            hint = elem if declared else None
            x = self.gen(elem, shape, hint, scope, depth)
            if x is None:
                return None
            stmts = [Assign(name, Type(elem, shape) if declared else None, x)]
            if self.chance(0.5):
                stmts.append(Print(Var(name)))
            return stmts, {name: ("matrix", elem, shape)}
        # print(expr)
        elem = self.pick_elem()
        shape = (self.dim(), self.dim())
        if mats and self.chance(0.6):
            _, elem, shape = self.rng.choice(mats)
            if self.chance(0.3):
                shape = (shape[0], self.dim())
        x = self.gen(elem, shape, None, scope, depth)
        return ([Print(x)], {}) if x else None

    # -- the program ---------------------------------------------------------

    def generate(self):
        nstmts = {"small": (6, 14), "normal": (10, 26)}[self.size]
        nstmts = self.rng.randint(*nstmts)
        nfuncs = self.rng.randint(0, 4 if self.size == "normal" else 2)
        scope = Scope(in_function=False)
        env = {}
        items = []  # ("def", Function) or ("stmt", statement)
        outputs = []
        # A typed scalar of each element type, so that f32 expressions
        # can be built in contexts without a declared type.
        for elem in (F32, F64):
            if self.chance(0.7):
                name = self.fresh("s")
                stmt = Assign(name, Type(elem, None), self.number())
                ctx = Ctx(self.functions)
                stmt.run(env, ctx)
                scope.vars[name] = ("scalar", elem, None)
                items.append(("stmt", stmt))
        produced = 0
        while produced < nstmts:
            if len(self.functions) < nfuncs and \
                    self.chance(0.6 if produced < 3 else 0.2):
                fn = self.gen_function()
                if fn:
                    self.functions.append(fn)
                    items.append(("def", fn))
                continue
            for _attempt in range(25):
                g = self.gen_main_statement(scope)
                if g is None:
                    continue
                stmts, binds = g
                trial = dict(env)
                ctx = Ctx(self.functions)
                try:
                    for s in stmts:
                        s.run(trial, ctx)
                except FloatingPointError:
                    continue
                if any(ctx.maxmag[e] > MAG_LIMIT[e] for e in (F32, F64)):
                    continue
                # Scale big assigned matrices by a power of two.
                first = stmts[0]
                if isinstance(first, Assign):
                    v = trial[first.name]
                    if v.kind == "matrix":
                        top = float(np.max(np.abs(v.v)))
                        if top > VALUE_LIMIT:
                            k = math.ceil(math.log2(top / VALUE_LIMIT))
                            first.expr = Bin("*", first.expr,
                                             self.number(2.0 ** -k))
                            trial = dict(env)
                            ctx = Ctx(self.functions)
                            for s in stmts:
                                s.run(trial, ctx)
                env = trial
                scope.vars.update(binds)
                outputs.extend(ctx.out)
                for s in stmts:
                    items.append(("stmt", self.decorate(s)))
                produced += 1
                break
            else:
                produced += 1
        return Program(items, outputs)


class Program:
    def __init__(self, items, outputs):
        self.items, self.outputs = items, outputs

    def text(self, seed=None, size=None):
        lines = []
        if seed is not None:
            lines.append("# matgen --seed %d --size %s" % (seed, size))
        for kind, item in self.items:
            if kind == "def":
                lines.append(item.text())
                lines.append("")
            else:
                lines.extend(layout(item, ""))
        return "\n".join(lines) + "\n"


def layout(stmt, indent):
    """The lines of a statement at `indent`, with the comments and blank
    lines the generator put around it."""
    lines = []
    for pre in getattr(stmt, "pre", ()):
        lines.append(pre if pre.startswith("#") or not pre else indent + pre)
    text = indent + stmt.text().replace("\n", "\n" + indent)
    if getattr(stmt, "comment", None):
        text += "  # " + stmt.comment
    lines.append(text)
    return lines


def generate(seed, size="normal"):
    """Program number `seed`: returns a Program (text(), outputs)."""
    with np.errstate(over="raise", invalid="raise"):
        return Generator(seed, size).generate()


# ---------------------------------------------------------------------------
# Expected output and comparison.


def out_values(val):
    """(rows of float values, rows of magnitudes, element type) of a print."""
    if val.kind == "scalar":
        return [[float(val.v)]], [[float(val.mag)]], val.elem
    return ([[float(x) for x in row] for row in val.v],
            [[float(x) for x in row] for row in val.mag], val.elem)


def expected_text(program):
    lines = []
    for val in program.outputs:
        rows, _, _ = out_values(val)
        for row in rows:
            lines.append(" ".join("%g" % x for x in row))
    return "\n".join(lines) + ("\n" if lines else "")


def tolerance(expected, mag, elem):
    """How far a printed number may be from the oracle's value: the %g
    rounding of 6 significant digits plus rounding error bounded by the
    magnitude of the terms that made the value."""
    return PRINT_RTOL * abs(expected) + ROUNDING[elem] * mag


def compare(program, stdout):
    """Checks matc's stdout against the oracle. Returns None, or a message
    describing the first disagreement."""
    got = stdout.splitlines()
    i = 0
    for n, val in enumerate(program.outputs):
        rows, mags, elem = out_values(val)
        for r, (row, mrow) in enumerate(zip(rows, mags)):
            where = "print #%d (%s, %dx%d), row %d" % (
                n + 1, elem, len(rows), len(row), r + 1)
            if i >= len(got):
                return "%s: missing (output has %d lines)" % (where, len(got))
            fields = got[i].split(" ")
            i += 1
            if len(fields) != len(row):
                return "%s: %d numbers, expected %d: %r" % (
                    where, len(fields), len(row), got[i - 1][:200])
            for col, (text, exp, mag) in enumerate(zip(fields, row, mrow)):
                try:
                    x = float(text)
                except ValueError:
                    return "%s, column %d: not a number: %r" % (where, col + 1, text)
                tol = tolerance(exp, mag, elem)
                if not abs(x - exp) <= tol:
                    return ("%s, column %d: got %s, expected %.17g "
                            "(tolerance %.3g)" % (where, col + 1, text, exp, tol))
                # Where rounding cannot change the printed digits, the
                # text itself must be C's %g.
                if exp != 0 and "%g" % (exp - tol) == "%g" % (exp + tol) and \
                        text != "%g" % exp:
                    return ("%s, column %d: printed %r, expected %r" % (
                        where, col + 1, text, "%g" % exp))
    if i != len(got):
        return "%d extra output lines, first: %r" % (len(got) - i, got[i][:200])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--size", choices=["small", "normal"], default="normal")
    ap.add_argument("--expected", action="store_true",
                    help="print the oracle's expected output instead")
    args = ap.parse_args()
    program = generate(args.seed, args.size)
    if args.expected:
        sys.stdout.write(expected_text(program))
    else:
        sys.stdout.write(program.text(args.seed, args.size))


if __name__ == "__main__":
    main()
