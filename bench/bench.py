#!/usr/bin/env python3
"""The matc benchmark: matc-generated kernels against C, OpenBLAS and Eigen.

Usage: bench/bench.py [--quick] [--matc PATH] [--out DIR] [--rounds R]
                      [--sizes 64,128,...] [--ops matmul,...] [--types ...]

bench/run.sh installs what is missing, builds matc and calls this script;
see bench/README.md. Steps:

1. Build. Mat kernels (kernels.mat, written here: A @ B, A @ B.T and the
   elementwise chain A * B + C - D * 0.5 with `?` shapes, and for each size
   the chain (A @ B) @ V with static shapes, V of n x 16) are compiled by
   `matc -O2 --threads T -c` for T = 1 and 2 (code for the host CPU) and
   linked into a harness (harness.c, -DIMPL_MATC) calling them through
   their C entry points (`matc --emit-header`), which write the result into
   the caller's buffer like every other variant. The baselines:
   hand-written C (harness.c -DIMPL_NAIVE, gcc -O3 -march=native), OpenBLAS
   (cblas_?gemm, with OPENBLAS_CORETYPE set from the CPU's flags: SkylakeX
   with AVX-512, as Debian's OpenBLAS 0.3.21 does not know Sapphire Rapids
   and otherwise takes a slower kernel, Haswell with AVX2 and FMA only, see
   openblas_coretype()) and Eigen 3.4
   (harness_eigen.cpp, g++ -O3 -march=native -fopenmp).
2. Run. Every (variant, operation, type, size) is one process, which runs
   the operation once untimed, then REPS timed repetitions (wall clock,
   enough for ~0.25 s), with glibc's default malloc settings
   (--warm-malloc: told to keep freed memory, see README.md). The variants
   run interleaved: round after round,
   each round visiting every variant in turn for one operation, type and
   size, so that a change in machine load hits all of them.
3. Report. Medians over all repetitions of all rounds; GFLOPS (2 n^3 for a
   product; the chain counts the flops of the parentheses as written, 2 n^3
   + 64 n^2) or GB/s (the elementwise chain reads 4 and writes 1 matrix);
   ratios of matc to every baseline with the same thread count. Written to
   OUT/results.csv (every repetition), OUT/summary.md and OUT/matmul.png
   (gnuplot).
"""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CHAIN_COLS = 16
FULL_SIZES = [64, 127, 128, 256, 509, 512, 1000, 1023, 1024, 2048,
              "1000x300x2000"]
QUICK_SIZES = [256, 1024]
OPS = ["matmul", "matmul_bt", "matmul_at", "ew", "chain"]
PRODUCTS = ["matmul", "matmul_bt", "matmul_at"]
TYPES = ["f32", "f64"]
LIBOMP = "/usr/lib/llvm-22/lib/libomp.so"



def openblas_coretype(cpuinfo="/proc/cpuinfo"):
    """The OPENBLAS_CORETYPE for this CPU: SkylakeX when it has AVX-512
    (F, BW, DQ, VL; OpenBLAS 0.3.21 misdetects Sapphire Rapids as Prescott,
    its slowest kernel), Haswell when it has AVX2 and FMA only (AMD Zen 2/3
    too; SkylakeX kernels would die of SIGILL there), else None: left to
    OpenBLAS's own detection."""
    flags = set()
    try:
        with open(cpuinfo) as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        return None
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= flags:
        return "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    return None


def cpu_model(cpuinfo="/proc/cpuinfo"):
    """The CPU's model name, as /proc/cpuinfo gives it ("unknown" if not)."""
    try:
        with open(cpuinfo) as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


CORETYPE = openblas_coretype()
BLAS_ENV = {"OPENBLAS_CORETYPE": CORETYPE} if CORETYPE else {}
BLAS_NOTE = ("OpenBLAS ran with OPENBLAS_CORETYPE=%s" % CORETYPE if CORETYPE
             else "OpenBLAS chose its kernel itself")

# name, binary, impl, threads, operations, largest n, extra environment
VARIANTS = [
    ("matc", "bench_matc_t1", "matc", 1, OPS, None, {}),
    ("matc", "bench_matc_t2", "matc", 2, OPS, None, {}),
    ("openblas", "bench_blas", "blas", 1, PRODUCTS + ["chain"],
     None, dict(BLAS_ENV, OPENBLAS_NUM_THREADS="1")),
    ("openblas", "bench_blas", "blas", 2, PRODUCTS + ["chain"],
     None, dict(BLAS_ENV, OPENBLAS_NUM_THREADS="2")),
    ("eigen", "bench_eigen", "eigen", 1, OPS, None,
     {"BENCH_THREADS": "1", "OMP_NUM_THREADS": "1"}),
    ("eigen", "bench_eigen", "eigen", 2, OPS, None,
     {"BENCH_THREADS": "2", "OMP_NUM_THREADS": "2"}),
    ("c-ikj", "bench_naive", "ikj", 1, ["matmul", "chain"], None, {}),
    # The machine's FMA peak per core, measured next to every product (a
    # register-only loop of independent FMA chains, harness.c).
    ("peak", "bench_naive", "fma", 1, PRODUCTS, None, {}),
    # For A @ B.T the i-k-j loop strides through B.T by n: minutes per call
    # at n = 2048, so only up to 1024 (i-j-k is the friendly order there).
    ("c-ikj", "bench_naive", "ikj", 1, ["matmul_bt"], 1024, {}),
    ("c-ijk", "bench_naive", "ijk", 1, ["matmul", "matmul_bt"], 1024, {}),
    ("c-fused", "bench_naive", "fused", 1, ["ew"], None, {}),
    ("c-temps", "bench_naive", "temps", 1, ["ew"], None, {}),
]

# Rough speed of each implementation (GFLOPS for products, GB/s for ew),
# only to choose how many repetitions fill ~0.25 s.
GUESS = {"matc": 100, "blas": 100, "eigen": 100, "ikj": 8, "ijk": 0.5,
         "fused": 10, "temps": 5}


def dims(n):
    """(m, k, n) of a size: N (square) or the string "MxKxN"."""
    if isinstance(n, str):
        m, k, nn = (int(x) for x in n.split("x"))
        return m, k, nn
    return n, n, n


def is_square(n):
    return not isinstance(n, str)


def log(message):
    print(message, file=sys.stderr, flush=True)


def run(command, **kwargs):
    log("+ " + " ".join(command))
    subprocess.run(command, check=True, **kwargs)


def work(op, typ, n):
    """(amount, unit): flops of a product as written, or bytes moved."""
    if op == "ew":
        return 5 * n * n * (8 if typ == "f64" else 4), "GB/s"
    if op == "chain":
        return 2 * n ** 3 + 2 * n * n * CHAIN_COLS, "GFLOPS"
    m, k, nn = dims(n)
    return 2 * m * k * nn, "GFLOPS"


def kernels_source(sizes):
    """bench/kernels.mat: the Mat functions the matc variant calls."""
    lines = ["# Generated by bench/bench.py: the kernels of the benchmark."]
    for t, bits in (("f32", 32), ("f64", 64)):
        m = "%s[?, ?]" % t
        lines += [
            "def mm%d(a: %s, b: %s) -> %s:" % (bits, m, m, m),
            "    return a @ b",
            "def mmbt%d(a: %s, b: %s) -> %s:" % (bits, m, m, m),
            "    return a @ b.T",
            "def mmat%d(a: %s, b: %s) -> %s:" % (bits, m, m, m),
            "    return a.T @ b",
            "def ew%d(a: %s, b: %s, c: %s, d: %s) -> %s:" % (bits, m, m, m, m,
                                                            m),
            "    return a * b + c - d * 0.5",
        ]
        for n in filter(is_square, sizes):
            sq, thin = "%s[%d, %d]" % (t, n, n), "%s[%d, %d]" % (t, n,
                                                                CHAIN_COLS)
            lines += ["def chain%d_%d(a: %s, b: %s, v: %s) -> %s:" % (
                bits, n, sq, sq, thin, thin),
                "    return (a @ b) @ v"]
    return "\n".join(lines) + "\n"


def chains_header(sizes):
    """bench_chains.h: a dispatcher over the chain kernels (kernels.h
    declares them)."""
    out = ["/* Generated by bench/bench.py. */",
           "static int run_chain(int f64, int n, void *a, void *b, "
           "void *v, void *r) {"]
    for bits in (32, 64):
        for n in filter(is_square, sizes):
            out.append("  if (f64 == %d && n == %d) { check_ok(mat_chain%d_%d("
                       "a, b, v, r)); return 1; }" % (bits == 64, n, bits, n))
    out += ["  return 0;", "}"]
    return "\n".join(out) + "\n"


def build(matc, build_dir, sizes, matc_flags=()):
    os.makedirs(build_dir, exist_ok=True)
    kernels = os.path.join(build_dir, "kernels.mat")
    with open(kernels, "w") as f:
        f.write(kernels_source(sizes))
    with open(os.path.join(build_dir, "bench_chains.h"), "w") as f:
        f.write(chains_header(sizes))
    harness = os.path.join(HERE, "harness.c")
    run([matc, kernels, "--emit-header", "-o",
         os.path.join(build_dir, "kernels.h")])
    for threads in (1, 2):
        obj = os.path.join(build_dir, "kernels_t%d.o" % threads)
        started = time.time()
        run([matc, "-O2", "--threads", str(threads)] + list(matc_flags) +
            [kernels, "-c", "-o", obj])
        log("  matc compiled %d kernels in %.1f s" % (
            8 + 2 * len(list(filter(is_square, sizes))),
            time.time() - started))
        command = ["clang-22", "-O3", "-march=native", "-DIMPL_MATC",
                   "-I", build_dir, harness, obj, "-o",
                   os.path.join(build_dir, "bench_matc_t%d" % threads)]
        if threads > 1:
            libdir = os.path.dirname(LIBOMP)
            command += ["-L" + libdir, "-Wl,-rpath," + libdir, "-lomp"]
        run(command)
    run(["gcc", "-O3", "-march=native", "-DIMPL_NAIVE", harness, "-o",
         os.path.join(build_dir, "bench_naive")])
    run(["gcc", "-O3", "-march=native", "-DIMPL_BLAS", harness, "-o",
         os.path.join(build_dir, "bench_blas"), "-lopenblas"])
    run(["g++", "-O3", "-march=native", "-fopenmp", "-I/usr/include/eigen3",
         os.path.join(HERE, "harness_eigen.cpp"), "-o",
         os.path.join(build_dir, "bench_eigen")])


# glibc keeps freed memory in its heap instead of returning it to the OS
# (and serves large blocks from the heap rather than fresh mmaps); see
# README.md. Only with --warm-malloc; by default glibc's defaults apply.
WARM_MALLOC = ("glibc.malloc.mmap_threshold=4294967296:"
               "glibc.malloc.trim_threshold=4294967296")


def measure(build_dir, variant, op, typ, n, reps, warm_malloc=False):
    name, binary, impl, threads, _, _, env = variant
    environment = dict(os.environ)
    if warm_malloc:
        environment["GLIBC_TUNABLES"] = WARM_MALLOC
    environment.update(env)
    if impl == "fma":
        op = "peak"
    result = subprocess.run(
        [os.path.join(build_dir, binary), impl, op, typ, str(n), str(reps)],
        capture_output=True, text=True, env=environment, timeout=1800)
    if result.returncode != 0:
        status = ("killed by signal %d" % -result.returncode
                  if result.returncode < 0
                  else "exit status %d" % result.returncode)
        raise RuntimeError("%s %s %s %d: %s%s" % (binary, op, typ, n, status,
                                                  ": " + result.stderr
                                                  if result.stderr else ""))
    times, checksum, amount = [], None, None
    for line in result.stdout.splitlines():
        fields = line.split()
        if fields[0] == "time":
            times.append(float(fields[1]))
        elif fields[0] == "work":
            amount = float(fields[1])
        else:
            checksum = (float(fields[1]), float(fields[2]))
    if impl == "fma":
        # The peak loop: GFLOPS per repetition, reported as a rate.
        times = [amount / t / 1e9 for t in times]
        checksum = None
    return times, checksum


# Millions of iterations of the peak loop per repetition (~0.04 s).
PEAK_MILLIONS = 10


def reps_for(variant, op, typ, n):
    if variant[2] == "fma":
        return 5
    amount, _ = work(op, typ, n)
    guess = GUESS[variant[2]] * variant[3] * 1e9
    return max(1, min(200, int(0.25 / (amount / guess))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="two sizes (256, 1024), two rounds")
    parser.add_argument("--matc", default=os.path.join(
        ROOT, os.environ.get("MATC_BUILD_DIR", "build"), "bin", "matc"))
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--sizes")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--types", default=",".join(TYPES))
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--matc-flags", default="",
                        help="extra matc flags for the kernels, split at "
                             "spaces (e.g. '--matmul-f32=12,32,256,264,512' "
                             "to try tile sizes)")
    parser.add_argument("--warm-malloc", action="store_true",
                        help="keep freed memory in glibc's heap "
                             "(GLIBC_TUNABLES, see README.md)")
    args = parser.parse_args()
    sizes = ([int(s) if s.isdigit() else s for s in args.sizes.split(",")]
             if args.sizes else QUICK_SIZES if args.quick else FULL_SIZES)
    rounds = args.rounds or (2 if args.quick else 3)
    ops = args.ops.split(",")
    types = args.types.split(",")
    build_dir = os.path.join(args.out, "build")
    if not args.no_build:
        build(args.matc, build_dir, sizes, args.matc_flags.split())

    started = time.time()
    rows = []
    checksums = {}
    for op in ops:
        for typ in types:
            for n in sizes:
                if not is_square(n) and op not in PRODUCTS:
                    continue
                active = [v for v in VARIANTS
                          if op in v[4] and (v[5] is None or
                                             (is_square(n) and n <= v[5]))
                          and (is_square(n) or v[2] in ("matc", "blas",
                                                         "eigen", "fma"))]
                for r in range(rounds):
                    # Rotate the order every round.
                    order = active[r % len(active):] + active[:r % len(active)]
                    for v in order:
                        times, checksum = measure(
                            build_dir, v, op, typ,
                            PEAK_MILLIONS if v[2] == "fma" else n,
                            reps_for(v, op, typ, n), args.warm_malloc)
                        checksums[(v[0], v[3], op, typ, n)] = checksum
                        for i, t in enumerate(times):
                            rows.append((v[0], v[3], op, typ, n, r, i, t))
                log("  %s %s n=%s done (%.0f s)" % (op, typ, n,
                                                    time.time() - started))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["variant", "threads", "op", "type", "n", "round",
                         "rep", "seconds"])
        writer.writerows(rows)
    summary = report(rows, checksums, sizes, ops, types)
    summary += "\nSweep: %d rounds, %.0f s of runs; malloc: %s.\n" % (
        rounds, time.time() - started,
        "GLIBC_TUNABLES=" + WARM_MALLOC if args.warm_malloc
        else "glibc's defaults")
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)
    plot(rows, args.out)


def medians(rows):
    grouped = {}
    for variant, threads, op, typ, n, _, _, seconds in rows:
        grouped.setdefault((variant, threads, op, typ, n), []).append(seconds)
    return {k: statistics.median(v) for k, v in grouped.items()}


def peaks(rows):
    """{type: GFLOPS}: the median FMA peak of one core over the run."""
    rates = {}
    for variant, threads, op, typ, n, _, _, rate in rows:
        if variant == "peak":
            rates.setdefault(typ, []).append(rate)
    return {t: statistics.median(r) for t, r in rates.items()}


def report(rows, checksums, sizes, ops, types):
    med = medians([r for r in rows if r[0] != "peak"])
    peak = peaks(rows)
    lines = ["# matc benchmark", "",
             "Wall-clock medians over all repetitions of all rounds; rate = "
             "GFLOPS (products, flops as written) or GB/s (ew); `x` columns: "
             "matc's speed over the baseline's (same thread count); `% peak`: "
             "of the FMA peak measured in the same run (one core; twice that "
             "for 2 threads). " + BLAS_NOTE + ".", "",
             "CPU: %s, %d cores." % (cpu_model(), os.cpu_count() or 0), ""]
    if peak:
        lines += ["FMA peak of one core (median over the run): " +
                  ", ".join("%s %.1f GFLOPS" % (t, peak[t])
                            for t in sorted(peak)), ""]
    for op in ops:
        for typ in types:
            for threads in (1, 2):
                baselines = sorted({v for (v, t, o, ty, n) in med
                                    if t == threads and o == op and ty == typ
                                    and v != "matc"})
                if not any(("matc", threads, op, typ, n) in med
                           for n in sizes):
                    continue
                unit = work(op, typ, 1)[1]
                with_peak = op in PRODUCTS and typ in peak
                lines.append("## %s %s, %d thread%s (%s)" % (
                    op, typ, threads, "s" if threads > 1 else "", unit))
                lines.append("")
                head = ["n", "matc ms", "matc " + unit]
                if with_peak:
                    head.append("matc % peak")
                for b in baselines:
                    head += [b + " " + unit, "x " + b]
                    if with_peak and b == "openblas":
                        head.append("openblas % peak")
                lines.append("| " + " | ".join(head) + " |")
                lines.append("|" + "---|" * len(head))
                for n in sizes:
                    key = ("matc", threads, op, typ, n)
                    if key not in med:
                        continue
                    amount = work(op, typ, n)[0]
                    rate = amount / med[key] / 1e9
                    cells = [str(n), "%.3f" % (1e3 * med[key]),
                             "%.1f" % rate]
                    if with_peak:
                        cells.append("%.0f%%" % (100 * rate /
                                                  (threads * peak[typ])))
                    for b in baselines:
                        other = med.get((b, threads, op, typ, n))
                        if other is None:
                            cells += ["-", "-"]
                        else:
                            cells += ["%.1f" % (amount / other / 1e9),
                                      "%.2f" % (other / med[key])]
                        if with_peak and b == "openblas":
                            cells.append("-" if other is None else "%.0f%%" % (
                                100 * amount / other / 1e9 /
                                (threads * peak[typ])))
                    lines.append("| " + " | ".join(cells) + " |")
                lines.append("")
    lines += targets(med, peak, sizes, types)
    # Results of different implementations must agree: weighted sums of the
    # result within the rounding of a k-term sum (k = the inner dimension;
    # 1 for ew), against the C loops, or OpenBLAS where there are none.
    bad = []
    for (v, t, op, typ, n), value in checksums.items():
        if value is None:
            continue
        cs, mag = value
        ref = checksums.get(("c-fused" if op == "ew" else "c-ikj", 1, op,
                             typ, n)) or checksums.get(("openblas", 1, op,
                                                        typ, n))
        if ref is None or v == "openblas":
            continue
        k = 1 if op == "ew" else dims(n)[1]
        u = 2.0 ** -24 if typ == "f32" else 2.0 ** -53
        if abs(cs - ref[0]) > 4 * k * u * max(mag, ref[1]) + 1e-30:
            bad.append("%s %dt %s %s n=%s: checksum %.9g, reference %.9g" % (
                v, t, op, typ, n, cs, ref[0]))
    lines.append("Checksums: " + ("all implementations agree." if not bad
                                  else "DISAGREE:\n" + "\n".join(bad)))
    return "\n".join(lines) + "\n"


def targets(med, peak, sizes, types):
    """The speed targets of the product (issue 11), as measured: lines of a
    Markdown table, empty if the sweep has no products."""
    def ratio(op, typ, n, threads=1, base="openblas"):
        m, b = med.get(("matc", threads, op, typ, n)), med.get(
            (base, threads, op, typ, n))
        return None if m is None or b is None else b / m

    def fmt(values):
        return ", ".join("%s %s %.2f" % v for v in values) or "not measured"

    rows = []
    big = [n for n in (1024, 2048) if n in sizes]
    for typ in types:
        at = [(typ, n, ratio("matmul", typ, n)) for n in big]
        at = [v for v in at if v[2] is not None]
        rows.append(("1 thread A @ B %s >= 1.0x OpenBLAS at 1024, 2048" % typ,
                     fmt(at), all(v[2] >= 1.0 for v in at) and bool(at)))
        every = [(typ, n, ratio("matmul", typ, n)) for n in sizes]
        every = [v for v in every if v[2] is not None]
        low = min(every, key=lambda v: v[2]) if every else None
        rows.append(("1 thread A @ B %s: no size below 0.9x OpenBLAS" % typ,
                     "lowest: " + fmt([low] if low else []),
                     bool(low) and low[2] >= 0.9))
        if typ in peak:
            fr = []
            for n in sizes:
                key = ("matc", 1, "matmul", typ, n)
                if key in med and dims(n)[0] >= 512 and dims(n)[2] >= 512:
                    fr.append((typ, n, work("matmul", typ, n)[0] / med[key] /
                               1e9 / peak[typ]))
            low = min(fr, key=lambda v: v[2]) if fr else None
            rows.append(("matc >= 85%% of peak for n >= 512 (%s)" % typ,
                         "lowest: " + fmt([low] if low else []),
                         bool(low) and low[2] >= 0.85))
        for op in ("matmul_bt", "matmul_at"):
            # Speed of the transposed form over the plain one's.
            rel = [(typ, n, med[("matc", 1, "matmul", typ, n)] /
                    med[("matc", 1, op, typ, n)])
                   for n in sizes if ("matc", 1, op, typ, n) in med and
                   ("matc", 1, "matmul", typ, n) in med]
            low = min(rel, key=lambda v: v[2]) if rel else None
            rows.append(("%s %s within 10%% of A @ B (speed ratio)" % (
                op, typ), "lowest: " + fmt([low] if low else []),
                bool(low) and low[2] >= 0.9))
        sc = []
        for n in big:
            one, two = (med.get(("matc", t, "matmul", typ, n)) for t in (1, 2))
            if one and two:
                sc.append((typ, n, one / two))
        rows.append(("2 threads >= 1.85x 1 thread at 1024, 2048 (%s)" % typ,
                     fmt(sc), bool(sc) and all(v[2] >= 1.85 for v in sc)))
    if not any(r[1] != "not measured" for r in rows):
        return []
    lines = ["## Targets (issue 11)", "",
             "| target | measured (matc / baseline, same run) | met |",
             "|---|---|---|"]
    for name, value, met in rows:
        measured = value not in ("not measured", "lowest: not measured")
        lines.append("| %s | %s | %s |" % (
            name, value, "-" if not measured else "yes" if met else "**no**"))
    return lines + [""]


def plot(rows, out):
    """OUT/matmul.png: GFLOPS of A @ B against n (square sizes), one panel
    per type and thread count."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        log("gnuplot not found: no plot")
        return
    med = medians([r for r in rows if r[0] != "peak" and is_square(r[4])])
    data = os.path.join(out, "matmul.dat")
    variants = ["matc", "openblas", "eigen", "c-ikj", "c-ijk"]
    with open(data, "w") as f:
        for typ in TYPES:
            for threads in (1, 2):
                f.write("# %s %dt: n %s\n" % (typ, threads, " ".join(variants)))
                ns = sorted({n for (v, t, o, ty, n) in med
                             if o == "matmul" and ty == typ and t == threads})
                for n in ns:
                    cells = []
                    for v in variants:
                        m = med.get((v, threads, "matmul", typ, n))
                        if m is None and threads == 2:
                            m = None
                        cells.append("%.2f" % (2 * n ** 3 / m / 1e9) if m
                                     else "NaN")
                    f.write("%d %s\n" % (n, " ".join(cells)))
                f.write("\n\n")
    script = os.path.join(out, "matmul.gp")
    with open(script, "w") as f:
        f.write("""set terminal pngcairo noenhanced size 1400,900 font ",11"
set output '%s'
set datafile missing 'NaN'
set multiplot layout 2,2 title "C = A @ B, GFLOPS (wall-clock medians; %s)"
set logscale x 2
set xlabel 'n (n x n times n x n)'
set ylabel 'GFLOPS'
set key left top
set grid
""" % (os.path.join(out, "matmul.png"), BLAS_NOTE))
        index = 0
        for typ in TYPES:
            for threads in (1, 2):
                f.write("set title '%s, %d thread%s'\n" % (
                    typ, threads, "s" if threads > 1 else ""))
                plots = []
                for col, v in enumerate(variants, start=2):
                    plots.append("'%s' index %d using 1:%d with linespoints "
                                 "title '%s'" % (data, index, col, v))
                f.write("plot " + ", ".join(plots) + "\n")
                index += 1
        f.write("unset multiplot\n")
    # A panel without two sizes has no x range: gnuplot fails, the tables
    # stand.
    if subprocess.run([gnuplot, script], capture_output=True).returncode:
        log("gnuplot failed (too few sizes to plot?): no plot")
        return
    log("wrote " + os.path.join(out, "matmul.png"))


if __name__ == "__main__":
    main()
