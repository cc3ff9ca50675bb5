# Part of the matc project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Finding matc, running it, and the cache of compiled libraries.

A compiled Mat file is two files in the cache directory, named by the key
(a SHA-256, see `cache_key`): `KEY.so`, the shared library of
`matc --shared`, and `KEY.json`, its signatures (`matc --emit=signatures`,
docs/python.md). Both are written into a private temporary directory first
and moved into place with os.replace, the library before the signatures:
an entry whose JSON exists is complete, and readers never see a file half
written, whatever other processes do at the same time.
"""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile

#: What the package understands of `matc --emit=signatures`.
SIGNATURES_FORMAT = "matc-signatures"
SIGNATURES_VERSION = 1

#: Bumped when what the package stores in the cache changes meaning.
_CACHE_LAYOUT = b"matc-python-cache 1"


class CompileError(Exception):
    """The Mat source has errors, or matc failed.

    `diagnostics` is what matc printed, clang-style: each error as
    `FILE:LINE:COL: error: MESSAGE`, then the source line and a caret line
    under the place. `source_name` is the FILE of those lines (`<string>`
    for `matc.compile`), `command` the matc command that failed.
    """

    def __init__(self, message, diagnostics="", source_name=None,
                 command=None):
        super().__init__(message + ("\n" + diagnostics.rstrip("\n")
                                    if diagnostics else ""))
        self.diagnostics = diagnostics
        self.source_name = source_name
        self.command = command


def find_matc():
    """The matc executable: $MATC if set, else build/bin/matc of the source
    tree this package sits in (python/matc/ of a matc checkout), else
    `matc` on PATH. Raises FileNotFoundError naming the three places."""
    env = os.environ.get("MATC")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise FileNotFoundError(
                "MATC=%s is not an executable file; set MATC to the matc "
                "compiler (e.g. build/bin/matc of a matc checkout)" % env)
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.join(os.path.dirname(os.path.dirname(here)), "build",
                        "bin", "matc")
    if os.path.isfile(tree) and os.access(tree, os.X_OK):
        return tree
    found = shutil.which("matc")
    if found:
        return os.path.abspath(found)
    raise FileNotFoundError(
        "cannot find the matc compiler: set the MATC environment variable "
        "to it, build it next to this package (scripts/setup.sh writes %s), "
        "or put matc on PATH" % tree)


def cache_dir():
    """$XDG_CACHE_HOME/matc, or ~/.cache/matc (an XDG_CACHE_HOME that is
    not an absolute path is ignored, as the XDG spec says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "matc")


def _cpu_flags():
    """The CPU's model and feature flags (/proc/cpuinfo), so that a cache
    shared by machines never gives one code for another's CPU."""
    try:
        with open("/proc/cpuinfo", "rb") as f:
            text = f.read()
    except OSError:
        return b""
    lines = [l for l in text.split(b"\n")
             if l.startswith((b"flags", b"model name", b"Features"))]
    return b"\n".join(sorted(set(lines)))


# matc's `--version` text, by (path, size, mtime, inode) of the executable:
# running matc costs tens of milliseconds, a stat does not.
_versions = {}


def matc_version(matc):
    """What identifies the compiler: `matc --version` (matc's version,
    LLVM's, the host CPU LLVM sees) and the SHA-256 of the executable (a
    rebuilt matc of the same version may generate other code). Remembered
    in memory and in the cache directory for as long as the executable's
    size, time and inode stay the same."""
    st = os.stat(matc)
    stamp = "%s\0%d\0%d\0%d" % (matc, st.st_size, st.st_mtime_ns, st.st_ino)
    version = _versions.get(stamp)
    if version is not None:
        return version
    name = hashlib.sha256(stamp.encode()).hexdigest()[:32]
    path = os.path.join(cache_dir(), "versions", name)
    try:
        with open(path, "rb") as f:
            version = f.read()
    except OSError:
        version = None
    if not version:
        run = subprocess.run([matc, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        if run.returncode != 0:
            raise CompileError("%s --version failed" % matc,
                               run.stderr.decode(errors="replace"))
        with open(matc, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        version = run.stdout + b"sha256 " + digest.encode() + b"\n"
        try:
            _atomic_write(path, version)
        except OSError:
            pass  # A cache that cannot be written only costs time.
    _versions[stamp] = version
    return version


def cache_key(source, options, version):
    """The hex SHA-256 of everything the compiled library depends on: the
    source bytes, matc's options, matc's version text and the CPU."""
    h = hashlib.sha256()
    for part in (_CACHE_LAYOUT, source, " ".join(options).encode(), version,
                 _cpu_flags()):
        h.update(b"%d:" % len(part))
        h.update(part)
    return h.hexdigest()


def _atomic_write(path, data):
    """Writes `data` to `path` through a temporary file in its directory and
    os.replace: readers see the old file or the new one, never a part."""
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_signatures(path):
    """The signatures JSON at `path`, or None if it is missing or not of the
    format and version this package reads."""
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read())
    except (OSError, ValueError):
        return None
    if (not isinstance(data, dict) or
            data.get("format") != SIGNATURES_FORMAT or
            data.get("version") != SIGNATURES_VERSION or
            not isinstance(data.get("functions"), list)):
        return None
    return data


def _run(command, cwd, source_name):
    run = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if run.returncode != 0:
        diagnostics = run.stderr.decode(errors="replace")
        raise CompileError("matc cannot compile %s:" % source_name,
                           diagnostics, source_name, command)
    return run.stdout


def build(source, source_name, options, use_cache=True):
    """Compiles `source` (bytes) with the matc `options` (a list of
    strings), or finds it in the cache (unless `use_cache` is false: then
    the entry is compiled again and replaced). Diagnostics name the source
    `source_name` (a file name, no directory). Returns (library path,
    signatures, directory to remove once the library is loaded, or None,
    whether the entry came from the cache). Raises CompileError,
    FileNotFoundError (no matc)."""
    matc = find_matc()
    key = cache_key(source, options, matc_version(matc))
    cache = cache_dir()
    library = os.path.join(cache, key + ".so")
    signatures_path = os.path.join(cache, key + ".json")
    signatures = read_signatures(signatures_path)
    if use_cache and signatures is not None and os.path.isfile(library):
        return library, signatures, None, True

    try:
        os.makedirs(cache, exist_ok=True)
        work = tempfile.mkdtemp(dir=cache, prefix=".build-")
        cached = True
    except OSError:
        # A cache that cannot be written: compile in a temporary directory
        # and load from there.
        work = tempfile.mkdtemp(prefix="matc-")
        cached = False
    try:
        # Both matc runs read this one snapshot of the source, so that the
        # signatures always describe the library; outputs go next to its
        # directory, so that no source name can meet theirs.
        src = os.path.join(work, "src")
        os.mkdir(src)
        with open(os.path.join(src, source_name), "wb") as f:
            f.write(source)
        json_text = _run([matc, source_name, "--emit=signatures"], src,
                         source_name)
        _run([matc, source_name, "--shared", "-o", "../lib.so"] + options,
             src, source_name)
        with open(os.path.join(work, "signatures.json"), "wb") as f:
            f.write(json_text)
        signatures = read_signatures(os.path.join(work, "signatures.json"))
        if signatures is None:
            raise CompileError(
                "%s --emit=signatures wrote no signatures of format %s "
                "version %d: matc and this package do not match"
                % (matc, SIGNATURES_FORMAT, SIGNATURES_VERSION))
        if not cached:
            return os.path.join(work, "lib.so"), signatures, work, False
        os.replace(os.path.join(work, "lib.so"), library)
        os.replace(os.path.join(work, "signatures.json"), signatures_path)
        return library, signatures, None, False
    except BaseException:
        if not cached:
            shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        if cached:
            shutil.rmtree(work, ignore_errors=True)
