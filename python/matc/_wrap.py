# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Python callables for the C entry points a signatures JSON describes.

Each Mat function becomes one Python function, generated at load time from
its signature (`make_function`): the code checks the arguments with a few
attribute reads on the fast path (a C-contiguous, aligned 2-D ndarray of
the right dtype; a Python float), converts or rejects anything else in
helpers, checks every shape relation the C entry point would check (and
that no matrix the call computes can be larger than the machine's memory)
before calling it through ctypes, with the GIL released. So the entry point
never returns its status 1, and never runs out of memory on a size that
could not fit: the generated code would print an error and exit the
process then (docs/c-interop.md), which must not happen to an interpreter.
"""

import ctypes
import decimal
import keyword
import math
import numbers
import os
import sys
import textwrap

import numpy as np

from . import _pool

_DTYPES = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}
_CTYPES = {"f32": ctypes.c_float, "f64": ctypes.c_double}
#: NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED, as ndarray.flags.num has them.
_C_ALIGNED = 0x1 | 0x100


def _data_offset():
    """The offset of the data pointer in a CPython ndarray object (right
    after the object header: 16 on 64-bit CPython, PyArrayObject_fields in
    numpy/ndarraytypes.h), checked on three arrays; None elsewhere (then
    the code reads __array_interface__, about 0.5 us slower per array)."""
    if sys.implementation.name != "cpython" or ctypes.sizeof(
            ctypes.c_void_p) != 8:
        return None
    probes = [np.empty(3), np.empty((4, 4), np.float32)[1:, 2:],
              np.empty((2, 5))[:, 3]]
    expected = [p.__array_interface__["data"][0] for p in probes]
    for offset in range(8, 65, 8):
        if all(ctypes.c_void_p.from_address(id(p) + offset).value == e
               for p, e in zip(probes, expected)):
            return offset
    return None


_OFFSET = _data_offset()


def _pointer(var):
    """Python expression: the address of the data of ndarray `var`."""
    if _OFFSET is None:
        return "%s.__array_interface__['data'][0]" % var
    return "_m_vp(_m_id(%s) + %d).value" % (var, _OFFSET)


def memory_limit():
    """Bytes no set of matrices of one call may exceed: physical memory
    plus swap (a single malloc above that fails under Linux's default
    overcommit heuristic), or the address-space limit if lower."""
    total = 0
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith(("MemTotal:", "SwapTotal:")):
                    total += int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        total = 0
    if total <= 0:
        try:
            total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, AttributeError):
            total = 1 << 62
    try:
        import resource
        for which in (resource.RLIMIT_AS, resource.RLIMIT_DATA):
            soft = resource.getrlimit(which)[0]
            if soft != resource.RLIM_INFINITY and soft > 0:
                total = min(total, soft)
    except (ImportError, OSError, ValueError, AttributeError):
        pass
    return total


#: Memory of large results, shared by every function of every module.
RESULT_POOL = _pool.ResultPool(
    min(_pool.DEFAULT_CAPACITY, memory_limit() // 16))


class SignatureError(Exception):
    """The signatures JSON is not what this package understands."""


def check_signatures(signatures):
    """Checks what make_function assumes of the whole file: status 0 is
    success."""
    status = signatures.get("status")
    _need(isinstance(status, dict) and status.get("ok") == 0,
          "status.ok is not 0")


def _need(condition, what):
    if not condition:
        raise SignatureError("malformed signatures: " + what)


def _shape_text(shape):
    """`(2, 3)`, `(?, 3)`, `(3,)`: a shape as NumPy prints one."""
    items = [str(s) for s in shape]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


_DTYPE_KIND_TEXT = {"U": "str", "S": "bytes"}


def _dtype_text(dtype):
    """A dtype as a user wrote its elements: `str` and `bytes` (not NumPy's
    `<U21`, `|S3`), else NumPy's name (`bool`, `object`, `complex128`)."""
    return _DTYPE_KIND_TEXT.get(dtype.kind, dtype.name)


def _never_mix(dtype):
    """The hint closing every message about the other float type."""
    return ("(element types never mix: convert it with .astype(numpy.%s))"
            % dtype.name)


def _mixed_element(seq, dtype):
    """The first element of the nested lists and tuples `seq` that NumPy's
    conversion would mix into an array of `dtype` silently: a bool, None
    (a NaN), or a NumPy array or scalar of another floating type (Python numbers and
    NumPy integers take the parameter's type, as numbers do in Mat).
    Returns the message's clause, `must be an array of float64, got a list
    holding float32 (...)`, or None. Walks `seq` in Python: a list is
    converted element by element by NumPy anyway."""
    stack = [seq]
    while stack:
        for item in stack.pop():
            if isinstance(item, (list, tuple)):
                stack.append(item)
            elif isinstance(item, (bool, np.bool_)):
                return "must be an array of real numbers, got a list holding bool"
            elif item is None:
                # NumPy's conversion to a float type makes None a NaN.
                return "must be an array of real numbers, got a list holding None"
            elif isinstance(item, (np.ndarray, np.generic)):
                kind = item.dtype.kind
                if kind == "f" and item.dtype.itemsize != dtype.itemsize:
                    return ("must be an array of %s, got a list holding %s %s"
                            % (dtype.name, item.dtype.name, _never_mix(dtype)))
                if kind not in "iuf":
                    return ("must be an array of real numbers, got a list "
                            "holding %s" % _dtype_text(item.dtype))
    return None


def _non_number(seq):
    """The first element of the nested lists and tuples `seq` that is not
    a real number, named by its type (`str`, `dict`, `complex`; a NumPy
    scalar or array by its dtype), or None."""
    stack = [seq]
    while stack:
        for item in stack.pop():
            if isinstance(item, (list, tuple)):
                stack.append(item)
            elif isinstance(item, (np.ndarray, np.generic)):
                if item.dtype.kind not in "iuf":
                    return _dtype_text(item.dtype)
            elif not isinstance(item, numbers.Real) or isinstance(item, bool):
                return _type_name(item)
    return None


def _held_type(seq, dtype):
    """What the nested lists and tuples `seq`, which NumPy made an array of
    `dtype` (not a real number type), hold that is not a number:
    _non_number(seq), else _dtype_text(dtype)."""
    return _non_number(seq) or _dtype_text(dtype)


def _to_float(x):
    """float(x) of a real number `x`, or None for a finite one beyond
    float64: float() raises for an int or a Fraction, and makes a Decimal
    an infinity. Raises ValueError as float() does (Decimal('sNaN'))."""
    try:
        value = float(x)
    except OverflowError:
        return None
    if (isinstance(x, decimal.Decimal) and x.is_finite() and
            not math.isfinite(value)):
        return None
    return value


def _number_text(x):
    """How an error names the number `x`: an int by its size (its digits
    may be thousands), anything else by its repr."""
    if isinstance(x, numbers.Integral):
        return "an int of %d bits" % abs(int(x)).bit_length()
    return repr(x)


def _beyond_float64(objects):
    """How to name the first element of the object array `objects` beyond
    float64 (_to_float), or None if there is none."""
    for element in objects.flat:
        try:
            if _to_float(element) is None:
                return _number_text(element)
        except (TypeError, ValueError):
            pass
    return None


def _type_name(x):
    t = type(x)
    return t.__name__ if t.__module__ == "builtins" else "%s.%s" % (
        t.__module__, t.__qualname__)


class _Spec:
    """One Mat function's signature, checked, with the texts its messages
    and its documentation use."""

    def __init__(self, fn, source_name):
        _need(isinstance(fn, dict), "a function is not an object")
        self.raw = fn
        self.name = fn.get("name")
        self.symbol = fn.get("symbol")
        self.signature = fn.get("signature")
        _need(isinstance(self.name, str) and isinstance(self.symbol, str) and
              isinstance(self.signature, str), "name, symbol or signature")
        self.source_name = source_name
        self.params = fn.get("params")
        self.result = fn.get("result")
        _need(isinstance(self.params, list), "params of " + self.name)
        for value in self.params + [self.result]:
            self._check_value(value)
        self.c_args = fn.get("c_args")
        _need(isinstance(self.c_args, list), "c_args of " + self.name)
        for arg in self.c_args:
            self._check_c_arg(arg)
        # The C convention (docs/c-interop.md): each parameter's pointer or
        # value and its `?` sizes, then the result's.
        expected = []
        for p, value in enumerate(self.params + [self.result]):
            p = "result" if p == len(self.params) else p
            if value["kind"] == "scalar" and p != "result":
                expected.append(("scalar", p, None))
                continue
            expected.append(("pointer", p, None))
            if value["kind"] == "matrix":
                expected += [("size", p, d) for d in (0, 1)
                             if value["shape"][d] == "?"]
        _need([(a["kind"], a["param"], a.get("dim")) for a in self.c_args] ==
              expected, "the C arguments of %s are not those of its "
              "parameters" % self.name)
        self.preconditions = fn.get("preconditions")
        _need(isinstance(self.preconditions, list),
              "preconditions of " + self.name)
        for pre in self.preconditions:
            _need(isinstance(pre, dict), "a precondition of " + self.name)
            self._check_size(pre.get("lhs"))
            self._check_size(pre.get("rhs"))
        self.temporaries = fn.get("temporaries")
        if self.temporaries is not None:
            _need(isinstance(self.temporaries, list), "temporaries")
            for shape in self.temporaries:
                _need(isinstance(shape, list) and len(shape) == 2,
                      "a temporary of " + self.name)
                for size in shape:
                    self._check_size(size)
        if self.result["kind"] == "matrix":
            dims = self.result.get("dims")
            _need(isinstance(dims, list) and len(dims) == 2,
                  "result dims of " + self.name)
            for size in dims:
                self._check_size(size)

    def _check_value(self, value):
        _need(isinstance(value, dict), "a parameter of " + self.name)
        _need(value.get("kind") in ("matrix", "scalar") and
              value.get("dtype") in _DTYPES, "kind or dtype in " + self.name)
        if value["kind"] == "matrix":
            shape = value.get("shape")
            _need(isinstance(shape, list) and len(shape) == 2 and
                  all(s == "?" or (type(s) is int and s >= 1) for s in shape),
                  "a shape in " + self.name)

    def _check_size(self, size):
        if type(size) is int:
            _need(size >= 1, "a size below 1 in " + self.name)
            return
        _need(isinstance(size, dict), "a size in " + self.name)
        p, d = size.get("param"), size.get("dim")
        _need(type(p) is int and 0 <= p < len(self.params) and
              self.params[p]["kind"] == "matrix" and d in (0, 1) and
              self.params[p]["shape"][d] == "?",
              "a size of no '?' dimension in " + self.name)

    def _check_c_arg(self, arg):
        _need(isinstance(arg, dict) and
              arg.get("kind") in ("pointer", "scalar", "size"),
              "a C argument of " + self.name)
        p = arg.get("param")
        value = self.result if p == "result" else (
            self.params[p] if type(p) is int and 0 <= p < len(self.params)
            else None)
        _need(value is not None, "a C argument of no parameter")
        if arg["kind"] == "size":
            _need(arg.get("dim") in (0, 1) and value["kind"] == "matrix" and
                  value["shape"][arg["dim"]] == "?",
                  "a size argument of no '?' dimension")
        elif arg["kind"] == "scalar":
            _need(p != "result" and value["kind"] == "scalar",
                  "a scalar argument of a matrix")
        else:
            _need(p == "result" or value["kind"] == "matrix",
                  "a pointer argument of a scalar")

    # Texts.

    def param_name(self, p):
        return self.params[p].get("name") or "arg%d" % p

    def mat_type(self, value):
        if value["kind"] == "scalar":
            return value["dtype"]
        return "%s[%s]" % (value["dtype"],
                           ", ".join(str(s) for s in value["shape"]))

    def size_text(self, size):
        """`a.shape[1]` or `3`."""
        if type(size) is int:
            return str(size)
        return "%s.shape[%d]" % (self.param_name(size["param"]),
                                 size["dim"])

    def where(self, pre):
        """`line 2, column 14 of <string>`, or "" without a position."""
        line, column = pre.get("line"), pre.get("column")
        if type(line) is not int or line <= 0:
            return ""
        return " (line %d, column %d of %s)" % (line, column,
                                                 self.source_name)

    def result_shape_text(self):
        return _shape_text(self.size_text(d) for d in self.result["dims"])


class _Messages:
    """The cold paths of one generated function: conversions of anything
    but the fast-path types, and the exceptions, each saying what was
    expected and what was given."""

    def __init__(self, spec, limit):
        self.spec = spec
        self.prefix = spec.name + "(): "
        #: memory_limit(), bytes.
        self.limit = limit

    def matrix_converter(self, p):
        spec, prefix = self.spec, self.prefix
        value = spec.params[p]
        dtype = _DTYPES[value["dtype"]]
        what = "%s (Mat %s)" % (spec.param_name(p), spec.mat_type(value))

        def out_of_range(given):
            return OverflowError("%s%s must hold numbers within the range of "
                                 "%s, got %s in a list"
                                 % (prefix, what, dtype.name, given))

        def convert(x):
            if isinstance(x, (bool, numbers.Number, str, bytes)) or x is None:
                raise TypeError("%s%s must be a 2-D array of %s, got %s %r"
                                % (prefix, what, dtype.name, _type_name(x),
                                   x))
            weak = isinstance(x, (list, tuple))
            mixed = _mixed_element(x, dtype) if weak else None
            if mixed:
                raise TypeError("%s%s %s" % (prefix, what, mixed))
            try:
                arr = np.asarray(x)
            except (ValueError, TypeError) as e:
                # NumPy's own texts speak of setting an array element with
                # a sequence: say what is wrong with the list instead.
                held = _non_number(x) if weak else None
                if held:
                    raise TypeError("%s%s must be an array of real numbers, "
                                    "got a list holding %s"
                                    % (prefix, what, held)) from None
                if weak and "maximum number of dimension" in str(e):
                    raise ValueError("%s%s must be a 2-D array of %s, got a "
                                     "list nested more than 32 deep"
                                     % (prefix, what, dtype.name)) from None
                if weak and "inhomogeneous" in str(e):
                    raise ValueError("%s%s must be a 2-D array of %s, got a "
                                     "ragged list (its rows differ in "
                                     "length or depth)"
                                     % (prefix, what, dtype.name)) from None
                raise type(e)("%s%s: %s" % (prefix, what, e)) from None
            kind = arr.dtype.kind
            if kind == "O" and arr.ndim == 0:
                # Not a sequence of numbers: NumPy only wraps the object.
                raise TypeError("%s%s must be a 2-D array of %s, got %s %r"
                                % (prefix, what, dtype.name, _type_name(x),
                                   x))
            if weak and kind == "O" and arr.ndim > 0:
                # Python ints beyond int64 (2**70), Decimals and Fractions
                # stay objects in NumPy's conversion; as numbers they are
                # floats. A finite one beyond float64 is an OverflowError,
                # named as for a scalar: float() raises for an int or a
                # Fraction, and makes a Decimal an infinity.
                objects = arr
                try:
                    arr = np.asarray(x, dtype=np.float64)
                    overflow = np.isinf(arr).any()
                except OverflowError:
                    overflow = True
                except (TypeError, ValueError):
                    overflow = False
                if overflow:
                    beyond = _beyond_float64(objects)
                    if beyond is not None:
                        raise out_of_range(beyond) from None
                kind = arr.dtype.kind
            if weak and kind in "iuf":
                # Python numbers take the parameter's element type, and a
                # flat list is a row, as numbers and literals are in Mat.
                if arr.ndim == 1:
                    arr = arr.reshape(1, -1)
                # A finite number the narrowing to float32 would make an
                # infinity is an OverflowError, as for a scalar parameter.
                if dtype.itemsize == 4:
                    with np.errstate(over="ignore"):
                        beyond = (np.isinf(arr.astype(dtype)) &
                                  np.isfinite(arr))
                    if beyond.any():
                        # repr: as many digits as tell the number apart
                        # from float32's largest, 3.4028235e+38.
                        raise out_of_range(repr(float(arr[beyond][0])))
            elif kind not in "iuf":
                raise TypeError("%s%s must be an array of real numbers, got "
                                "%s" % (prefix, what,
                                        "a list holding " +
                                        _held_type(x, arr.dtype) if weak
                                        else "an array of " +
                                        _dtype_text(arr.dtype)))
            elif not (kind == "f" and arr.dtype.itemsize == dtype.itemsize):
                raise TypeError("%s%s must be an array of %s, got an array of "
                                "%s %s" % (prefix, what, dtype.name,
                                           arr.dtype, _never_mix(dtype)))
            if arr.ndim != 2:
                raise ValueError("%s%s must be a 2-D array, got a %d-D array "
                                 "of shape %s" % (prefix, what, arr.ndim,
                                                  _shape_text(arr.shape)))
            # Not copied yet: the caller checks the shapes first (a strided
            # view may stand for far more memory than it takes), then
            # copies what is not C-contiguous and aligned, or holds other
            # numbers (a list, the other byte order).
            return arr

        return convert

    def scalar_converter(self, p):
        spec, prefix = self.spec, self.prefix
        value = spec.params[p]
        dtype = _DTYPES[value["dtype"]]
        what = "%s (Mat %s)" % (spec.param_name(p), value["dtype"])

        def convert(x):
            if isinstance(x, (bool, np.bool_)):
                raise TypeError("%s%s must be a number, got %s"
                                % (prefix, what, _type_name(x)))
            if isinstance(x, (np.generic, np.ndarray)):
                arr = np.asarray(x)
                if arr.ndim != 0:
                    raise TypeError("%s%s must be a number, got an array of "
                                    "shape %s" % (prefix, what,
                                                  _shape_text(arr.shape)))
                kind = arr.dtype.kind
                if kind in "iu" or (kind == "f" and
                                    arr.dtype.itemsize == dtype.itemsize):
                    return float(arr)
                if kind == "f":
                    raise TypeError(
                        "%s%s must be a Python number or a numpy.%s, got a "
                        "numpy.%s (element types never mix)"
                        % (prefix, what, dtype.name, arr.dtype.name))
                raise TypeError("%s%s must be a real number, got %s"
                                % (prefix, what, arr.dtype))
            if isinstance(x, (numbers.Real, decimal.Decimal)):
                # A finite number beyond the element type's range (a Python
                # int beyond float64, float() raises; a Decimal beyond it,
                # float() makes it an infinity; a number beyond float32, the
                # narrowing would) is an OverflowError, as the compiler
                # rejects `x: f32 = 1e39`. A Decimal is taken as in a list
                # argument (np.asarray converts it).
                try:
                    value = _to_float(x)
                except ValueError:
                    # Decimal('sNaN'): float() refuses a signaling NaN.
                    raise ValueError("%s%s must be a number a float can "
                                     "hold, got %r" % (prefix, what, x)) \
                        from None
                if value is not None:
                    with np.errstate(over="ignore"):
                        if not math.isfinite(value) or \
                                np.isfinite(dtype.type(value)):
                            return value
                given = (_number_text(x) if value is None or
                         isinstance(x, numbers.Integral) else repr(value))
                raise OverflowError(
                    "%s%s must be a number within the range of %s, got %s"
                    % (prefix, what, dtype.name, given))
            raise TypeError("%s%s must be a number, got %s"
                            % (prefix, what, _type_name(x)))

        return convert

    def bad_shape(self, *arrays):
        """Raises the ValueError of the first matrix argument whose shape
        breaks its declared type or has a size below 1."""
        spec, prefix = self.spec, self.prefix
        matrices = [p for p, v in enumerate(spec.params)
                    if v["kind"] == "matrix"]
        for p, arr in zip(matrices, arrays):
            value = spec.params[p]
            declared = value["shape"]
            what = "%s (Mat %s)" % (spec.param_name(p), spec.mat_type(value))
            if any(s != "?" and s != n for s, n in zip(declared, arr.shape)):
                raise ValueError("%s%s must have shape %s, got %s"
                                 % (prefix, what, _shape_text(declared),
                                    _shape_text(arr.shape)))
            if min(arr.shape) < 1:
                raise ValueError("%s%s has shape %s: a Mat matrix has at "
                                 "least one row and one column"
                                 % (prefix, what, _shape_text(arr.shape)))
        raise AssertionError("matc: no shape is wrong")

    def bad_precondition(self, shapes):
        """Raises the ValueError of the first precondition `shapes` (the
        matrix arguments' shapes, by parameter; None for scalars) break."""
        spec, prefix = self.spec, self.prefix

        def size(s):
            return s if type(s) is int else shapes[s["param"]][s["dim"]]

        for pre in spec.preconditions:
            lhs, rhs = size(pre["lhs"]), size(pre["rhs"])
            if lhs == rhs:
                continue
            note = pre.get("note")
            why = ": %s%s" % (note, spec.where(pre)) if note else ""
            if type(pre["rhs"]) is int or type(pre["lhs"]) is int:
                var, fixed = ((pre["lhs"], pre["rhs"]) if type(pre["rhs"])
                              is int else (pre["rhs"], pre["lhs"]))
                raise ValueError("%s%s must be %d, got %d%s"
                                 % (prefix, spec.size_text(var), fixed,
                                    size(var), why))
            raise ValueError("%s%s (%d) must equal %s (%d)%s"
                             % (prefix, spec.size_text(pre["lhs"]), lhs,
                                spec.size_text(pre["rhs"]), rhs, why))
        raise AssertionError("matc: no precondition is broken")

    def no_memory(self, shapes, itemsize, limit):
        """Raises the MemoryError of the first matrix the call would
        compute that is larger than `limit` bytes, given the argument
        `shapes` (as for bad_precondition)."""
        spec = self.spec

        def size(s):
            return s if type(s) is int else shapes[s["param"]][s["dim"]]

        temporaries = list(spec.temporaries)
        if spec.result["kind"] == "matrix":
            temporaries.append(spec.result["dims"])
        for rows, cols in temporaries:
            r, c = size(rows), size(cols)
            if r * c * itemsize > limit:
                raise MemoryError(
                    "%sthis call would compute a %d x %d matrix (%d bytes), "
                    "more than this machine's memory and swap (%d bytes)"
                    % (self.prefix, r, c, r * c * itemsize, limit))
        raise AssertionError("matc: no matrix is too large")

    def check_copies(self, arrays, shapes, result_allocated):
        """Raises a MemoryError when the C-order copies `arrays` (the matrix
        arguments, in order) need, together with the matrices the call
        computes (its temporaries, and its result when
        `result_allocated`), more bytes than memory_limit(). `shapes` as
        for bad_precondition."""
        spec, limit = self.spec, self.limit
        copied = []
        total = 0
        for p, x in zip((p for p, v in enumerate(spec.params)
                         if v["kind"] == "matrix"), arrays):
            dtype = _DTYPES[spec.params[p]["dtype"]]
            if x.dtype is not dtype or not (x.flags.c_contiguous and
                                            x.flags.aligned):
                copied.append("%s (%d x %d)" % (spec.param_name(p),
                                                x.shape[0], x.shape[1]))
                total += x.size * dtype.itemsize
        if not copied:
            return

        def size(s):
            return s if type(s) is int else shapes[s["param"]][s["dim"]]

        computed = list(spec.temporaries or [])
        if result_allocated and spec.result["kind"] == "matrix":
            computed.append(spec.result["dims"])
        itemsize = _DTYPES[spec.result["dtype"]].itemsize
        for rows, cols in computed:
            total += size(rows) * size(cols) * itemsize
        if total > limit:
            raise MemoryError(
                "%sthis call would copy %s to C order and compute %d "
                "matrices: %d bytes in all, more than this machine's memory "
                "and swap (%d bytes)" % (self.prefix, " and ".join(copied),
                                         len(computed), total, limit))

    def check_out(self, out, shape):
        spec, prefix = self.spec, self.prefix
        dtype = _DTYPES[spec.result["dtype"]]
        if not isinstance(out, np.ndarray):
            raise TypeError("%sout must be a numpy.ndarray of %s and shape "
                            "%s, got %s" % (prefix, dtype.name,
                                            _shape_text(shape),
                                            _type_name(out)))
        if out.dtype != dtype:
            raise TypeError("%sout must be an array of %s, got an array of %s"
                            % (prefix, dtype.name, out.dtype))
        if out.shape != shape:
            raise ValueError("%sout must have shape %s, got %s"
                             % (prefix, _shape_text(shape),
                                _shape_text(out.shape)))
        if not out.flags.c_contiguous:
            raise ValueError("%sout must be C-contiguous, got a %s"
                             % (prefix, "Fortran-order array"
                                if out.flags.f_contiguous else "strided view"))
        if not out.flags.aligned:
            raise ValueError("%sout must be aligned to its element size (%d "
                             "bytes), got an array at address %#x"
                             % (prefix, out.itemsize, out.ctypes.data))
        if not out.flags.writeable:
            raise ValueError("%sout is read-only" % prefix)
        return out

    def out_of_scalar(self, out):
        raise TypeError("%sout= is for matrix results; the result of %s is a "
                        "scalar" % (self.prefix, self.spec.signature))

    def status(self, status):
        raise RuntimeError(
            "%s%s returned %d although its arguments were checked: a bug of "
            "matc or of its Python package" % (self.prefix, self.spec.symbol,
                                               status))


def _python_names(spec):
    """The Python parameter names, and whether they are positional-only:
    the Mat names when all of them can be keywords (identifiers, not
    Python keywords, not `out`, not ours); otherwise positional-only
    parameters that keep each Mat name Python allows (`out` becomes `out_`,
    so that Python's own TypeErrors, such as a missing argument, name
    them as the signature does), and `_m_argN` for the others."""
    names = [v.get("name") for v in spec.params]

    def usable(n):
        return (isinstance(n, str) and n.isidentifier() and
                not keyword.iskeyword(n) and n != "out" and
                not n.startswith("_m_"))

    if all(usable(n) for n in names) and len(set(names)) == len(names):
        return names, False
    chosen = []
    for p, n in enumerate(names):
        for candidate in (n, n + "_" if isinstance(n, str) else None):
            if usable(candidate) and candidate not in names[p + 1:] and \
                    candidate not in chosen:
                break
        else:
            candidate = "_m_arg%d" % p
        chosen.append(candidate)
    return chosen, True


def _doc(spec):
    """The docstring: the Mat signature, then shapes, dtypes and errors."""
    lines = [spec.signature, "",
             "Mat function %s of %s, compiled by matc (C entry point %s)."
             % (spec.name, spec.source_name, spec.symbol), ""]
    lines.append("Arguments:")
    if not spec.params:
        lines.append("  none")
    for p, value in enumerate(spec.params):
        dtype = _DTYPES[value["dtype"]].name
        if value["kind"] == "scalar":
            lines.append("  %s: a Python number or a numpy.%s (Mat %s)"
                         % (spec.param_name(p), dtype, value["dtype"]))
        else:
            lines.append("  %s: an array of %s of shape %s (Mat %s)"
                         % (spec.param_name(p), dtype,
                            _shape_text(value["shape"]),
                            spec.mat_type(value)))
    result = spec.result
    dtype = _DTYPES[result["dtype"]].name
    lines += ["", "Returns:"]
    if result["kind"] == "scalar":
        lines.append("  a numpy.%s (Mat %s)" % (dtype, result["dtype"]))
    else:
        lines.append("  a new C-order array of %s of shape %s (Mat %s), or "
                     "out= (C-contiguous, writable, %s, that shape), "
                     "written and returned"
                     % (dtype, spec.result_shape_text(),
                        spec.mat_type(result), dtype))
    sizes = any(v["kind"] == "matrix" and "?" in v["shape"]
                for v in spec.params)
    if sizes or spec.preconditions:
        lines += ["", "Shapes, checked before anything is computed:"]
        if sizes:
            lines.append("  every ? size is at least 1")
        for pre in spec.preconditions:
            note = pre.get("note")
            lines.append("  %s == %s%s" % (
                spec.size_text(pre["lhs"]), spec.size_text(pre["rhs"]),
                ": %s%s" % (note, spec.where(pre)) if note else ""))
    lines += [
        "",
        "An argument may be anything numpy.asarray accepts: C-contiguous "
        "arrays of the element type are passed without a copy, other "
        "layouts (Fortran order, strided or transposed views) are copied "
        "to C order; lists of Python numbers take the element type (a flat "
        "list is a 1 x N row). The GIL "
        "is released during the call.",
        "",
        "Raises:",
        "  TypeError: a wrong number of arguments, a non-numeric argument, "
        "or an array of the other element type (float32 and float64 never "
        "mix)",
        "  ValueError: shapes that break the signature",
        "  MemoryError: matrices that cannot fit in this machine's memory",
    ]
    wrapped = []
    for line in lines:
        indent = "    " if line.startswith("  ") else ""
        wrapped.append(textwrap.fill(line, 76, subsequent_indent=indent,
                                     break_long_words=False,
                                     break_on_hyphens=False) if line else "")
    return "\n".join(wrapped)


def make_function(fn, lib, source_name, module_name, limit):
    """The Python function calling entry point `fn` (one entry of the
    signatures' "functions") of the ctypes library `lib`. `limit` is
    memory_limit(). Raises SignatureError on a malformed entry."""
    spec = _Spec(fn, source_name)
    messages = _Messages(spec, limit)
    try:
        cfunc = lib[spec.symbol]  # A function object of its own.
    except AttributeError:
        raise SignatureError("the library has no %s" % spec.symbol) from None
    argtypes = []
    for arg in spec.c_args:
        if arg["kind"] == "pointer":
            argtypes.append(ctypes.c_void_p)
        elif arg["kind"] == "size":
            argtypes.append(ctypes.c_int64)
        else:
            argtypes.append(_CTYPES[spec.params[arg["param"]]["dtype"]])
    cfunc.argtypes = argtypes
    cfunc.restype = ctypes.c_int

    names, positional = _python_names(spec)
    ns = {"_m_nd": np.ndarray, "_m_f": cfunc, "_m_empty": np.empty,
          "_m_pool": RESULT_POOL.empty,
          "_m_vp": ctypes.c_void_p.from_address, "_m_id": id,
          "_m_type": type, "_m_float": float,
          "_m_f32max": float(np.finfo(np.float32).max),
          "_m_m": messages,
          "_m_require": np.require,
          "_m_tr": _DTYPES[spec.result["dtype"]]}

    def size(s):
        if type(s) is int:
            return str(s)
        return "_m_s%d_%d" % (s["param"], s["dim"])

    body = []
    matrices = []
    shape_checks = []
    for p, value in enumerate(spec.params):
        x = names[p]
        if value["kind"] == "scalar":
            ns["_m_c%d" % p] = messages.scalar_converter(p)
            # A Python float is passed as it is; for an f32 parameter only
            # within float32's range (the converter raises beyond it and
            # lets infinities and NaN through).
            if value["dtype"] == "f32":
                body += ["    if _m_type(%s) is not _m_float or not "
                         "-_m_f32max <= %s <= _m_f32max:" % (x, x)]
            else:
                body += ["    if _m_type(%s) is not _m_float:" % x]
            body += ["        %s = _m_c%d(%s)" % (x, p, x)]
            continue
        matrices.append(p)
        ns["_m_c%d" % p] = messages.matrix_converter(p)
        ns["_m_t%d" % p] = _DTYPES[value["dtype"]]
        body += ["    if (_m_type(%s) is not _m_nd or %s.dtype is not _m_t%d or "
                 "%s.ndim != 2 or" % (x, x, p, x),
                 "            %s.flags.num & %d != %d):"
                 % (x, _C_ALIGNED, _C_ALIGNED),
                 "        %s = _m_c%d(%s)" % (x, p, x),
                 "        _m_k = 1",
                 "    _m_s%d_0, _m_s%d_1 = %s.shape" % (p, p, x)]
        # An array's sizes are never negative: a `?` size is checked by
        # its truth (0 is the bad one), cheaper than a comparison.
        for d, declared in enumerate(value["shape"]):
            shape_checks.append(
                "not _m_s%d_%d" % (p, d) if declared == "?"
                else "_m_s%d_%d != %d" % (p, d, declared))
    if shape_checks:
        body += ["    if %s:" % " or ".join(shape_checks),
                 "        _m_m.bad_shape(%s)" % "".join(
                     names[p] + ", " for p in matrices)]
    # The arguments' shapes, by parameter (None for a scalar), for the
    # cold paths.
    shapes_text = "(%s)" % "".join(
        "(_m_s%d_0, _m_s%d_1), " % (p, p) if v["kind"] == "matrix"
        else "None, " for p, v in enumerate(spec.params))
    if spec.preconditions:
        conds = ["%s != %s" % (size(pre["lhs"]), size(pre["rhs"]))
                 for pre in spec.preconditions]
        body += ["    if %s:" % " or ".join(conds),
                 "        _m_m.bad_precondition(%s)" % shapes_text]

    result = spec.result
    if result["kind"] == "matrix":
        rshape = [size(d) for d in result["dims"]]
        allocated = list(spec.temporaries or []) + [result["dims"]]
    else:
        rshape = []
        allocated = list(spec.temporaries or [])
    # Every matrix the call may allocate, and the result (computed in a
    # buffer of its own when out= overlaps an argument): each is one malloc,
    # which fails, and makes the compiled code exit the process, when it
    # is larger than memory and swap. Fixed sizes are checked here, `?`
    # ones at each call; bytes per element from the element types.
    if spec.temporaries is not None:
        values = spec.params + [spec.result]
        itemsize = max(_DTYPES[v["dtype"]].itemsize for v in values)
        cap = limit // itemsize
        ns["_m_cap"] = cap
        terms = []
        for rows, cols in allocated:
            if type(rows) is int and type(cols) is int:
                if rows * cols > cap:
                    terms = ["True"]
                    break
            else:
                term = "%s * %s > _m_cap" % (size(rows), size(cols))
                if term not in terms:
                    terms.append(term)
        if terms:
            body += ["    if %s:" % " or ".join(terms),
                     "        _m_m.no_memory(%s, %d, %d)" % (
                         shapes_text, itemsize, limit)]

    # The copies of matrix arguments that are not C-contiguous, aligned
    # arrays of the parameter's element type, once their shapes and sizes
    # passed; only where a converter ran (_m_k): an argument that passed the
    # fast test above needs none. The copies and the matrices the call
    # computes must fit in memory together (a 16 GiB strided view and its
    # 16 GiB result on a 23 GiB machine: the kernel's OOM killer, not a
    # MemoryError, before this test).
    if matrices:
        body.insert(0, "    _m_k = 0")
        body += ["    if _m_k:",
                 "        _m_m.check_copies((%s), %s, out is None)" % (
                     "".join(names[p] + ", " for p in matrices),
                     shapes_text)]
    for p in matrices:
        x = names[p]
        body += ["        if %s.dtype is not _m_t%d or %s.flags.num & %d != %d:"
                 % (x, p, x, _C_ALIGNED, _C_ALIGNED),
                 "            %s = _m_require(%s, _m_t%d, 'CA')" % (x, x, p)]

    if result["kind"] == "matrix":
        # A result of _pool.MIN_BYTES or more from the pool of result
        # memory; a smaller one straight from np.empty.
        itemsize = _DTYPES[result["dtype"]].itemsize
        ns["_m_pmin"] = -(-_pool.MIN_BYTES // itemsize)
        small = "_m_empty((%s, %s), _m_tr)" % tuple(rshape)
        pooled = "_m_pool(%s, %s, _m_tr)" % tuple(rshape)
        if all(type(d) is int for d in result["dims"]):
            rows, cols = result["dims"]
            allocate = pooled if rows * cols * itemsize >= _pool.MIN_BYTES \
                else small
        else:
            allocate = "%s if %s * %s < _m_pmin else %s" % (
                small, rshape[0], rshape[1], pooled)
        body += ["    if out is None:",
                 "        out = %s" % allocate,
                 "    else:",
                 "        out = _m_m.check_out(out, (%s, %s))"
                 % tuple(rshape)]
        out = "out"
    else:
        body += ["    if out is not None:",
                 "        _m_m.out_of_scalar(out)",
                 "    _m_r = _m_empty(1, _m_tr)"]
        out = "_m_r"

    cargs = []
    for arg in spec.c_args:
        p = arg["param"]
        if p == "result":
            cargs.append(_pointer(out) if arg["kind"] == "pointer"
                         else rshape[arg["dim"]])
        elif arg["kind"] == "pointer":
            cargs.append(_pointer(names[p]))
        elif arg["kind"] == "size":
            cargs.append("_m_s%d_%d" % (p, arg["dim"]))
        else:
            cargs.append(names[p])
    body += ["    _m_st = _m_f(%s)" % ", ".join(cargs),
             "    if _m_st:",
             "        _m_m.status(_m_st)",
             "    return %s" % ("out" if result["kind"] == "matrix"
                                else "_m_r[0]")]

    params = ", ".join(names)
    if positional and names:
        params += ", /"
    # Named as in Mat, so that Python's own TypeErrors (a missing argument)
    # name it too. The body names only `_m_` globals and locals, which no
    # Mat name is here, so no parameter or function name shadows them.
    defname = spec.name
    if (not defname.isidentifier() or keyword.iskeyword(defname) or
            defname.startswith("_m_")):
        defname = "_m_function"
    header = "def %s(%s%s*, out=None):" % (defname, params,
                                           ", " if names else "")
    code = "\n".join([header] + body) + "\n"
    exec(compile(code, "<matc %s>" % spec.name, "exec"), ns)
    function = ns[defname]
    function.__name__ = spec.name
    function.__qualname__ = spec.name
    function.__module__ = module_name
    function.__doc__ = _doc(spec)
    function.__matc__ = fn
    return function
