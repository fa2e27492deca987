#!/usr/bin/env python3
"""Builds every benchmark variant and runs them side by side.

Each benchmark is a folder with one file per runtime sharing one input:
  NAME_cilk.cpp  -> "serial" (clang++ -O2, no plugin: the serial elision)
                    and "weft" (weft-clang++ -O2)
  NAME_tbb.cpp   -> "tbb"  (oneTBB: task_group, parallel_for)
  NAME_omp.cpp   -> "omp"  (clang++ -fopenmp, LLVM libomp)
                    "gomp" (g++ -fopenmp, GCC libgomp)
  NAME.h         -> optional: what the variants share (input, cutoffs,
                    serial leaves, checks)
A BENCHMARKS entry is a folder's name, or another name whose entry names
the folder: then the same programs run on a second input, as rounds_wide
runs bench/rounds at 2000 rounds of 20000 elements where rounds runs 20000
of 2000, so that one set of sources is measured at two shapes.
Runs are interleaved (round r runs every configuration once, in an order
shuffled afresh each round) so that the noise of a shared machine falls on
all of them alike; the table reports
medians, ratios to the serial elision, and peak RSS. Results must agree with
the serial elision, or the run fails.

  bench/run.py [--runs N] [--only fib,...,ligra] [--workers 1,2] [--lace PATH]
               [--ligra PATH]
  bench/run.py --grain-sweep [1,16,...] [--runs N] [--workers 1,2]
  bench/run.py --workspan [--only fib,...] [--workers 1,2]
  bench/run.py --bounds [--runs N] [--only fib,...]

The table replaces the marked section of docs/benchmarks.md; the plot is
docs/benchmarks.png. --grain-sweep instead times the cilkfor benchmark's
Weft build at each `#pragma cilk grainsize` value given (its second
argument), prints the times, which should trace a U: small grains pay a spawn
per few iterations, large ones leave too few pieces to balance the
uneven iterations, and writes them between the grain markers of
docs/benchmarks.md. With --workspan, each NAME_cilk.cpp is built for the
work/span analysis (docs/workspan.md) and run once instead, and a table of
its kernel's work, span and parallelism is printed (no file written);
cilk_for's default grain follows the largest --workers count. --bounds
(bench/bounds.py) sets each benchmark's T1, T2, span, steals and peak RSS
against the work-stealing bounds (T_P <= T1/P + c*T_inf, steals O(P*T_inf),
S_P <= P*S1), with an input-size sweep of fib and cilksort, and writes them
between the bounds markers of docs/benchmarks.md. --no-write prints instead
of writing docs/ in every mode.

--lace PATH (or WEFT_BENCH_LACE=PATH) names a checkout of Lace
(github.com/trolando/lace): its own fib benchmark (benchmarks/fib/fib-lace.c)
is built with its CMake files by clang-19 in Release (-O3) under
build/bench/lace, run in the same interleaved rounds at fib's n and every
--workers count, checked against the serial elision, and added to the
results table as a "Lace fib" row below fib's. Without a checkout the row is
left out and one line says so. Lace's program times RUN(pfib, n) after
lace_start(), so its pool's start-up is outside its time (Weft's is inside).

--ligra PATH (or WEFT_BENCH_LIGRA=PATH) names a checkout of Ligra
(github.com/jshun/ligra): bench/ligra.py builds its BFS, Components and
PageRank with Ligra's own Makefile, as the serial elision and with Weft,
under build/bench/ligra, and runs them on an rMat graph of 2^18 vertices
in interleaved rounds of their own, after the benchmarks, at every
--workers count with Weft's default fences and with WEFT_FENCES=symmetric.
Their table is printed, never written to docs/. With a checkout, "ligra"
is one of the names --only takes (--only ligra runs nothing else) and is
among the defaults; without one, one line says that it is left out.

--baseline PATH names another Weft build tree (for example one of an
earlier commit, built with scripts/build.sh in a worktree): each benchmark
is also built with its bin/weft-clang++, run in the same interleaved rounds
at every --workers count, and shown in a row below the benchmark's, with
this build's T_P over the baseline's at each P, so that a change is
measured against what it changes in one run. Those rows are printed; the
table written to docs/ leaves them out. Ligra's apps (with --ligra) are
built with it too and run at the default fences in Ligra's own rounds.

--other-llvm PATH names a Weft build tree for another LLVM major version
(configured with -DWEFT_LLVM_VERSION=N, e.g. build-llvm22 from
scripts/test.sh): each benchmark's Cilk source is also built as that
version's serial elision (its clang++ -O2) and with its weft-clang++, run
in the same interleaved rounds at every --workers count and checked
against the serial elision, and a second table sets the two versions side
by side: each one's Ts, T_P, T1/Ts (against its own serial elision) and
T1/T_Pmax, and the other version's times over this build's. It goes
between the llvm-versions markers of docs/benchmarks.md.

Needs build/ (scripts/build.sh) and the peers from scripts/setup.sh.
"""
import argparse
import csv
import functools
import os
import platform
import random
import statistics
import subprocess
import sys
import time

import bounds
import ligra

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
OUT_DIR = os.path.join(BUILD, "bench")


def llvm_of(tree):
    """A Weft build tree's LLVM version and the clang++ its drivers run
    (from its CMakeCache.txt; 19's before it is configured)."""
    cache, found = os.path.join(tree, "CMakeCache.txt"), {}
    if os.path.exists(cache):
        for line in open(cache):
            key, _, value = line.partition("=")
            found[key.split(":")[0]] = value.strip()
    return (found.get("WEFT_LLVM_VERSION", "19"),
            found.get("WEFT_CLANGXX", "/usr/lib/llvm-19/bin/clang++"))


# The serial elision and the peers are built by build/'s clang++.
LLVM_VERSION, CLANGXX = llvm_of(BUILD)

# name -> command-line arguments (the input), a short description and,
# when the name is not a folder of bench/, the folder whose programs it runs.
BENCHMARKS = {
    "fib": (["36"], "fib(36), no coarsening"),
    "nqueens": (["12"], "nqueens(12), alloca'd boards, a spawn per safe column"),
    "matmul": (["1024"], "1024^2 doubles, 32^3 leaves, no temporaries"),
    "cilksort": (["10000000"], "10^7 longs, serial below 2048"),
    "cilkfor": (["4194304"], "flat parallel loop, 2^22 irregular iterations"),
    "uts": (["10"], "UTS T1: geometric tree of 4,130,071 nodes, SHA-1 per node"),
    "rounds": (["20000", "2000"], "20000 dependent rounds of a 2000-element loop, "
               "20 sqrt per element"),
    "rounds_wide": (["2000", "20000"], "2000 dependent rounds of a 20000-element loop, "
                    "20 sqrt per element", "rounds"),
    "montecarlo": (["4000000"], "pi from 4,000,000 points, two __cilkrts_get_dprand() "
                   "draws each, in a cilk_for (without pedigrees here: "
                   "bench/pedigrees.py)"),
}


def folder(name):
    """The folder of bench/ that holds the benchmark's programs."""
    entry = BENCHMARKS[name]
    return entry[2] if len(entry) > 2 else name


def compile_commands(name):
    """Yields (variant, command, binary) for the files the folder holds."""
    name = folder(name)
    src = os.path.join(ROOT, "bench", name)
    inc = ["-I" + os.path.join(ROOT, "include")]
    out = lambda v: os.path.join(OUT_DIR, f"{name}_{v}")
    cilk = os.path.join(src, f"{name}_cilk.cpp")
    if os.path.exists(cilk):
        yield "serial", [CLANGXX, "-O2", *inc, cilk, "-o", out("serial")], out("serial")
        yield "weft", [os.path.join(BUILD, "bin", "weft-clang++"), "-O2", cilk,
                       "-o", out("weft")], out("weft")
    tbb = os.path.join(src, f"{name}_tbb.cpp")
    if os.path.exists(tbb):
        yield "tbb", [CLANGXX, "-O2", tbb, "-o", out("tbb"), "-ltbb"], out("tbb")
    omp = os.path.join(src, f"{name}_omp.cpp")
    if os.path.exists(omp):
        yield "omp", [CLANGXX, "-O2", "-fopenmp", omp, "-o", out("omp")], out("omp")
        yield "gomp", ["g++", "-O2", "-fopenmp", omp, "-o", out("gomp")], out("gomp")


def build(names):
    """Builds each folder's variants once, however many entries run them;
    returns {(name, variant): binary}."""
    os.makedirs(OUT_DIR, exist_ok=True)
    binaries = {}
    for name in names:
        for variant, cmd, binary in compile_commands(name):
            if binary not in binaries.values():
                subprocess.run(cmd, check=True)
            binaries[(name, variant)] = binary
    return binaries


def baseline_driver(tree):
    """The weft-clang++ of the --baseline build tree; exits if it has none."""
    driver = os.path.join(tree, "bin", "weft-clang++")
    if not os.path.exists(driver):
        sys.exit(f"--baseline {tree}: no bin/weft-clang++ there")
    return driver


def round_order():
    """What shuffles the configurations afresh each round (bench/run.py,
    ligra.py, parlaylib.py). In a fixed order a configuration always follows
    the same one, and a run right after a long oversubscribed one (a peer's
    fib at P=2) starts on a hotter, busier machine than a run after a short
    one. Seeded, so a rerun repeats the order."""
    return random.Random(0)


def build_baseline(tree, names):
    """Builds each benchmark's Cilk source with the weft-clang++ of another
    build tree; returns {(name, "baseline"): binary}."""
    driver = baseline_driver(tree)
    binaries = {}
    for name in names:
        src = os.path.join(ROOT, "bench", folder(name), f"{folder(name)}_cilk.cpp")
        binary = os.path.join(OUT_DIR, f"{folder(name)}_baseline")
        if binary not in binaries.values():
            subprocess.run([driver, "-O2", src, "-o", binary], check=True)
        binaries[(name, "baseline")] = binary
    return binaries


def build_other_llvm(tree, names):
    """Builds each benchmark's Cilk source as the serial elision with the
    clang++ of another LLVM version's Weft build tree, and with its
    weft-clang++; returns (version, {(name, "serial-other" or "weft-other"):
    binary})."""
    version, clangxx = llvm_of(tree)
    driver = os.path.join(tree, "bin", "weft-clang++")
    if not os.path.exists(driver):
        sys.exit(f"--other-llvm {tree}: no bin/weft-clang++ there")
    if version == LLVM_VERSION:
        sys.exit(f"--other-llvm {tree}: built for LLVM {version}, as build/ is")
    inc = "-I" + os.path.join(ROOT, "include")
    binaries = {}
    for name in names:
        src = os.path.join(ROOT, "bench", folder(name), f"{folder(name)}_cilk.cpp")
        for variant, cmd in (("serial-other", [clangxx, "-O2", inc]),
                             ("weft-other", [driver, "-O2"])):
            binary = os.path.join(OUT_DIR, f"{folder(name)}_{variant}{version}")
            if binary not in binaries.values():
                subprocess.run([*cmd, src, "-o", binary], check=True)
            binaries[(name, variant)] = binary
    return version, binaries


def build_lace(checkout):
    """Builds Lace's fib benchmark from the checkout with its own CMake files
    and clang-19 (Release: -O3), under OUT_DIR/lace; returns the binary.
    Lace builds with -march=native; AVX-512 is turned off on top of it
    (-mno-avx512f), since valgrind, which counts the instructions of its
    spawn (spawn_cost.py), cannot run AVX-512 code, and the scheduler's
    scalar code has no use for it."""
    if not os.path.exists(os.path.join(checkout, "benchmarks", "fib", "fib-lace.c")):
        sys.exit(f"--lace {checkout}: not a Lace checkout (no benchmarks/fib/fib-lace.c)")
    build_dir = os.path.join(OUT_DIR, "lace")
    llvm_bin = os.path.dirname(CLANGXX)
    subprocess.run(["cmake", "-S", checkout, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                    "-DCMAKE_C_COMPILER=" + os.path.join(llvm_bin, "clang"),
                    "-DCMAKE_CXX_COMPILER=" + CLANGXX, "-DLACE_BUILD_TESTS=OFF",
                    "-DCMAKE_C_FLAGS=-mno-avx512f", "-DCMAKE_CXX_FLAGS=-mno-avx512f"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "--target", "fib-lace"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(build_dir, "benchmarks", "fib-lace")


def run_lace_once(binary, args, workers):
    """Runs Lace's fib, which prints "fib(n) = r" and "Time: seconds"; it
    reports no peak RSS (and getrusage's would include the forking parent's)."""
    proc = subprocess.run([binary, "-w", str(workers), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{binary} -w {workers} {' '.join(args)} failed ({proc.returncode}): "
                 f"{proc.stderr}")
    lines = proc.stdout.splitlines()
    result = next(l.split("=", 1)[1].strip() for l in lines if l.startswith("fib("))
    seconds = next(float(l.split(":", 1)[1]) for l in lines if l.startswith("Time:"))
    return result, seconds, None


def run_once(binary, args, workers):
    env = dict(os.environ, WEFT_NWORKERS=str(workers), OMP_NUM_THREADS=str(workers),
               BENCH_THREADS=str(workers))
    proc = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)} failed ({proc.returncode}): {proc.stderr}")
    fields = dict(kv.split("=", 1) for line in proc.stdout.splitlines()
                  if line.startswith("bench:") for kv in line.split()[1:])
    return fields["result"], float(fields["seconds"]), int(fields["rss_kb"])


def configurations(binaries, names, workers):
    for name in names:
        for (bench, variant), binary in binaries.items():
            if bench != name:
                continue
            for p in ([1] if variant.startswith("serial") else workers):
                yield name, variant, p, binary


def measure(binaries, names, workers, runs):
    samples = {}
    configs = list(configurations(binaries, names, workers))
    order = round_order()
    for r in range(runs):
        order.shuffle(configs)
        for name, variant, p, binary in configs:
            runner = run_lace_once if variant == "lace" else run_once
            result, seconds, rss = runner(binary, BENCHMARKS[name][0], p)
            samples.setdefault((name, variant, p), []).append((result, seconds, rss))
        print(f"bench: round {r + 1}/{runs} done", file=sys.stderr)
    medians = {}
    for key, values in samples.items():
        results = {v[0] for v in values}
        expected = samples[(key[0], "serial", 1)][0][0]
        if results != {expected}:
            sys.exit(f"{key}: results {results} differ from the serial elision's {expected}")
        rss = [v[2] for v in values if v[2] is not None]
        medians[key] = (statistics.median(v[1] for v in values), max(rss) if rss else None)
    return medians


@functools.lru_cache(maxsize=None)
def loop_spawns(n, grain):
    """Spawns of a cilk_for over n iterations: runtime/parallel_for.cpp halves
    a range until it is at most the grain, spawning the upper half."""
    if n <= grain:
        return 0
    return 1 + loop_spawns(n // 2, grain) + loop_spawns(n - n // 2, grain)


def grain_sweep(grains, workers, runs, command, out):
    """Prints cilkfor's Weft times at each grain, checked against the serial
    elision, and with out writes them between the grain markers of out."""
    binaries = build(["cilkfor"])
    n = BENCHMARKS["cilkfor"][0]
    expected, ts, _ = run_once(binaries[("cilkfor", "serial")], n, 1)
    samples = {}
    for r in range(runs):
        for grain in grains:
            for p in workers:
                result, seconds, _ = run_once(binaries[("cilkfor", "weft")],
                                              [*n, str(grain)], p)
                if result != expected:
                    sys.exit(f"cilkfor at grain {grain}, P={p}: result {result}, "
                             f"serial elision {expected}")
                samples.setdefault((grain, p), []).append(seconds)
        print(f"bench: round {r + 1}/{runs} done", file=sys.stderr)
    lines = [measured_line(runs, command), "",
             f"cilkfor, {n[0]} iterations: Weft times by grain; "
             f"serial elision {fmt(ts)} s.", ""]
    lines.append("| grain | spawns | " + " | ".join(f"T{p} (s)" for p in workers) + " |")
    lines.append("|---|---|" + "---|" * len(workers))
    for grain in grains:
        spawns = loop_spawns(int(n[0]), grain)
        times = [fmt(statistics.median(samples[(grain, p)])) for p in workers]
        lines.append(f"| {grain} | {spawns} | " + " | ".join(times) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        splice(out, text, "<!-- grain:begin -->", "<!-- grain:end -->")


def workspan_table(names, workers):
    """Builds each Weft variant for the work/span analysis, runs it once, and
    prints its kernel's row of the analysis's CSV as a Markdown table."""
    os.makedirs(OUT_DIR, exist_ok=True)
    print("| benchmark | work T1 (s) | span T_inf (s) | parallelism "
          "| burdened parallelism |")
    print("|---|---|---|---|---|")
    for name in names:
        src = os.path.join(ROOT, "bench", folder(name), f"{folder(name)}_cilk.cpp")
        binary = os.path.join(OUT_DIR, f"{name}_workspan")
        subprocess.run([os.path.join(BUILD, "bin", "weft-clang++"), "--weft-workspan",
                        "-O2", src, "-o", binary], check=True)
        out = binary + ".csv"
        env = dict(os.environ, WEFT_NWORKERS=str(max(workers)), WEFT_WORKSPAN_OUT=out)
        subprocess.run([binary, *BENCHMARKS[name][0]], env=env, check=True,
                       capture_output=True)
        with open(out) as f:
            row = next(r for r in csv.DictReader(f) if r["tag"] == "kernel")
        print(f"| {name}: {BENCHMARKS[name][1]} | {float(row['work (seconds)']):.4f} "
              f"| {float(row['span (seconds)']):.6f} | {float(row['parallelism']):.1f} "
              f"| {float(row['burdened_parallelism']):.1f} |")


def fmt(seconds):
    return f"{seconds:.3f}" if seconds >= 0.01 else f"{seconds:.4f}"


def splice(path, text, begin="<!-- results:begin -->", end="<!-- results:end -->"):
    """Replaces what stands between the markers in path with text."""
    doc = open(path).read()
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + end + tail)


def measured_line(runs, command, what="interleaved runs"):
    """The date, machine, its load when the table was written (other jobs on a
    shared machine slow the runs), run count and command line above each table."""
    machine = f"{platform.node()}: {os.cpu_count()} CPUs, {platform.platform()}"
    load = ", ".join(f"{l:.1f}" for l in os.getloadavg())
    return (f"Measured {time.strftime('%Y-%m-%d')} on {machine} (load average "
            f"{load} at the end); median of {runs} {what}. Command: `{command}`")


def write_table(medians, names, workers, runs, command, out):
    pmax = max(workers)
    lines = [measured_line(runs, command)]
    lines.append("")
    head = ["benchmark", "Ts serial (s)"]
    for p in workers:
        head.append(f"Weft T{p} (s)")
    head += ["T1/Ts", f"T1/T{pmax}"]
    peers = ["tbb", "omp", "gomp"]
    peer_names = {"tbb": "oneTBB", "omp": "OpenMP libomp", "gomp": "OpenMP libgomp"}
    for peer in peers:
        for p in workers:
            head.append(f"{peer_names[peer]} T{p} (s)")
    head += [f"peer T{pmax} / Weft T{pmax} (best peer)", "peak RSS Weft / serial (MiB)"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for name in names:
        ts, rss_s = medians[(name, "serial", 1)]
        row = [f"{name}: {BENCHMARKS[name][1]}", fmt(ts)]
        for p in workers:
            row.append(fmt(medians[(name, "weft", p)][0]))
        t1 = medians[(name, "weft", 1)][0]
        tp = medians[(name, "weft", pmax)][0]
        row += [f"{t1 / ts:.2f}", f"{t1 / tp:.2f}"]
        best_peer = None
        for peer in peers:
            for p in workers:
                m = medians.get((name, peer, p))
                row.append(fmt(m[0]) if m else "-")
                if m and p == pmax:
                    best_peer = m[0] if best_peer is None else min(best_peer, m[0])
        row.append(f"{best_peer / tp:.1f}x" if best_peer else "-")
        rss_w = max(medians[(name, "weft", p)][1] for p in workers)
        row.append(f"{rss_w / 1024:.1f} / {rss_s / 1024:.1f}")
        lines.append("| " + " | ".join(row) + " |")
        if (name, "lace", 1) in medians:
            lines.append(lace_row(medians, name, workers, len(head)))
        if (name, "baseline", 1) in medians:
            lines.append(baseline_row(medians, name, workers, len(head)))
    # The baseline's rows compare two builds for one change: printed, never
    # written into the project's results.
    if out:
        splice(out, "\n".join(l for l in lines if ", baseline build |" not in l) + "\n")
    if not out or any(", baseline build |" in l for l in lines):
        print("\n".join(lines))


def baseline_row(medians, name, workers, columns):
    """The baseline build's row: its times in the Weft columns, its ratios to
    the same serial elision, and this build's T_P over the baseline's at each
    P in the peer column."""
    pmax = max(workers)
    ts = medians[(name, "serial", 1)][0]
    t1 = medians[(name, "baseline", 1)][0]
    tp = medians[(name, "baseline", pmax)][0]
    row = [f"{name}, baseline build", fmt(ts),
           *(fmt(medians[(name, "baseline", p)][0]) for p in workers),
           f"{t1 / ts:.2f}", f"{t1 / tp:.2f}"]
    row += ["-"] * (columns - len(row) - 2)
    ratios = ", ".join(f"T{p} {medians[(name, 'weft', p)][0] / medians[(name, 'baseline', p)][0]:.3f}"
                       for p in workers)
    row += [f"this / baseline: {ratios}", "-"]
    return "| " + " | ".join(row) + " |"


def llvm_versions_table(medians, names, workers, runs, command, other):
    """This build's LLVM version and the other's side by side, each against
    its own serial elision."""
    this = LLVM_VERSION
    pmax = max(workers)
    lines = [measured_line(runs, command), ""]
    head = ["benchmark"]
    for v in (this, other):
        head += [f"LLVM {v} Ts (s)", *(f"LLVM {v} T{p} (s)" for p in workers),
                 f"LLVM {v} T1/Ts", f"LLVM {v} T1/T{pmax}"]
    head += [f"T{p} {other} / {this}" for p in workers]
    head.append(f"Ts {other} / {this}")
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        row = [name]
        for serial, weft in (("serial", "weft"), ("serial-other", "weft-other")):
            ts = medians[(name, serial, 1)][0]
            t = {p: medians[(name, weft, p)][0] for p in workers}
            row += [fmt(ts), *(fmt(t[p]) for p in workers),
                    f"{t[1] / ts:.2f}", f"{t[1] / t[pmax]:.2f}"]
        row += [f"{medians[(name, 'weft-other', p)][0] / medians[(name, 'weft', p)][0]:.2f}"
                for p in workers]
        row.append(f"{medians[(name, 'serial-other', 1)][0] / medians[(name, 'serial', 1)][0]:.2f}")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def lace_row(medians, name, workers, columns):
    """The "Lace fib" row: Lace's times in the Weft columns, its ratios to the
    same serial elision, and Lace's T_P over Weft's in the peer column."""
    pmax = max(workers)
    ts = medians[(name, "serial", 1)][0]
    t1 = medians[(name, "lace", 1)][0]
    tp = medians[(name, "lace", pmax)][0]
    row = [f"Lace fib: {name}({BENCHMARKS[name][0][0]}), trolando/lace fib-lace, clang-19 -O3",
           fmt(ts), *(fmt(medians[(name, "lace", p)][0]) for p in workers),
           f"{t1 / ts:.2f}", f"{t1 / tp:.2f}"]
    row += ["-"] * (columns - len(row) - 2)
    row += [f"{tp / medians[(name, 'weft', pmax)][0]:.2f}x (Lace)", "-"]
    return "| " + " | ".join(row) + " |"


def write_plot(medians, names, workers, out_png):
    data = out_png + ".dat"
    pmax = max(workers)
    with open(data, "w") as f:
        f.write("bench T1/Ts speedup peer/weft\n")
        for name in names:
            ts = medians[(name, "serial", 1)][0]
            t1 = medians[(name, "weft", 1)][0]
            tp = medians[(name, "weft", pmax)][0]
            peers = [medians[(name, v, pmax)][0] for v in ("tbb", "omp", "gomp")
                     if (name, v, pmax) in medians]
            f.write(f"{name} {t1 / ts:.3f} {t1 / tp:.3f} "
                    f"{(min(peers) / tp) if peers else 0:.3f}\n")
    script = f"""
set terminal pngcairo size 900,420 font ",10"
set output '{out_png}'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set key top left
set ylabel 'ratio (log scale)'
set title 'Weft: work overhead T1/Ts, speedup T1/T{pmax}, best peer T{pmax} / Weft T{pmax}'
plot '{data}' using 2:xtic(1) title 'T1/Ts (lower is better)', \\
     '' using 3 title 'T1/T{pmax} speedup', \\
     '' using 4 title 'best peer / Weft at P={pmax}'
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", help="benchmarks to run, and \"ligra\" "
                    "(default: all, and ligra with a Ligra checkout)")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--plot", default=os.path.join(ROOT, "docs", "benchmarks.png"))
    ap.add_argument("--grain-sweep", nargs="?", const="1,16,256,2048,16384,131072,1048576",
                    metavar="G1,G2,...", help="time cilkfor at each grain instead")
    ap.add_argument("--workspan", action="store_true",
                    help="print each kernel's work, span and parallelism instead")
    ap.add_argument("--bounds", action="store_true",
                    help="set T1, T2, span, steals and RSS against the bounds instead")
    ap.add_argument("--no-write", action="store_true",
                    help="print the tables, leave docs/ as it is")
    ap.add_argument("--lace", metavar="PATH", default=os.environ.get("WEFT_BENCH_LACE"),
                    help="a checkout of trolando/lace (default: $WEFT_BENCH_LACE): build "
                    "its fib with clang-19 -O3 and add a \"Lace fib\" row to the results "
                    "table, run in the same rounds at fib's n and each P; left out "
                    "when not given")
    ap.add_argument("--baseline", metavar="PATH",
                    help="another Weft build tree: also build every benchmark with its "
                    "bin/weft-clang++ and run it in the same rounds, as a row below")
    ap.add_argument("--other-llvm", metavar="PATH",
                    help="a Weft build tree for another LLVM version: also build every "
                    "benchmark with its clang++ (serial elision) and weft-clang++, run "
                    "them in the same rounds, and set the versions side by side")
    ap.add_argument("--ligra", metavar="PATH", default=os.environ.get("WEFT_BENCH_LIGRA"),
                    help="a checkout of jshun/ligra (default: $WEFT_BENCH_LIGRA): build "
                    "its BFS, Components and PageRank with its Makefile and time them, "
                    "after the benchmarks, at each P with default and symmetric fences; "
                    "left out when not given")
    a = ap.parse_args()
    # A folder without an entry would silently drop out of the table.
    folders = sorted(d for d in os.listdir(os.path.join(ROOT, "bench"))
                     if os.path.exists(os.path.join(ROOT, "bench", d, f"{d}_cilk.cpp")))
    missing = [d for d in folders if d not in BENCHMARKS]
    if missing:
        sys.exit(f"bench/{', bench/'.join(missing)}: no entry in BENCHMARKS")
    # Ligra's apps run in the default mode only.
    main_mode = not (a.workspan or a.bounds or a.grain_sweep)
    if a.only is None:
        names = [*BENCHMARKS, *(["ligra"] if a.ligra and main_mode else [])]
    else:
        names = [n for n in a.only.split(",") if n]
    with_ligra = "ligra" in names
    names = [n for n in names if n != "ligra"]
    if with_ligra and not main_mode:
        sys.exit("--only ligra: Ligra's apps run without --workspan, --bounds "
                 "and --grain-sweep")
    if with_ligra and not a.ligra:
        sys.exit("--only ligra: no Ligra checkout (--ligra PATH or WEFT_BENCH_LIGRA)")
    for n in names:
        if n not in BENCHMARKS:
            sys.exit(f"unknown benchmark {n}; known: {', '.join(BENCHMARKS)}, ligra")
    workers = [int(w) for w in a.workers.split(",")]
    if 1 not in workers:
        sys.exit("--workers must include 1 (T1 is the reference)")
    command = ("bench/run.py " + " ".join(sys.argv[1:])).strip()
    if a.workspan:
        workspan_table(names, workers)
        return
    if a.bounds:
        bounds.bounds(sys.modules[__name__], names, a.runs, command, a.out,
                      write=not a.no_write)
        return
    if a.grain_sweep:
        grains = [int(g) for g in a.grain_sweep.split(",")]
        if min(grains) < 1:
            sys.exit("--grain-sweep: grains are positive")
        grain_sweep(grains, workers, a.runs, command, None if a.no_write else a.out)
        return
    if not with_ligra and a.only is None:
        print("bench: no Ligra checkout (--ligra PATH or WEFT_BENCH_LIGRA): "
              "Ligra's apps are left out", file=sys.stderr)
    if names:
        benchmarks(a, names, workers, command)
    if with_ligra:
        ligra.ligra(sys.modules[__name__], a.ligra, workers, a.runs, command,
                    os.path.abspath(a.baseline) if a.baseline else None)


def benchmarks(a, names, workers, command):
    """The default mode's table of the bench/ folders, with Lace's fib row."""
    binaries = build(names)
    if a.baseline:
        binaries.update(build_baseline(os.path.abspath(a.baseline), names))
    other = None
    if a.other_llvm:
        other, other_binaries = build_other_llvm(os.path.abspath(a.other_llvm), names)
        binaries.update(other_binaries)
    if "fib" in names and a.lace:
        binaries[("fib", "lace")] = build_lace(os.path.abspath(a.lace))
    elif "fib" in names:
        print("bench: no Lace checkout (--lace PATH or WEFT_BENCH_LACE): "
              "the Lace fib row is left out", file=sys.stderr)
    medians = measure(binaries, names, workers, a.runs)
    versions = other and llvm_versions_table(medians, names, workers, a.runs,
                                             command, other)
    if a.no_write:
        write_table(medians, names, workers, a.runs, command, None)
        if versions:
            print(versions)
        return
    write_table(medians, names, workers, a.runs, command, a.out)
    if versions:
        splice(a.out, versions, "<!-- llvm-versions:begin -->",
               "<!-- llvm-versions:end -->")
    write_plot(medians, names, workers, a.plot)
    print(f"bench: results written to {a.out} and {a.plot}", file=sys.stderr)


if __name__ == "__main__":
    main()
