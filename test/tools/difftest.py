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


def run_seed(seed, args, tmpdir):
    """Returns (seed, runs, [failure messages], program, {level: stdout})."""
    program = matgen.generate(seed, args.size)
    src = program.text(seed, args.size)
    path = os.path.join(tmpdir, "seed-%d.mat" % seed)
    with open(path, "w") as f:
        f.write(src)
    failures, outputs = [], {}
    runs = 0
    for level in args.opt:
        cmd = [args.matc, path, "--run", "-O%s" % level]
        runs += 1
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=args.timeout, errors="replace")
        except subprocess.TimeoutExpired:
            failures.append("-O%s: timed out after %ss" % (level, args.timeout))
            continue
        outputs[level] = p.stdout
        if p.returncode != 0:
            failures.append("-O%s: exit status %d: %s" % (
                level, p.returncode, p.stderr.strip()[:500]))
            continue
        if p.stderr.strip():
            failures.append("-O%s: unexpected stderr: %s" % (
                level, p.stderr.strip()[:500]))
            continue
        msg = matgen.compare(program, p.stdout)
        if msg:
            failures.append("-O%s: %s" % (level, msg))
    os.unlink(path)
    return seed, runs, failures, program, outputs


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
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="one line per program")
    args = ap.parse_args()
    args.opt = args.opt.split(",")
    seeds = parse_seeds(args.seeds)

    start = time.time()
    programs = runs = 0
    failed = []
    with tempfile.TemporaryDirectory(prefix="difftest.") as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(run_seed, s, args, tmpdir) for s in seeds]
        for fut in concurrent.futures.as_completed(futures):
            try:
                seed, n, failures, program, outputs = fut.result()
            except Exception as e:  # a generator bug: report it, go on
                print("ERROR: %r" % e, flush=True)
                failed.append(-1)
                continue
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
