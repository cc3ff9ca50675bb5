#!/usr/bin/python3
"""mpi.py: one Mat program on one process and on N MPI ranks (matc --ranks).

For each program of bench/mpi/ (a product-dominated one at n = 2048, and two
holding several 4096 x 4096 matrices), builds an executable for one process
and one for N ranks, both with --threads 1, then runs them in interleaved
rounds (the order alternates every round, so a change of machine load hits
both): the one-process executable directly, the N-rank one under
`mpiexec -n N`. It records

- the wall-clock time of the whole run (the launcher and MPI_Init included)
  and of each rank (from its start to its exit, /usr/bin/time);
- the peak resident memory of each process (/usr/bin/time's maximum RSS);

checks that both print the same, and writes a Markdown table of the medians
and their ratios (bench/results/mpi.md by default). The machine this was
written on has 2 cores shared with other jobs, so each round first waits
(at most --wait-idle seconds) for it to be idle.

  bench/mpi.py --matc build/bin/matc
  bench/mpi.py --matc build/bin/matc --ranks 2 --rounds 7 --programs products
"""

import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import cpu_model  # noqa: E402
PROGRAMS = ["products", "memory", "memory-transposed"]


def idle_fraction(seconds):
    """The fraction of CPU time the machine spent idle over `seconds`
    (/proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return fields[3] + fields[4], sum(fields)  # idle + iowait, total
    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return (idle1 - idle0) / max(1, total1 - total0)


def wait_until_idle(limit, threshold=0.9):
    """Waits (at most `limit` seconds) until the machine was at least
    `threshold` idle for 2 s: on a shared machine, a round then starts with
    no other job running. Returns the idle fraction last seen."""
    start = time.time()
    while True:
        idle = idle_fraction(2)
        if idle >= threshold or time.time() - start > limit:
            return idle


def run_timed(command, env, outdir, tag):
    """Runs `command`, every process of it under /usr/bin/time (writing
    `outdir/tag.<rank>`). Returns (stdout, wall seconds, [(rank seconds,
    rank max RSS KiB)])."""
    start = time.perf_counter()
    p = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit("mpi.py: %s failed (%d): %s" % (" ".join(command),
                                                 p.returncode, p.stderr))
    ranks = []
    for name in sorted(os.listdir(outdir)):
        if name.startswith(tag + "."):
            with open(os.path.join(outdir, name)) as f:
                seconds, rss = f.read().split()[-2:]
            ranks.append((float(seconds), int(rss)))
            os.unlink(os.path.join(outdir, name))
    return p.stdout, wall, ranks


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matc", required=True)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--mpiexec", default=shutil.which("mpiexec") or "mpiexec")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "mpi.md"))
    ap.add_argument("--wait-idle", type=float, default=120,
                    help="before each round, wait at most this many seconds "
                    "for the machine to be 90%% idle (0: do not wait)")
    args = ap.parse_args()
    programs = args.programs.split(",")
    n = args.ranks

    work = tempfile.mkdtemp(prefix="matc-mpi-bench.")
    timer = ["/usr/bin/time", "-f", "'%e %M'"]
    rows = {}
    load_before = os.getloadavg()
    for name in programs:
        src = os.path.join(HERE, "mpi", name + ".mat")
        one = os.path.join(work, name + ".1")
        many = os.path.join(work, name + ".%d" % n)
        subprocess.run([args.matc, src, "--threads", "1", "-o", one], check=True)
        subprocess.run([args.matc, src, "--threads", "1", "--ranks", str(n),
                        "-o", many], check=True)
        # Each process writes its times to work/<tag>.<rank> (MPICH sets
        # PMI_RANK in every rank).
        wrap = lambda exe, tag: ["sh", "-c", 'exec %s -o "%s/%s.${PMI_RANK:-0}" %s'
                                 % (" ".join(timer), work, tag, exe)]
        samples = {"one": [], "many": []}
        outputs = set()
        idles = []
        for r in range(args.rounds):
            if args.wait_idle > 0:
                idles.append(wait_until_idle(args.wait_idle))
            order = ["one", "many"] if r % 2 == 0 else ["many", "one"]
            for which in order:
                if which == "one":
                    cmd = wrap(one, "one")
                else:
                    cmd = [args.mpiexec, "-n", str(n)] + wrap(many, "many")
                out, wall, ranks = run_timed(cmd, os.environ, work, which)
                if len(ranks) != (1 if which == "one" else n):
                    sys.exit("mpi.py: expected %d timings, got %d" % (
                        1 if which == "one" else n, len(ranks)))
                outputs.add(out)
                samples[which].append((wall, max(s for s, _ in ranks),
                                       max(m for _, m in ranks)))
        if len(outputs) != 1:
            sys.exit("mpi.py: %s prints differently: %r" % (name, outputs))
        med = lambda which, i: statistics.median(s[i] for s in samples[which])
        rows[name] = {
            "one_wall": med("one", 0), "many_wall": med("many", 0),
            "one_proc": med("one", 1), "many_proc": med("many", 1),
            "one_rss": med("one", 2), "many_rss": med("many", 2),
            "samples": samples, "idles": idles,
        }
    load_after = os.getloadavg()

    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "# matc --ranks %d against one process" % n,
        "",
        "Generated by `bench/mpi.py` (`bench/mpi.sh`) on %s UTC, commit %s." % (
            datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
            commit or "?"),
        "CPU: %s, %d cores online; load average %.2f before, %.2f after." % (
            cpu_model(), os.cpu_count() or 0, load_before[0], load_after[0]),
        "Both executables built with `--threads 1`; %d rounds, interleaved; "
        "medians." % args.rounds,
        "",
        "| program | 1 process: s | %d ranks: s (whole run) | speedup | "
        "%d ranks: s (slowest rank) | speedup | 1 process: peak MiB | "
        "%d ranks: peak MiB per rank | ratio |" % (n, n, n),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in programs:
        r = rows[name]
        lines.append("| %s | %.3f | %.3f | %.2fx | %.3f | %.2fx | %.0f | %.0f | %.2f |" % (
            name, r["one_wall"], r["many_wall"], r["one_wall"] / r["many_wall"],
            r["many_proc"], r["one_proc"] / r["many_proc"],
            r["one_rss"] / 1024, r["many_rss"] / 1024,
            r["many_rss"] / r["one_rss"]))
    if args.wait_idle > 0:
        lines += ["", "Each round started once the machine had been at least "
                  "90%% idle for 2 s (waiting at most %.0f s); idle fraction "
                  "seen before each round: %s." % (args.wait_idle, "; ".join(
                      "%s %s" % (name, " ".join("%.2f" % i for i in rows[name]["idles"]))
                      for name in programs))]
    lines += ["", "Every run (wall s, slowest process s, peak KiB):", ""]
    for name in programs:
        for which in ("one", "many"):
            lines.append("- %s, %s: %s" % (
                name, "1 process" if which == "one" else "%d ranks" % n,
                ", ".join("(%.3f, %.3f, %d)" % s for s in rows[name]["samples"][which])))
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
