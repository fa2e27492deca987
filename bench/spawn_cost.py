#!/usr/bin/env python3
"""What one spawn costs: fib with no coarsening, Weft beside Lace, as the
"Spawn cost against Lace" section of docs/benchmarks.md reports it.

  bench/spawn_cost.py --lace PATH [--runs N] [--n 38] [--build DIR] [--no-write]

fib is nothing but spawns, so its time is the spawn path's, and it is the
benchmark most at the mercy of where the linker puts the recursive
function: moving it by a few bytes changes how the processor's front end
and branch predictors see the hot code, and on the machine these docs
were measured on that alone moves fib by up to 30%, for Weft and Lace alike
(see the spread columns). One build of each is one draw. So this script
compiles each variant to assembly once, places the recursive function at
8 offsets from a 64-byte boundary (0, 8, ..., 56 bytes of padding before
it), assembles each placement, and reports for each variant the median
over placements of the median over rounds, with the fastest and slowest
placement. Rounds interleave every placement of every variant.

  serial  the serial elision, clang++ -O2 (Ts; its fib placed the same way)
  weft    weft-clang++ -O2, the fast clone of fib placed
  lace    Lace's own benchmarks/fib/fib-lace.c, clang -O3 like Lace's
          Release build (without its -flto, which would leave no
          assembly to place), linked with the liblace.a that run.py's
          --lace builds; pfib_CALL placed

Instructions per spawn come from callgrind: the instructions executed in
the fib functions and the runtime's spawn-path functions (self cost,
summed over threads) for fib(25) minus fib(20), over the 110,447 spawns
between them. Cycles per spawn come from `perf stat -e cycles` the same
way when the machine has a cycle counter; a virtual machine often has
none, and then the column says so.

Needs build/ (scripts/build.sh), valgrind, and a Lace checkout.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import run as bench_run

ROOT = bench_run.ROOT
CLANG = "/usr/lib/llvm-19/bin/clang"
CLANGXX = bench_run.CLANGXX
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
BEGIN, END = "<!-- spawn-cost:begin -->", "<!-- spawn-cost:end -->"
PLACEMENTS = [0, 8, 16, 24, 32, 40, 48, 56]
FIB_SOURCE = os.path.join(ROOT, "bench", "fib", "fib_cilk.cpp")


def fib_spawns(n):
    """Spawns of fib(n): one per call with n >= 2, that is fib(n + 1) - 1."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return a - 1


def place(asm, symbol, padding):
    """\\p asm with \\p symbol starting \\p padding bytes after a 64-byte
    boundary."""
    label = re.search(rf"^{re.escape(symbol)}:", asm, re.M)
    if not label:
        sys.exit(f"spawn_cost: no {symbol} in the assembly")
    pad = f"\t.p2align 6\n" + (f"\t.nops {padding}\n" if padding else "")
    return asm[:label.start()] + pad + asm[label.start():]


class Variant:
    def __init__(self, name, symbol, compile_asm, assemble, lace=False):
        self.name, self.symbol = name, symbol
        self.compile_asm, self.assemble, self.lace = compile_asm, assemble, lace
        self.binaries = {}

    def build(self, work):
        asm_path = os.path.join(work, f"{self.name}.s")
        subprocess.run(self.compile_asm(asm_path), check=True)
        asm = open(asm_path).read()
        for padding in PLACEMENTS:
            placed = os.path.join(work, f"{self.name}_{padding}.s")
            with open(placed, "w") as f:
                f.write(place(asm, self.symbol, padding))
            binary = os.path.join(work, f"{self.name}_{padding}")
            subprocess.run(self.assemble(placed, binary), check=True)
            self.binaries[padding] = binary

    def run(self, padding, n, workers):
        """(result, seconds) of one run, read as run.py reads its runs."""
        run_once = bench_run.run_lace_once if self.lace else bench_run.run_once
        return run_once(self.binaries[padding], [str(n)], workers)[:2]

    def command(self, n, workers):
        """The command line and environment of a run of the first placement,
        for the profilers."""
        binary = self.binaries[PLACEMENTS[0]]
        if self.lace:
            return [binary, "-w", str(workers), str(n)], dict(os.environ)
        return [binary, str(n)], dict(os.environ, WEFT_NWORKERS=str(workers))


def variants(build_dir, lace_checkout, lace_build):
    weft_cxx = os.path.join(build_dir, "bin", "weft-clang++")
    include = "-I" + os.path.join(ROOT, "include")
    serial = Variant(
        "serial", "_Z3fibl",
        lambda out: [CLANGXX, "-O2", include, "-S", FIB_SOURCE, "-o", out],
        lambda s, out: [CLANGXX, "-O2", s, "-o", out])
    weft = Variant(
        "weft", "_Z3fibl",
        lambda out: [weft_cxx, "-O2", "-S", FIB_SOURCE, "-o", out],
        lambda s, out: [weft_cxx, "-O2", s, "-o", out])
    lace_includes = ["-I" + os.path.join(lace_checkout, "benchmarks"),
                     "-I" + os.path.join(lace_checkout, "src"), "-I" + lace_build]
    lace_lib = os.path.join(lace_build, "lib", "liblace.a")
    lace = Variant(
        "lace", "pfib_CALL",
        lambda out: [CLANG, "-O3", "-DNDEBUG", "-std=gnu11", *lace_includes, "-S",
                     os.path.join(lace_checkout, "benchmarks", "fib", "fib-lace.c"),
                     "-o", out],
        lambda s, out: [CLANG, "-O3", s, "-o", out, lace_lib, "-lpthread", "-lm"],
        lace=True)
    return serial, weft, lace


def measure(all_variants, n, workers, runs):
    """{(variant, P, padding): [seconds]}; every result must be serial's."""
    times = {}
    expected = None
    for r in range(runs):
        for p in workers:
            for v in all_variants:
                if v.name == "serial" and p != workers[0]:
                    continue
                for padding in PLACEMENTS:
                    result, seconds = v.run(padding, n, p)
                    expected = expected or result
                    if result != expected:
                        sys.exit(f"{v.name} at +{padding} gave {result}, not {expected}")
                    times.setdefault((v.name, p, padding), []).append(seconds)
        print(f"spawn_cost: round {r + 1}/{runs} done", file=sys.stderr)
    return times


def over_placements(times, name, p):
    """(median, fastest, slowest) over placements of each one's median."""
    per = [statistics.median(times[(name, p, padding)]) for padding in PLACEMENTS]
    return statistics.median(per), min(per), max(per)


def self_cost(binary, argv, env, pattern):
    """Instructions executed in functions matching \\p pattern, every
    thread's, by callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg")
        subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                        f"--callgrind-out-file={out}", binary, *argv], env=env,
                       check=True, capture_output=True)
        total = 0
        for f in os.listdir(tmp):  # cg-01, cg-02, ...: one per thread
            path = os.path.join(tmp, f)
            if os.path.getsize(path) == 0:
                continue
            report = subprocess.run(["callgrind_annotate", "--threshold=100", path],
                                    capture_output=True, text=True, check=True).stdout
            for line in report.splitlines():
                m = re.match(r"\s*([\d,]+) .*\s(\S+) \[", line)
                if m and re.search(pattern, m.group(2)):
                    total += int(m.group(1).replace(",", ""))
        return total


# The functions a spawn runs in: the program's fib and, for Weft, the
# runtime's spawn path (out of line only when uncommon); Lace's pfib
# functions, into which its spawn path is inlined (its idle workers'
# loops, which spin meanwhile, are not a spawn's cost).
SPAWN_FUNCTIONS = {"weft": r"fib|__weft_|Deque", "lace": r"pfib"}


def instructions_per_spawn(v):
    counts = []
    for n in (20, 25):
        cmd, env = v.command(n, 1)
        counts.append(self_cost(cmd[0], cmd[1:], env, SPAWN_FUNCTIONS[v.name]))
    return (counts[1] - counts[0]) / (fib_spawns(25) - fib_spawns(20))


def cycles_per_spawn(v):
    """None when perf has no cycle counter here."""
    counts = []
    for n in (30, 35):
        cmd, env = v.command(n, 1)
        proc = subprocess.run(["perf", "stat", "-x,", "-e", "cycles", *cmd], env=env,
                              capture_output=True, text=True)
        m = re.search(r"^(\d+),,cycles", proc.stderr, re.M)
        if proc.returncode != 0 or not m:
            return None
        counts.append(int(m.group(1)))
    return (counts[1] - counts[0]) / (fib_spawns(35) - fib_spawns(30))


def table(times, n, workers, runs, per_spawn):
    ts, ts_fast, ts_slow = over_placements(times, "serial", workers[0])
    spawns = fib_spawns(n)
    lines = [
        f"fib({n}), {spawns:,} spawns; each time is the median over {len(PLACEMENTS)} "
        f"placements of fib of the median of {runs} interleaved rounds "
        f"(`bench/spawn_cost.py --runs {runs} --n {n}`), fastest and slowest "
        f"placement in brackets. Ts = {ts:.4f} s [{ts_fast:.4f}, {ts_slow:.4f}].",
        "",
        "| | " + " | ".join(f"T{p} (s) [fastest, slowest]" for p in workers)
        + " | T1/Ts | ns per spawn over Ts | instructions per spawn | cycles per spawn |",
        "|---|" + "---|" * (len(workers) + 4),
    ]
    for name, label in (("weft", "Weft, `-O2`"), ("lace", "Lace, `-O3`")):
        cells = []
        for p in workers:
            mid, fast, slow = over_placements(times, name, p)
            cells.append(f"{mid:.4f} [{fast:.4f}, {slow:.4f}]")
        t1 = over_placements(times, name, 1)[0] if 1 in workers else None
        ratio = f"{t1 / ts:.2f}" if t1 else "-"
        over = f"{(t1 - ts) / spawns * 1e9:.2f}" if t1 else "-"
        instructions, cycles = per_spawn[name]
        cycles_cell = f"{cycles:.1f}" if cycles is not None else "no cycle counter"
        lines.append(f"| {label} | " + " | ".join(cells)
                     + f" | {ratio} | {over} | {instructions:.1f} | {cycles_cell} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lace", default=os.environ.get("WEFT_BENCH_LACE"),
                    help="a checkout of github.com/trolando/lace")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--n", type=int, default=38)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--build", default=bench_run.BUILD, help="Weft's build tree")
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    if not a.lace:
        sys.exit("spawn_cost: needs a Lace checkout (--lace PATH or WEFT_BENCH_LACE)")
    workers = [int(p) for p in a.workers.split(",")]
    lace_checkout = os.path.abspath(a.lace)
    lace_binary = bench_run.build_lace(lace_checkout)  # also builds liblace.a
    lace_build = os.path.dirname(os.path.dirname(lace_binary))
    all_variants = variants(os.path.abspath(a.build), lace_checkout, lace_build)
    with tempfile.TemporaryDirectory(prefix="weft-spawn-cost-") as work:
        for v in all_variants:
            v.build(work)
        per_spawn = {v.name: (instructions_per_spawn(v), cycles_per_spawn(v))
                     for v in all_variants if v.name != "serial"}
        times = measure(all_variants, a.n, workers, a.runs)
    text = table(times, a.n, workers, a.runs, per_spawn)
    if a.no_write:
        print(text)
        return
    bench_run.splice(DOC, text, BEGIN, END)
    print(f"spawn_cost: written to {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
