# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Mat from Python: compile Mat functions and call them on NumPy arrays.

    >>> import numpy as np, matc
    >>> m = matc.compile('''
    ... def gram(a: f64[?, 3]) -> f64[3, 3]:
    ...     return a.T @ a
    ... ''')
    >>> g = m.gram(np.random.rand(100, 3))  # a new float64 array, (3, 3)
    >>> m.gram(np.random.rand(5, 3), out=g) is g
    True

`compile(source)` and `load(path)` return a module whose attributes are
the Mat functions of the source, under their Mat names, each documented
with its Mat signature (help(m.gram)). Top-level statements are not run.

A function takes, for a matrix parameter `a: f64[R, C]`, anything
numpy.asarray accepts: C-contiguous arrays of its element type (float64
for f64, float32 for f32) are passed without a copy; Fortran-order,
strided or transposed arrays are copied to C order; lists and tuples of
Python numbers take its element type, and a flat list is a 1 x N row, as a
literal is in Mat (a 1-D array is an error: arrays must be 2-D). A scalar parameter takes a Python
number or a NumPy number of its type. The result is a new C-order array
(a NumPy scalar for a scalar result), or `out=`: a C-contiguous, writable
array of the result's dtype and shape, written and returned.

Errors, raised before anything is computed, each naming what was expected
and what was given:

- CompileError: the source has errors (`.diagnostics` holds matc's
  located messages, `FILE:LINE:COL: error: ...` with caret lines);
- TypeError: a wrong number of arguments, a non-numeric argument, or an
  array of the other element type (float32 and float64 never mix, as in
  Mat);
- ValueError: shapes that break the signature (`a: f64[?, 3]` given a
  7 x 4 array; `a @ b` on mismatched `?` sizes; a size of 0);
- MemoryError: a call whose matrices could not fit in memory.

The GIL is released during a call; calls from several threads at once are
safe. The compiler is the `matc` executable ($MATC, else build/bin/matc of
the checkout this package is in, else PATH), which writes a shared library
loaded with ctypes; libraries are cached in $XDG_CACHE_HOME/matc (default
~/.cache/matc) by a hash of the source, the options, matc's version and the
CPU. Results of 4 MiB or more take memory from a pool that keeps the
memory of dead results for reuse (set_result_pool). docs/python.md has the
details.
"""

import ctypes
import numbers
import os
import shutil
import threading
import types

from ._build import CompileError, cache_dir, find_matc
from . import _build, _wrap

__all__ = ["compile", "load", "CompileError", "Module", "find_matc",
           "cache_dir", "set_result_pool"]
__version__ = "0.1.0"

# Libraries loaded in this process, by path: a second compile of the same
# source loads nothing again.
_libraries = {}
_lock = threading.Lock()


class Module(types.ModuleType):
    """The Mat functions of one source, as attributes under their Mat
    names (and all of them in `__matc_functions__`, a dict, where a name
    such as `__doc__` cannot be an attribute). `__file__` is the source
    file for `load`, None for `compile`; `__matc_library__` the shared
    library."""

    def __repr__(self):
        return "<matc.Module %r (%s)>" % (
            self.__name__, ", ".join(self.__matc_functions__))


def _options(opt, threads):
    """matc's options for `opt` and `threads`, checked."""
    # Any integer but a bool (a NumPy integer too, as NumPy takes them).
    if isinstance(opt, bool) or not isinstance(opt, numbers.Integral):
        raise TypeError("opt must be an int (0, 1, 2 or 3), got %s"
                        % type(opt).__name__)
    opt = int(opt)
    if not 0 <= opt <= 3:
        raise ValueError("opt must be 0, 1, 2 or 3, got %d" % opt)
    options = ["-O%d" % opt]
    if threads is not None:
        if isinstance(threads, bool) or \
                not isinstance(threads, numbers.Integral):
            raise TypeError("threads must be None or an int (1 to 1024), "
                            "got %s" % type(threads).__name__)
        threads = int(threads)
        if not 1 <= threads <= 1024:
            raise ValueError("threads must be 1 to 1024 (None: all cores), "
                             "got %d" % threads)
        options += ["--threads", str(threads)]
    return options


def _load_library(path):
    with _lock:
        lib = _libraries.get(path)
        if lib is None:
            lib = ctypes.CDLL(path)
            _libraries[path] = lib
        return lib


def _load_functions(library, signatures, temporary, source_name,
                    module_name):
    """The functions of a built library, by Mat name. Raises OSError (a
    library the dynamic loader refuses) and _wrap.SignatureError."""
    try:
        lib = _load_library(library)
    finally:
        if temporary:
            # Loaded: the mapping outlives the file.
            shutil.rmtree(temporary, ignore_errors=True)
    limit = _wrap.memory_limit()
    functions = {}
    _wrap.check_signatures(signatures)
    for fn in signatures["functions"]:
        function = _wrap.make_function(fn, lib, source_name, module_name,
                                       limit)
        functions[function.__name__] = function
    return functions


def _make_module(source, source_name, module_name, file, opt, threads):
    options = _options(opt, threads)
    module = Module(module_name)
    try:
        library, signatures, temporary, hit = _build.build(
            source, source_name, options)
        try:
            functions = _load_functions(library, signatures, temporary,
                                        source_name, module_name)
        except (OSError, _wrap.SignatureError):
            if not hit:
                raise
            # A cache entry that cannot be used (a library the loader
            # refuses, signatures this package cannot read): compiled again,
            # once, and replaced; the errors of a fresh build are reported.
            library, signatures, temporary, _ = _build.build(
                source, source_name, options, use_cache=False)
            functions = _load_functions(library, signatures, temporary,
                                        source_name, module_name)
    except _wrap.SignatureError as e:
        raise CompileError("cannot use the signatures of %s: %s"
                           % (source_name, e)) from None
    for name, function in functions.items():
        if not (name.startswith("__") and name.endswith("__")):
            setattr(module, name, function)
    module.__all__ = [n for n in functions
                      if not (n.startswith("__") and n.endswith("__"))]
    module.__matc_functions__ = functions
    module.__matc_library__ = library
    module.__file__ = file
    flags = " ".join(options)
    lines = ["Mat functions of %s, compiled by matc %s." % (source_name,
                                                            flags), ""]
    lines += ["  " + f.__matc__["signature"] for f in functions.values()]
    if not functions:
        lines.append("  (no functions)")
    module.__doc__ = "\n".join(lines)
    return module


def compile(source, *, opt=2, threads=None):
    """Compiles the Mat `source` (a str) and returns its functions as a
    Module. Diagnostics name the source `<string>`.

    opt: matc's optimization level, 0 to 3 (default 2).
    threads: OpenMP threads of the compiled code, 1 to 1024; None (the
        default) uses all cores.

    Raises CompileError (errors in the source, `.diagnostics`),
    FileNotFoundError (no matc), TypeError and ValueError (bad options).
    A source compiled before with the same options, matc and CPU is loaded
    from the cache without running matc.
    """
    if not isinstance(source, str):
        raise TypeError("source must be a str of Mat code, got %s"
                        % type(source).__name__)
    try:
        encoded = source.encode("utf-8")
    except UnicodeEncodeError as e:
        # A lone surrogate (from surrogateescape, say): matc reads UTF-8.
        before = source[:e.start]
        line = before.count("\n") + 1
        column = e.start - (before.rfind("\n") + 1) + 1
        diagnostic = ("<string>:%d:%d: error: the character U+%04X cannot be "
                      "encoded in UTF-8 (a lone surrogate)"
                      % (line, column, ord(source[e.start])))
        raise CompileError("matc cannot compile <string>:", diagnostic,
                           "<string>") from None
    return _make_module(encoded, "<string>", "<string>", None, opt, threads)


def load(path, *, opt=2, threads=None):
    """Compiles the Mat file at `path` (str, bytes or os.PathLike) and returns
    its functions as a Module named after the file's stem; its top-level
    statements are not run. Diagnostics name the file by its base name.
    Options and errors as for `compile`; OSError if the file cannot be
    read."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError("path must be a str, bytes or os.PathLike, got %s"
                        % type(path).__name__)
    # A bytes path (os.fsencode's) is named by its str.
    path = os.fsdecode(os.fspath(path))
    with open(path, "rb") as f:
        source = f.read()
    name = os.path.basename(path)
    stem = os.path.splitext(name)[0] or name
    if name.startswith("-"):
        name = "./" + name  # A file name, not an option of matc.
    return _make_module(source, name, stem, os.path.abspath(path), opt,
                        threads)


def set_result_pool(capacity):
    """Sets the bytes of free memory (an int >= 0) kept for reuse by the
    results of 4 MiB or more of Mat functions, and returns the previous
    value. A large result is a fresh mapping from the kernel, which zeroes
    each page on the first write (a 32 MiB result: about 3 ms on a 2-core
    Zen 4 VM, more than half the time of an elementwise function filling
    it); the pool keeps the memory of results no longer referenced (nor
    any view of them) and hands it to the next result of its size. 0
    disables the pool: every result is a plain numpy.empty array. The
    default is 256 MiB (a sixteenth of memory and swap when that is less).

    Raises TypeError (not an int) and ValueError (negative)."""
    if isinstance(capacity, bool) or \
            not isinstance(capacity, numbers.Integral):
        raise TypeError("capacity must be an int (bytes), got %s"
                        % type(capacity).__name__)
    capacity = int(capacity)
    if capacity < 0:
        raise ValueError("capacity must be 0 or more bytes, got %d"
                         % capacity)
    pool = _wrap.RESULT_POOL
    previous = pool.capacity
    pool.set_capacity(capacity)
    return previous
