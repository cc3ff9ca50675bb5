#!/usr/bin/python3
"""difftest: differential testing of matc against a NumPy oracle.

For every seed, test/tools/matgen.py writes a random well-typed Mat program
and computes what its prints must show; the program then runs under
`matc --run` at each optimization level asked for (-O0 and -O2 by default)
and every printed number must agree with the oracle within matgen's
tolerances (see matgen.tolerance(): 1e-5 relative for the 6-digit %g
printing, plus 1e-12 (f64) or 1e-4 (f32) times the magnitude of the terms
that made the value). Exit status, stderr and the number of rows and
columns are checked too.

  test/tools/difftest.py --matc build/bin/matc --seeds 0:300 --jobs 2
  test/tools/difftest.py --matc build/bin/matc --seeds 4711 -v   (one seed)
  test/tools/difftest.py --matc build/bin/matc --seeds 0:10000 --batch 10

--ranks N builds each program as an MPI executable for N processes
(`matc --ranks N --shard-min-elements M -o exe`, M = 1 by default so that
every matrix that can be split is) and runs it under `mpiexec -n N`: the
distributed program must print what the oracle says, as the one-process
one does.

--batch K compiles K programs per matc process, to spend less time starting
matc and more compiling: the K programs are concatenated into one file,
each one's names (variables and functions) prefixed with `pI_` (I = its
place in the batch) so they stay independent, and matc's output is split
between them by the number of lines each must print. Every program is
still checked against its own oracle at every level. When a batch
disagrees anywhere, each of its programs is run again alone, which names
the seed; a disagreement that only shows in the batch is reported as
`FAIL batch ...` with the batch file kept.

A disagreement is reported as `FAIL seed N -O2: ...` with the program
written to --keep (default: difftest-failures/seed-N.mat, with the oracle's
output as seed-N.expected and matc's as seed-N.O2.out). Reproduce with
`test/tools/matgen.py --seed N > p.mat; matc p.mat --run -O2`.
Ends with one line `difftest: P programs, R runs, D disagreements`;
exit status 1 if there was any.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matgen  # noqa: E402  (re-executes under Debian's python if needed)


def parse_seeds(spec):
    seeds = []
    for part in spec.split(","):
        if ":" in part:
            a, b = part.split(":")
            seeds.extend(range(int(a), int(b)))
        else:
            seeds.append(int(part))
    return seeds


def run_matc(path, level, args):
    """Runs `matc PATH --run -OLEVEL` (with --ranks: builds an MPI
    executable and runs it under mpiexec). Returns (stdout, failure message
    or None): a timeout, a non-zero exit status or anything on stderr
    fails."""
    cmd = [args.matc, path, "--run", "-O%s" % level]
    if args.ranks:
        exe = "%s.O%s.exe" % (path, level)
        build = [args.matc, path, "-O%s" % level, "--ranks", str(args.ranks),
                 "--shard-min-elements", str(args.shard_min_elements),
                 "-o", exe]
        try:
            p = subprocess.run(build, capture_output=True, text=True,
                               timeout=args.timeout, errors="replace")
        except subprocess.TimeoutExpired:
            return "", "-O%s: matc timed out after %ss" % (level, args.timeout)
        if p.returncode != 0 or p.stderr.strip():
            return "", "-O%s: matc --ranks: exit status %d: %s" % (
                level, p.returncode, p.stderr.strip()[:500])
        cmd = [args.mpiexec, "-n", str(args.ranks), exe]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=args.timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return "", "-O%s: timed out after %ss" % (level, args.timeout)
    finally:
        if args.ranks and os.path.exists(exe):
            os.unlink(exe)
    if p.returncode != 0:
        return p.stdout, "-O%s: exit status %d: %s" % (
            level, p.returncode, p.stderr.strip()[:500])
    if p.stderr.strip():
        return p.stdout, "-O%s: unexpected stderr: %s" % (
            level, p.stderr.strip()[:500])
    return p.stdout, None


def run_seed(seed, args, tmpdir):
    """Returns [(seed, runs, [failure messages], program, {level: stdout})]."""
    program = matgen.generate(seed, args.size)
    src = program.text(seed, args.size)
    path = os.path.join(tmpdir, "seed-%d.mat" % seed)
    with open(path, "w") as f:
        f.write(src)
    failures, outputs = [], {}
    runs = 0
    for level in args.opt:
        runs += 1
        outputs[level], failure = run_matc(path, level, args)
        if failure:
            failures.append(failure)
            continue
        msg = matgen.compare(program, outputs[level])
        if msg:
            failures.append("-O%s: %s" % (level, msg))
    os.unlink(path)
    return [(seed, runs, failures, program, outputs)]


# Words of Mat that are not user names (LANGUAGE.md): never prefixed.
RESERVED = {"def", "return", "f32", "f64", "T", "zeros", "ones", "full",
            "eye", "iota", "transpose", "print"}


def rename_apart(text, index):
    """Prefixes every user name in `text` (a matgen program) with pINDEX_.
    Numbers never match (a name starts after a non-word character), and
    renaming inside comments is harmless."""
    return re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*\b",
                  lambda m: m.group(0) if m.group(0) in RESERVED
                  else "p%d_%s" % (index, m.group(0)), text)


def run_batch(seeds, args, tmpdir):
    """Runs `seeds` as one concatenated program (see --batch); on any
    disagreement, runs each seed alone. Returns run_seed's list for each
    seed."""
    if len(seeds) == 1:
        return run_seed(seeds[0], args, tmpdir)
    programs = [matgen.generate(s, args.size) for s in seeds]
    texts = [rename_apart(p.text(s, args.size), i)
             for i, (s, p) in enumerate(zip(seeds, programs))]
    lines = [len(matgen.expected_text(p).splitlines()) for p in programs]
    path = os.path.join(tmpdir, "batch-%d-%d.mat" % (seeds[0], seeds[-1]))
    with open(path, "w") as f:
        f.write("\n".join(texts))
    ok = True
    why = ""
    for level in args.opt:
        stdout, failure = run_matc(path, level, args)
        got = stdout.splitlines(keepends=True)
        if failure or len(got) != sum(lines):
            ok = False
            why = failure or "-O%s: %d lines of output, %d expected" % (
                level, len(got), sum(lines))
            break
        start = 0
        for program, n in zip(programs, lines):
            problems = matgen.compare(program, "".join(got[start:start + n]))
            if problems:
                ok = False
                why = "-O%s: %s" % (level, problems)
            start += n
        if not ok:
            break
    if ok:
        os.unlink(path)
        return [(s, len(args.opt), [], p, {}) for s, p in zip(seeds, programs)]
    results = []
    for s in seeds:
        results.extend(run_seed(s, args, tmpdir))
    if not any(r[2] for r in results):
        # Only the batch disagrees: keep it and blame its first seed.
        kept = os.path.join(args.keep or tmpdir, os.path.basename(path))
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            os.replace(path, kept)
        first = results[0]
        results[0] = (first[0], first[1],
                      ["batch of seeds %d..%d disagrees (%s), its programs "
                       "alone do not: %s" % (seeds[0], seeds[-1], kept, why)],
                      first[3], first[4])
    elif os.path.exists(path):
        os.unlink(path)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matc", required=True, help="path of the matc binary")
    ap.add_argument("--seeds", default="0:100",
                    help="A:B (half-open range), or a list N,M,A:B")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--opt", default="0,2",
                    help="optimization levels to run, e.g. 0,2 or 0,1,2,3")
    ap.add_argument("--size", choices=["small", "normal"], default="normal")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--keep", default="difftest-failures",
                    help="directory for failing programs ('' for none)")
    ap.add_argument("--batch", type=int, default=1,
                    help="programs compiled per matc process (see above)")
    ap.add_argument("--ranks", type=int, default=0,
                    help="run as MPI programs on this many processes "
                    "(0: matc --run)")
    ap.add_argument("--shard-min-elements", type=int, default=1,
                    help="with --ranks: matc's --shard-min-elements")
    ap.add_argument("--mpiexec", default="mpiexec",
                    help="with --ranks: the MPI launcher")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="one line per program")
    args = ap.parse_args()
    args.opt = args.opt.split(",")
    seeds = parse_seeds(args.seeds)
    batch = max(1, args.batch)
    batches = [seeds[i:i + batch] for i in range(0, len(seeds), batch)]

    start = time.time()
    programs = runs = 0
    failed = []
    with tempfile.TemporaryDirectory(prefix="difftest.") as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(run_batch, b, args, tmpdir) for b in batches]
        for fut in concurrent.futures.as_completed(futures):
            try:
                results = fut.result()
            except Exception as e:  # a generator bug: report it, go on
                print("ERROR: %r" % e, flush=True)
                failed.append(-1)
                continue
            for seed, n, failures, program, outputs in results:
                programs += 1
                runs += n
                if args.verbose:
                    print("%s seed %d" % ("FAIL" if failures else "ok", seed),
                          flush=True)
                if not failures:
                    continue
                failed.append(seed)
                for msg in failures:
                    print("FAIL seed %d %s" % (seed, msg), flush=True)
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    base = os.path.join(args.keep, "seed-%d" % seed)
                    with open(base + ".mat", "w") as f:
                        f.write(program.text(seed, args.size))
                    with open(base + ".expected", "w") as f:
                        f.write(matgen.expected_text(program))
                    for level, out in outputs.items():
                        with open("%s.O%s.out" % (base, level), "w") as f:
                            f.write(out)
    print("difftest: %d programs, %d runs, %d disagreements%s (%.0f s)" % (
        programs, runs, len(failed),
        (": seeds " + " ".join(map(str, sorted(failed)[:50]))) if failed else "",
        time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
