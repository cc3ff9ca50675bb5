#!/usr/bin/env python3
"""Compile time of matc against the size of the program (issue 13).

    bench/compile_time.py [--matc build/bin/matc] [--rounds 3] [--quick]

Generates the programs of test/Pipelines/Inputs/long-program.py (straight-
line statements on 8 x 8 matrices, small functions each called once, one
expression of many products) at several sizes, compiles each with
`matc -O0 -c` and `matc -O2 -c`, and prints the median wall time and the
peak resident memory of the compiler (maximum RSS, from wait4) of each, the
growth from the smallest size (time at n over time at the smallest n), and
the time of `matc --run examples/markov.mat`. Run it on an idle machine.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = os.path.join(ROOT, "test", "Pipelines", "Inputs", "long-program.py")

SIZES = {"lines": [20, 100, 300, 1000], "funcs": [1, 10, 30, 100, 300],
         "chain": [100, 300, 999]}
QUICK = {"lines": [100, 300], "funcs": [1, 30], "chain": [300]}


def run_once(argv):
    """(wall seconds, peak RSS in MiB) of one run of `argv`; exits on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("compile_time.py: %s failed:\n%s" % (" ".join(argv), stderr))
    return elapsed, usage.ru_maxrss / 1024.0


def measure(argv, rounds):
    runs = [run_once(argv) for _ in range(rounds)]
    return (statistics.median(t for t, _ in runs),
            max(m for _, m in runs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matc", default=os.path.join(ROOT, "build", "bin",
                                                       "matc"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help="two sizes of each kind, one round")
    args = parser.parse_args()
    sizes = QUICK if args.quick else SIZES
    rounds = 1 if args.quick else args.rounds
    cpu = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    print("# matc compile time (%s, %d cores; median of %d, wall clock)\n"
          % (cpu, os.cpu_count(), rounds))
    with tempfile.TemporaryDirectory() as tmp:
        for kind, ns in sizes.items():
            print("## %s\n" % kind)
            print("| n | -O0 s | -O0 MiB | -O2 s | -O2 MiB | -O2 growth "
                  "(time / time at n = %d) |" % ns[0])
            print("|---|---|---|---|---|---|")
            base = None
            for n in ns:
                source = os.path.join(tmp, "%s-%d.mat" % (kind, n))
                with open(source, "w") as out:
                    subprocess.run([sys.executable, GENERATOR, kind, str(n)],
                                   stdout=out, check=True)
                obj = os.path.join(tmp, "out.o")
                cells = []
                for level in ("-O0", "-O2"):
                    t, mem = measure([args.matc, level, "-c", source, "-o",
                                      obj], rounds)
                    cells.append((t, mem))
                if base is None:
                    base = cells[1][0]
                print("| %d | %.2f | %.0f | %.2f | %.0f | %.1fx |" % (
                    n, cells[0][0], cells[0][1], cells[1][0], cells[1][1],
                    cells[1][0] / base))
                sys.stdout.flush()
            print()
        markov = os.path.join(ROOT, "examples", "markov.mat")
        t, mem = measure([args.matc, "--run", markov], max(rounds, 3))
        print("`matc --run examples/markov.mat`: %.2f s, %.0f MiB" % (t, mem))


if __name__ == "__main__":
    main()
