# The cache is the package's Python code alone, and its matc runs are those
# of the other tests: not run again against the sanitized matc.
# UNSUPPORTED: sanitized
# RUN: rm -rf %t && mkdir -p %t
# RUN: %pymatc %s %t
"""The cache of compiled libraries ($XDG_CACHE_HOME/matc): a second compile
in a new process runs no matc at all; a change of source, options or
compiler compiles again; entries are written atomically (no temporary file
left, concurrent compiles agree); a broken entry is compiled again; no
writable cache still compiles. matc runs through a wrapper that logs its
command lines, in a new process per compile."""

import glob
import os
import shutil
import stat
import subprocess
import sys
import unittest

import matc
from mattest import main

WORK = sys.argv.pop(1)

SOURCE = """
def mm(a: f64[?, ?], b: f64[?, ?]) -> f64[?, ?]:
    return a @ b
"""

# Compiles argv[1] (a file) with the options of argv[2] (a Python dict),
# checks one product, prints the time compile() took.
PROGRAM = """
import sys, time, numpy as np, matc
source = open(sys.argv[1]).read()
options = eval(sys.argv[2])
start = time.perf_counter()
m = matc.compile(source, **options)
took = time.perf_counter() - start
a = np.arange(6.0).reshape(2, 3)
assert (m.mm(a, a.T) == a @ a.T).all()
print("%.4f" % took)
"""


class Cache(unittest.TestCase):
    def setUp(self):
        self.dir = os.path.join(WORK, self.id().rsplit(".", 1)[-1])
        os.makedirs(self.dir)
        self.cache = os.path.join(self.dir, "xdg")
        self.log = os.path.join(self.dir, "matc.log")
        self.wrapper = os.path.join(self.dir, "matc")
        with open(self.wrapper, "w") as f:
            f.write('#!/bin/sh\necho "$@" >> "%s"\nexec "%s" "$@"\n'
                    % (self.log, os.environ["MATC"]))
        os.chmod(self.wrapper, 0o755)

    def compile(self, source=SOURCE, matc_path=None, env=None, **options):
        """Compiles in a new process (at -O0 unless `options` say; it is
        the fastest); returns the matc command lines it ran (`--version`
        left out) and the seconds compile() took."""
        options.setdefault("opt", 0)
        path = os.path.join(self.dir, "source.mat")
        with open(path, "w") as f:
            f.write(source)
        before = self.commands()
        environment = dict(os.environ, MATC=matc_path or self.wrapper,
                           XDG_CACHE_HOME=self.cache)
        environment.update(env or {})
        run = subprocess.run([sys.executable, "-c", PROGRAM, path,
                              repr(options)], env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(run.returncode, 0, run.stderr.decode())
        ran = [c for c in self.commands()[len(before):]
               if c != "--version"]
        return ran, float(run.stdout)

    def commands(self):
        try:
            with open(self.log) as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def entries(self, cache=None):
        return sorted(os.listdir(os.path.join(cache or self.cache, "matc")))

    def test_hit_runs_no_matc(self):
        ran, _ = self.compile()
        self.assertEqual(len(ran), 2, ran)  # --emit=signatures, --shared
        self.assertTrue(any("--emit=signatures" in c for c in ran))
        self.assertTrue(any("--shared" in c and "-O0" in c for c in ran))
        ran, took = self.compile()
        self.assertEqual(ran, [])
        print("second compile in a new process: %.4f s" % took,
              file=sys.stderr)

    def test_miss_after_a_change(self):
        self.compile()
        for change in [{"source": SOURCE + "\n"}, {"opt": 1},
                       {"threads": 1}, {"opt": 1, "threads": 2}]:
            with self.subTest(**change):
                ran, _ = self.compile(**change)
                self.assertEqual(len(ran), 2, ran)
                ran, _ = self.compile(**change)
                self.assertEqual(ran, [])
        # One library and one signatures file per (source, options), and
        # nothing half written.
        names = [n for n in self.entries() if n != "versions"]
        self.assertEqual(len(names), 2 * 5, names)
        self.assertEqual(len({n.rsplit(".", 1)[0] for n in names}), 5)
        self.assertEqual([n for n in names if n.startswith(".")], [])

    def test_other_compiler(self):
        # A matc executable with other bytes (the same version) is another
        # compiler; a copy of the same bytes elsewhere is not.
        self.compile()
        copy = os.path.join(self.dir, "matc-copy")
        shutil.copy(os.environ["MATC"], copy)
        ran, _ = self.compile(matc_path=copy)
        self.assertEqual(ran, [])
        with open(copy, "ab") as f:
            f.write(b"\0")
        before = len(self.entries())
        self.compile(matc_path=copy)
        self.assertEqual(len(self.entries()), before + 2)

    def test_broken_entries_are_compiled_again(self):
        self.compile()
        (signatures,) = glob.glob(os.path.join(self.cache, "matc", "*.json"))
        with open(signatures, "r+") as f:
            f.truncate(10)
        ran, _ = self.compile()
        self.assertEqual(len(ran), 2)
        os.unlink(signatures[:-len(".json")] + ".so")
        ran, _ = self.compile()
        self.assertEqual(len(ran), 2)
        # Signatures of another format version: compiled again.
        with open(signatures, "w") as f:
            f.write('{"format": "matc-signatures", "version": 999, '
                    '"functions": []}')
        ran, _ = self.compile()
        self.assertEqual(len(ran), 2)
        # A library the dynamic loader refuses (from the new-user test:
        # every later compile raised OSError "file too short"): compiled
        # again.
        with open(signatures[:-len(".json")] + ".so", "wb") as f:
            f.write(b"garbage")
        ran, _ = self.compile()
        self.assertEqual(len(ran), 2)
        ran, _ = self.compile()
        self.assertEqual(ran, [])

    def test_malformed_signatures(self):
        # Signatures of the right format but a broken function in the
        # cache: compiled again (from the new-user test: every later
        # compile raised CompileError), not a crash.
        self.compile()
        (signatures,) = glob.glob(os.path.join(self.cache, "matc", "*.json"))
        with open(signatures, "w") as f:
            f.write('{"format": "matc-signatures", "version": 1, '
                    '"status": {"ok": 0, "shape_error": 1}, '
                    '"functions": [{"name": "mm", "symbol": "mat_mm", '
                    '"signature": "def mm()", "params": [7]}]}')
        saved = dict(os.environ)
        self.addCleanup(os.environ.update, saved)
        os.environ.update(MATC=self.wrapper, XDG_CACHE_HOME=self.cache)
        before = len(self.commands())
        m = matc.compile(SOURCE, opt=0)
        self.assertEqual(m.mm([[2.0]], [[3.0]]).tolist(), [[6.0]])
        self.assertIn("--emit=signatures",
                      " ".join(self.commands()[before:]))

    def test_concurrent_compiles(self):
        path = os.path.join(self.dir, "source.mat")
        with open(path, "w") as f:
            f.write(SOURCE)
        environment = dict(os.environ, MATC=self.wrapper,
                           XDG_CACHE_HOME=self.cache)
        runs = [subprocess.Popen([sys.executable, "-c", PROGRAM, path,
                                  "{'opt': 0}"],
                                 env=environment, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE) for _ in range(4)]
        for run in runs:
            out, err = run.communicate()
            self.assertEqual(run.returncode, 0, err.decode())
        names = [n for n in self.entries() if n != "versions"]
        self.assertEqual(len(names), 2, names)
        ran, _ = self.compile()
        self.assertEqual(ran, [])

    def test_cache_directory(self):
        # Without XDG_CACHE_HOME (or with a relative one): ~/.cache/matc.
        home = os.path.join(self.dir, "home")
        for xdg in [None, "relative/cache"]:
            env = {"HOME": home}
            environment = dict(os.environ, MATC=self.wrapper, **env)
            environment.pop("XDG_CACHE_HOME")
            if xdg:
                environment["XDG_CACHE_HOME"] = xdg
            code = "import matc; print(matc.cache_dir())"
            out = subprocess.run([sys.executable, "-c", code], cwd=self.dir,
                                 env=environment, stdout=subprocess.PIPE,
                                 check=True).stdout.decode().strip()
            self.assertEqual(out, os.path.join(home, ".cache", "matc"))

    def test_unwritable_cache(self):
        # A cache directory that cannot be made (its parent is a file):
        # compiled in a temporary directory, every time, and removed.
        parent = os.path.join(self.dir, "a-file")
        with open(parent, "w"):
            pass
        tmp = os.path.join(self.dir, "tmp")
        os.mkdir(tmp)
        for _ in range(2):
            ran, _ = self.compile(env={"XDG_CACHE_HOME": parent,
                                       "TMPDIR": tmp})
            self.assertEqual(len(ran), 2)
        self.assertEqual(os.listdir(tmp), [])


if __name__ == "__main__":
    main()
