#!/usr/bin/env python3
"""Measures what the race detector costs: time and peak memory of each
benchmark built with `weft-clang++ --weft-race -O2` against its serial
elision (`clang++-19 -O2`, no plugin), as docs/race.md reports them.

  bench/race_cost.py [--runs N] [--only fib,...] [--build DIR] [--no-write]

Runs alternate (round r runs every build once), so that the noise of a
shared machine falls on both alike; the table gives medians of the
programs' own timing of their kernels and of their peak RSS, and the
ratios. Both builds must print the same result. The table replaces the
section between the race-cost markers of docs/race.md unless --no-write.

Needs build/ (scripts/build.sh), or the build tree --build names.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
CLANGXX = "/usr/lib/llvm-19/bin/clang++"
DOC = os.path.join(ROOT, "docs", "race.md")
BEGIN, END = "<!-- race-cost:begin -->", "<!-- race-cost:end -->"

# name -> (arguments, the size as the table shows it). Sizes that a
# detector run finishes in seconds.
BENCHMARKS = {
    "cilksort": (["2000000"], "2,000,000"),
    "matmul": (["512"], "512"),
    "fib": (["30"], "30"),
    "nqueens": (["11"], "11"),
}

LINE = re.compile(r"bench: result=(\S+) seconds=(\S+) rss_kb=(\d+)")


def build(name, tree):
    source = os.path.join(ROOT, "bench", name, f"{name}_cilk.cpp")
    out = os.path.join(tree, "bench", "race")
    os.makedirs(out, exist_ok=True)
    serial = os.path.join(out, f"{name}_serial")
    race = os.path.join(out, f"{name}_race")
    subprocess.run([CLANGXX, "-O2", "-I", os.path.join(ROOT, "include"),
                    source, "-o", serial], check=True)
    subprocess.run([os.path.join(tree, "bin", "weft-clang++"), "--weft-race",
                    "-O2", source, "-o", race], check=True)
    return serial, race


def run(binary, args):
    """(result, seconds, peak RSS in KiB) of one run; a race-mode run must
    end with no race found."""
    p = subprocess.run([binary] + args, capture_output=True, text=True)
    m = LINE.search(p.stdout + p.stderr)
    if p.returncode != 0 or not m:
        sys.exit(f"race_cost: {binary} failed ({p.returncode}):\n{p.stderr}")
    return m.group(1), float(m.group(2)), int(m.group(3))


def measure(names, runs, tree):
    builds = {n: build(n, tree) for n in names}
    samples = {n: {"serial": [], "race": []} for n in names}
    for _ in range(runs):
        for n in names:
            for kind, binary in zip(("serial", "race"), builds[n]):
                samples[n][kind].append(run(binary, BENCHMARKS[n][0]))
    rows = []
    for n in names:
        results = {r for kind in samples[n].values() for r, _, _ in kind}
        if len(results) != 1:
            sys.exit(f"race_cost: {n}: results differ: {sorted(results)}")
        ts = statistics.median(s for _, s, _ in samples[n]["serial"])
        tr = statistics.median(s for _, s, _ in samples[n]["race"])
        ms = statistics.median(k for _, _, k in samples[n]["serial"]) / 1024
        mr = statistics.median(k for _, _, k in samples[n]["race"]) / 1024
        rows.append(f"| {n} ({BENCHMARKS[n][1]}) | {ts:.4f} s | {tr:.3f} s | "
                    f"{tr / ts:.1f} | {ms:.1f} MB | {mr:.1f} MB | {mr / ms:.1f} |")
    head = ("| benchmark (size) | Ts | T(race) | T(race)/Ts | "
            "peak RSS serial | race | ratio |\n|---|---|---|---|---|---|---|")
    return head + "\n" + "\n".join(rows) + f"\n\n(medians of {runs} alternating runs)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default=",".join(BENCHMARKS))
    ap.add_argument("--build", default=BUILD, help="the Weft build tree")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        sys.exit(f"race_cost: unknown benchmark(s): {', '.join(unknown)}")
    table = measure(names, a.runs, os.path.abspath(a.build))
    print(table)
    if a.no_write:
        return
    doc = open(DOC).read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"race_cost: the markers are missing from {DOC}")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    open(DOC, "w").write(f"{head}{BEGIN}\n{table}\n{END}{tail}")


if __name__ == "__main__":
    main()
