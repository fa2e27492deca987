#!/usr/bin/env python3
"""What pedigrees cost: each benchmark built without and with them.

Builds fib, cilksort, rounds and the Monte Carlo kernel (bench/montecarlo)
three ways, the serial elision (clang++ -O2), Weft (weft-clang++ -O2) and
Weft with pedigrees (weft-clang++ -O2 --weft-pedigrees), runs them in
interleaved rounds at one and two workers, checks every result against the
serial elision's, and prints the medians with T1/Ts and the pedigree
build's ratio to the plain one; the table replaces the section between the
pedigree markers of docs/benchmarks.md (--no-write prints it only).

  bench/pedigrees.py [--runs N] [--workers 1,2] [--no-write]
"""
import argparse
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import run as bench_run  # noqa: E402  (the same build tree, protocol, splice)

BENCHMARKS = {
    "fib": ["36"],
    "cilksort": ["10000000"],
    "rounds": ["20000", "2000"],
    "montecarlo": ["4000000"],
}
VARIANTS = {
    "serial": [bench_run.CLANGXX, "-O2", "-I" + os.path.join(ROOT, "include")],
    "weft": [os.path.join(bench_run.BUILD, "bin", "weft-clang++"), "-O2"],
    "pedigrees": [os.path.join(bench_run.BUILD, "bin", "weft-clang++"), "-O2",
                  "--weft-pedigrees"],
}


def build():
    os.makedirs(bench_run.OUT_DIR, exist_ok=True)
    binaries = {}
    for name in BENCHMARKS:
        src = os.path.join(ROOT, "bench", name, f"{name}_cilk.cpp")
        for variant, cmd in VARIANTS.items():
            binary = os.path.join(bench_run.OUT_DIR, f"{name}_{variant}_ped")
            subprocess.run([*cmd, src, "-o", binary], check=True)
            binaries[(name, variant)] = binary
    return binaries


def measure(binaries, workers, runs):
    samples = {}
    for r in range(runs):
        for (name, variant), binary in binaries.items():
            for p in ([1] if variant == "serial" else workers):
                result, seconds, _ = bench_run.run_once(binary, BENCHMARKS[name], p)
                samples.setdefault((name, variant, p), []).append((result, seconds))
        print(f"pedigrees: round {r + 1}/{runs} done", file=sys.stderr)
    medians = {}
    for key, values in samples.items():
        expected = samples[(key[0], "serial", 1)][0][0]
        if {v[0] for v in values} != {expected}:
            sys.exit(f"{key}: results differ from the serial elision's {expected}")
        medians[key] = statistics.median(v[1] for v in values)
    return medians


def table(medians, workers, runs):
    lines = [f"Medians of {runs} interleaved runs (`bench/pedigrees.py --runs {runs}`), "
             "seconds; Ts is the serial elision.", "",
             "| benchmark | Ts | T1 | T1 with pedigrees | pedigrees / plain, T1 |"
             + "".join(f" T{p} | T{p} with pedigrees |" for p in workers if p != 1),
             "|---|---|---|---|---|" + "---|---|" * len([p for p in workers if p != 1])]
    for name in BENCHMARKS:
        ts = medians[(name, "serial", 1)]
        t1 = medians[(name, "weft", 1)]
        p1 = medians[(name, "pedigrees", 1)]
        row = (f"| {name} | {ts:.4f} | {t1:.4f} ({t1 / ts:.2f} Ts) | "
               f"{p1:.4f} ({p1 / ts:.2f} Ts) | {p1 / t1:.2f} |")
        for p in workers:
            if p != 1:
                row += (f" {medians[(name, 'weft', p)]:.4f} |"
                        f" {medians[(name, 'pedigrees', p)]:.4f} |")
        lines.append(row)
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    workers = [int(w) for w in a.workers.split(",")]
    text = table(measure(build(), workers, a.runs), workers, a.runs)
    print(text)
    if not a.no_write:
        bench_run.splice(os.path.join(ROOT, "docs", "benchmarks.md"), text,
                         "<!-- pedigrees:begin -->", "<!-- pedigrees:end -->")


if __name__ == "__main__":
    main()
