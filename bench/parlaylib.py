#!/usr/bin/env python3
"""Same code, five schedulers: parlaylib's examples on each of them and Weft.

parlaylib (github.com/cmuparlay/parlaylib; a checkout given by --parlaylib
PATH or WEFT_BENCH_PARLAYLIB, fetched, never copied here) runs the same
algorithms on the scheduler its build chooses. Each example is built six
ways with the same compiler, clang++ at -O3 -std=c++17, the sources
unchanged:

  sequential  -DPARLAY_SEQUENTIAL
  native      parlaylib's own work-stealing scheduler (no define)
  openmp      -DPARLAY_OPENMP -fopenmp (LLVM's libomp)
  tbb         -DPARLAY_TBB, linked with oneTBB
  weft        weft-clang++ -DPARLAY_OPENCILK: each par_do a cilk_spawn,
              each parallel_for a cilk_for
  elision     clang++ -DPARLAY_OPENCILK with Weft's cilk/cilk.h: the same
              source as weft's, compiled as its serial elision

The elision is no peer: it tells Weft's own cost (Weft over the elision)
from that of parlaylib's OpenCilk code, whose par_do spawns the right half
and then runs the left, the reverse of the sequential build's order, and
whose parallel_for splits 9/16 where the others halve.

and run in interleaved rounds at each worker count P: every scheduler is
told P (PARLAY_NUM_THREADS, OMP_NUM_THREADS, WEFT_NWORKERS) and the run is
pinned to P CPUs with taskset, which is how oneTBB learns it. Each example
times its own kernel five times in one process; a run's time is the best of
those, and the table gives the median over the rounds, each scheduler's
ratio to the sequential build, and Weft's ratio to the best of native,
OpenMP and oneTBB, and its ratio to the elision. The table replaces the section between the parlaylib
markers of docs/benchmarks.md (--no-write prints it only).

  bench/parlaylib.py --parlaylib PATH [--runs N] [--workers 1,2]
                     [--examples mergesort,BFS] [--no-build] [--no-write]
                     [--raw FILE] [--from-raw FILE] [--stress N]
                     [--schedulers native,openmp,tbb,weft]

--raw writes every run's time as JSON, to see how far the runs spread: on
a virtual machine the memory-bound examples move by up to 2x from one
process to the next, whichever the scheduler (docs/benchmarks.md). It is
rewritten after every round, and --from-raw FILE makes the table from it
without building or running anything (of a run cut short, the rounds it
ended).

--schedulers names the builds to time; it must hold Weft and the three
peers, which the ratio to the best peer needs. Leaving out the sequential
build and the elision, whose times do not depend on P and whose inputs
are made on one core, makes a round about half as long (a P=2 round of all
49 examples took 6.5 minutes against 13.5 on the 2-vCPU host of
docs/benchmarks.md); the sequential build then runs once per example, untimed,
for the answer the others are checked against, and their columns read -.

--stress N times nothing: it runs Weft's build of each example N times at
each P under WEFT_STRESS=1, which yields after most pushes so that thieves
steal far more often than they would, and checks each answer against the
sequential build's.

Below each P's table, every parallel scheduler is set against the best of
the other three, as Weft is against the best peer in the table: the
smallest of three noisy medians is below a typical one, so a ratio to it
reads above 1 even for a scheduler as fast as the others, and these lines
say how far above it each one reads.
"""
import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import run as bench_run  # noqa: E402  (the build tree, the doc splice)

# Each example and the size it is run at: a kernel of a few hundredths of
# a second to a few tenths on one core, and a whole run (input generation
# included) of at most about ten seconds. The first eight are the examples
# of the first comparison; the rest are every other example that takes a
# size and times its kernel. Left out: the examples that read their input
# from a file (decision_tree_c45, knuth_morris_pratt, lasso_regression,
# longest_common_prefix, longest_repeated_substring, rabin_karp, radix_tree,
# suffix_array, suffix_tree, tokens, word_counts) and those that print no
# kernel time (find_if, kmeans_pp, push_relabel_max_flow).
EXAMPLES = {
    "mergesort": "2000000",
    "BFS": "400000",
    "primes": "20000000",
    "knuth_shuffle": "10000000",
    "kth_smallest": "10000000",
    "maximal_independent_set": "400000",
    "spanning_tree": "400000",
    "quicksort": "2000000",
    "2d_linear_program": "5000000",
    "3d_range": "200000",
    "BFS_ligra": "200000",
    "bellman_ford": "200000",
    "betweenness_centrality": "100000",
    "bigint_add": "100000000",
    "box_kdtree": "100000",
    "bucketed_dijkstra": "200000",
    "cartesian_tree": "10000000",
    "cycle_count": "1000000",
    "delaunay": "50000",
    "fast_fourier_transform": "2000000",
    "filter": "100000000",
    "filter_kruskal": "100000",
    "flatten": "50000000",
    "graph_color": "100000",
    "hash_map": "5000000",
    "huffman_tree": "500000",
    "karatsuba": "4000000",
    "kcore": "100000",
    "knn": "50000",
    "kruskal": "50000",
    "le_list": "131072",
    "linefit": "20000000",
    "low_diameter_decomposition": "100000",
    "maximal_matching": "100000",
    "mcss": "100000000",
    "minimum_edit_distance": "10000",
    "nbody_fmm": "10000",
    "oct_tree": "500000",
    "pagerank": "100000",
    "quickhull": "10000000",
    "range_min": "1000000",
    "ray_trace": "20000",
    "rectangle_intersection": "100000",
    "reduce": "100000000",
    "samplesort": "4000000",
    "scan": "50000000",
    "set_cover": "131072",
    "spectral_separator": "10000",
    "triangle_count": "100000",
}
# Examples that build an R-MAT graph of 2^round(log2 n) vertices but size
# their own arrays by n, the size they are given: below that power of two
# they index past their arrays' ends (AddressSanitizer reports it in the
# sequential builds at 100,000, where the graph has 131,072 vertices). Past
# E's end, set_cover reads reservations that no item will ever clear, and
# loops forever on any scheduler; le_list crashes. At a power of two the
# graph has exactly n vertices.
SIZED_BY_VERTEX_COUNT = ["le_list", "set_cover"]
for _example in SIZED_BY_VERTEX_COUNT:
    _size = int(EXAMPLES[_example])
    assert _size & (_size - 1) == 0, f"{_example} needs a power of two"

# Examples with a fault of their own, by which any build may crash: a crash
# of theirs is counted, on Weft too (docs/benchmarks.md).
FAULTY = {
    "karatsuba": "its serial add (bigint_add.h) reads past the end of a "
                 "shorter operand; AddressSanitizer reports it in the "
                 "sequential build",
}
PEERS = ["native", "openmp", "tbb"]
SCHEDULERS = ["sequential"] + PEERS + ["weft", "elision"]
OUT_DIR = os.path.join(bench_run.OUT_DIR, "parlaylib")
TIMER_LINE = re.compile(r"^Time: .*: ([0-9.]+)$")
# An example that times its kernel's phases too prints their sum on this
# line; then only that line is the kernel's time.
TOTAL_LINE = re.compile(r"^Time: TOTAL: ([0-9.]+)$")


def compile_command(scheduler, parlaylib, source, binary):
    common = ["-O3", "-std=c++17", "-I" + os.path.join(parlaylib, "include"),
              source, "-o", binary, "-pthread"]
    if scheduler == "weft":
        return [os.path.join(bench_run.BUILD, "bin", "weft-clang++"),
                "-DPARLAY_OPENCILK", *common]
    flags = {
        "elision": ["-DPARLAY_OPENCILK", "-I" + os.path.join(ROOT, "include")],
        "sequential": ["-DPARLAY_SEQUENTIAL"],
        "native": [],
        "openmp": ["-DPARLAY_OPENMP", "-fopenmp"],
        "tbb": ["-DPARLAY_TBB"],
    }[scheduler]
    libraries = ["-ltbb"] if scheduler == "tbb" else []
    return [bench_run.CLANGXX, *flags, *common, *libraries]


def binary_path(example, scheduler):
    return os.path.join(OUT_DIR, f"{example}.{scheduler}")


def build(parlaylib, examples, schedulers=SCHEDULERS):
    """Every example each of the six ways (or those given), as many
    compilers at once as there are CPUs (the builds are not timed)."""
    os.makedirs(OUT_DIR, exist_ok=True)
    jobs = []
    for example in examples:
        source = os.path.join(parlaylib, "examples", example + ".cpp")
        if not os.path.exists(source):
            sys.exit(f"parlaylib.py: no {source}")
        jobs += [(example, scheduler, source) for scheduler in schedulers]

    def compile_one(job):
        example, scheduler, source = job
        print(f"building {example} ({scheduler})", file=sys.stderr)
        return job, subprocess.run(
            compile_command(scheduler, parlaylib, source,
                            binary_path(example, scheduler)),
            capture_output=True, text=True)

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        for (example, scheduler, _), out in pool.map(compile_one, jobs):
            if out.returncode != 0:
                sys.exit(f"parlaylib.py: {example} ({scheduler}) does not "
                         f"build:\n{out.stderr[-4000:]}")


def environment(workers, stress=False):
    env = dict(os.environ)
    for name in ("PARLAY_NUM_THREADS", "OMP_NUM_THREADS", "WEFT_NWORKERS"):
        env[name] = str(workers)
    env.pop("WEFT_STRESS", None)
    if stress:
        env["WEFT_STRESS"] = "1"
    return env


# A whole run takes at most about ten seconds. A peer's build that runs
# longer (OpenMP's set_cover did, at a size that was no power of two) is
# killed after this long and counted as a crash; Weft's or the sequential
# build's ends the benchmark.
RUN_TIMEOUT = 120


def run_once(example, scheduler, workers, stress=False):
    """The best of the example's own kernel times in one run, and the
    output's lines that are not times (its answer); None for both if a
    peer's build crashed or hung, or if any build of a FAULTY example
    crashed.
    Weft's or the sequential build's crash otherwise ends the benchmark,
    as Weft's hang always does."""
    where = f"{example} ({scheduler}, P={workers}" \
        + (", WEFT_STRESS=1)" if stress else ")")
    cpus = ",".join(str(c) for c in range(workers))
    command = ["taskset", "-c", cpus, binary_path(example, scheduler),
               EXAMPLES[example]]
    try:
        out = subprocess.run(command, env=environment(workers, stress),
                             capture_output=True, text=True,
                             timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        if scheduler in PEERS:
            print(f"parlaylib.py: {where} ran "
                  f"over {RUN_TIMEOUT} s; counted as a crash", file=sys.stderr)
            return None, None
        sys.exit(f"parlaylib.py: {where} ran "
                 f"over {RUN_TIMEOUT} s: a hang")
    if out.returncode != 0 and (scheduler in PEERS or example in FAULTY):
        why = f" ({FAULTY[example]})" if example in FAULTY else ""
        print(f"parlaylib.py: {where} exited "
              f"{out.returncode}; counted as a crash{why}", file=sys.stderr)
        return None, None
    if out.returncode != 0:
        sys.exit(f"parlaylib.py: {where} "
                 f"exited {out.returncode}:\n{out.stderr[-2000:]}")
    lines = out.stdout.splitlines()
    timer = TOTAL_LINE if any(TOTAL_LINE.match(l) for l in lines) \
        else TIMER_LINE
    times = [float(m.group(1)) for line in lines if (m := timer.match(line))]
    if not times:
        sys.exit(f"parlaylib.py: {where} printed no time:\n"
                 f"{out.stdout[-2000:]}")
    answer = [line for line in lines if not TIMER_LINE.match(line)]
    return min(times), answer


def measure(examples, workers, runs, raw=None, schedulers=SCHEDULERS):
    """The best kernel time of each run, by (example, scheduler, P). Every
    round runs every configuration once, so that a slow spell of the
    machine touches all of them alike; each example's schedulers run in an
    order shuffled afresh each round (bench_run.round_order). Checks that
    each scheduler prints the sequential build's answer (the examples print
    some of theirs): when the sequential build is not among those timed, it
    runs once per example first, untimed, for its answer."""
    times = {}
    answers = {}
    if "sequential" not in schedulers:
        for example in examples:
            answers[example] = sequential_answer(example, workers[0])
    order = bench_run.round_order()
    schedulers = list(schedulers)
    for round_ in range(runs):
        for p in workers:
            for example in examples:
                order.shuffle(schedulers)
                for scheduler in schedulers:
                    best, answer = run_once(example, scheduler, p)
                    times.setdefault((example, scheduler, p), []).append(best)
                    if best is None:
                        continue
                    expected = answers.setdefault(example, answer)
                    if answer != expected and not random_output(example):
                        sys.exit(f"parlaylib.py: {example} ({scheduler}, "
                                 f"P={p}) printed {answer}, the first run "
                                 f"{expected}")
        print(f"round {round_ + 1} of {runs} done", file=sys.stderr)
        if raw:
            write_raw(raw, times)
    return times


def sequential_answer(example, workers):
    """What the sequential build prints besides its times: the answer
    every build must print. A FAULTY example's sequential build may crash
    too, so it gets three tries."""
    for _ in range(3):
        _, answer = run_once(example, "sequential", workers)
        if answer is not None:
            return answer
    sys.exit(f"parlaylib.py: {example}'s sequential build crashed three "
             "times: no answer to check against")


def check_under_stress(examples, workers, rounds):
    """Weft's build of each example on the stolen path (WEFT_STRESS=1),
    rounds times at each P, each answer checked against the sequential
    build's. Nothing is timed. A crash, a hang or a wrong answer ends the
    check with what the run printed; a FAULTY example's crash is counted,
    as in the benchmark."""
    for p in workers:
        for example in examples:
            expected = sequential_answer(example, p)
            crashes = 0
            for _ in range(rounds):
                best, answer = run_once(example, "weft", p, stress=True)
                if best is None:
                    crashes += 1
                    continue
                if answer != expected and not random_output(example):
                    sys.exit(f"parlaylib.py: {example} (weft, P={p}, "
                             f"WEFT_STRESS=1) printed {answer}, the "
                             f"sequential build {expected}")
            counted = f", {crashes} crashed ({FAULTY[example]})" \
                if crashes else ""
            print(f"{example} P={p} WEFT_STRESS=1: {rounds} runs, "
                  f"answers as the sequential build's{counted}")


def write_raw(path, times):
    with open(path, "w") as f:
        json.dump([{"example": e, "scheduler": s, "workers": p, "seconds": t}
                   for (e, s, p), t in times.items()], f, indent=1)


def median_time(times):
    """The median over runs; a peer's runs that crashed are left out, and
    one that crashed in every run has no time."""
    finished = [t for t in times if t is not None]
    return statistics.median(finished) if finished else None


def random_output(example):
    """Examples whose printed answer may differ between correct runs (which
    spanning tree, which independent set is found depends on the order the
    threads reach a shared choice)."""
    return example in ("spanning_tree", "maximal_independent_set", "BFS")


def table(times, examples, workers, runs, command, parlaylib):
    medians = {key: median_time(t) for key, t in times.items()}
    version = subprocess.run(
        ["git", "-C", parlaylib, "log", "-1", "--format=%h, %cs"],
        capture_output=True, text=True).stdout.strip() or \
        f"{parlaylib}, not a git checkout"
    speedup = "; in brackets, the sequential build's time over this " \
        "one's (speedup)" if any(s == "sequential" for _, s, _ in times) \
        else ""
    lines = [bench_run.measured_line(runs, command),
             f"parlaylib: {version}. Seconds: the median over runs of the "
             f"best of each run's kernel times{speedup}.", ""]
    for p in workers:
        lines.append(f"P={p}:")
        lines.append("")
        lines.append("| example (size) | sequential | native | OpenMP | "
                     "oneTBB | Weft | Weft / best peer | elision | "
                     "Weft / elision |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        ratios, owns = [], []
        for example in examples:
            seq = medians.get((example, "sequential", p))
            cells = [timed_cell(None, seq, times, (example, "sequential", p))]
            for scheduler in PEERS + ["weft"]:
                key = (example, scheduler, p)
                cells.append(timed_cell(seq, medians[key], times, key))
            best = min(medians[(example, s, p)] for s in PEERS
                       if medians[(example, s, p)] is not None)
            weft = medians[(example, "weft", p)]
            ratio = weft / best
            ratios.append(ratio)
            elision = medians.get((example, "elision", p))
            own = weft / elision if elision else None
            if own:
                owns.append(own)
            lines.append(f"| {example} ({int(EXAMPLES[example]):,}) | "
                         + " | ".join(cells) + f" | {ratio:.2f} | "
                         + timed_cell(seq, elision, times,
                                      (example, "elision", p))
                         + (f" | {own:.2f} |" if own else " | - |"))
        geo = statistics.geometric_mean(ratios)
        own_geo = f"{statistics.geometric_mean(owns):.2f}" if owns else "-"
        lines.append(f"| geometric mean | | | | | | {geo:.2f} | | "
                     f"{own_geo} |")
        lines.append("")
        lines += same_yardstick(medians, examples, p)
    return "\n".join(lines)


def timed_cell(seq, t, times, key):
    """A table cell: the median time, in brackets the sequential build's
    over it (when the sequential build was timed), how many runs crashed;
    "-" for a build this run did not time (--schedulers)."""
    if key not in times:
        return "-"
    if t is None:
        return "crashed"
    cell = f"{t:.4f}" + (f" ({seq / t:.2f})" if seq and key[1] != "sequential"
                         else "")
    crashes = times[key].count(None)
    return cell + (f", crashed in {crashes}" if crashes else "")


def same_yardstick(medians, examples, p):
    """Each parallel scheduler's time over the best of the other three, as
    Weft's is taken over the best peer. The smallest of three noisy medians
    sits below a typical one, so even a scheduler as fast as the rest reads
    above 1 this way; these lines show where each one stands on the same
    yardstick."""
    contenders = PEERS + ["weft"]
    names = {"native": "native", "openmp": "OpenMP", "tbb": "oneTBB",
             "weft": "Weft"}
    lines = [f"Each scheduler over the best of the other three at P={p}:", "",
             "| scheduler | geometric mean | examples above 1.05 |",
             "|---|---|---|"]
    for scheduler in contenders:
        ratios = []
        for example in examples:
            own = medians[(example, scheduler, p)]
            others = [medians[(example, s, p)] for s in contenders
                      if s != scheduler and medians[(example, s, p)] is not None]
            if own is not None and others:
                ratios.append(own / min(others))
        above = sum(r > 1.05 for r in ratios)
        lines.append(f"| {names[scheduler]} | "
                     f"{statistics.geometric_mean(ratios):.2f} | "
                     f"{above} of {len(ratios)} |")
    lines.append("")
    return lines


def read_raw(path, examples, workers):
    """The times a --raw file kept, as measure returns them, and the
    count of rounds it holds (a run cut short writes the rounds it ended).
    Weft's and the peers' times must be there; the sequential build's and
    the elision's only if that run timed them."""
    with open(path) as f:
        times = {(r["example"], r["scheduler"], r["workers"]): r["seconds"]
                 for r in json.load(f)}
    missing = [(e, s, p) for e in examples for s in PEERS + ["weft"]
               for p in workers if (e, s, p) not in times]
    if missing:
        sys.exit(f"parlaylib.py: {path} has no times for {missing[:3]}")
    return times, min(len(t) for t in times.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parlaylib", default=os.environ.get("WEFT_BENCH_PARLAYLIB"),
                    help="a checkout of github.com/cmuparlay/parlaylib "
                    "(default: $WEFT_BENCH_PARLAYLIB)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--examples", help="a comma-separated subset of "
                    + ",".join(EXAMPLES))
    ap.add_argument("--no-build", action="store_true",
                    help="run the binaries of the last build")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--raw", help="write every run's time to this JSON file")
    ap.add_argument("--from-raw", help="build nothing, run nothing: make the "
                    "table from the times a --raw file kept")
    ap.add_argument("--schedulers", default=",".join(SCHEDULERS),
                    help="the builds to time, a comma-separated subset of "
                    + ",".join(SCHEDULERS) + " that holds weft and the "
                    "three peers (default: all six)")
    ap.add_argument("--stress", type=int, metavar="N",
                    help="time nothing: run Weft's build of each example N "
                    "times under WEFT_STRESS=1 and check its answers")
    a = ap.parse_args()
    if not a.parlaylib:
        sys.exit("parlaylib.py: give --parlaylib PATH or WEFT_BENCH_PARLAYLIB")
    parlaylib = os.path.abspath(a.parlaylib)
    examples = a.examples.split(",") if a.examples else list(EXAMPLES)
    for example in examples:
        if example not in EXAMPLES:
            sys.exit(f"parlaylib.py: no size known for {example}")
    workers = [int(w) for w in a.workers.split(",")]
    schedulers = [s for s in SCHEDULERS if s in a.schedulers.split(",")]
    unknown = set(a.schedulers.split(",")) - set(SCHEDULERS)
    if unknown or not set(PEERS + ["weft"]) <= set(schedulers):
        sys.exit("parlaylib.py: --schedulers takes weft, native, openmp and "
                 "tbb, and may add sequential and elision")
    runs = a.runs
    if a.stress:
        if not a.no_build:  # the check runs these two builds only
            build(parlaylib, examples, ["sequential", "weft"])
        check_under_stress(examples, workers, a.stress)
        return
    if a.from_raw:
        times, runs = read_raw(a.from_raw, examples, workers)
    else:
        if not a.no_build:  # the sequential build gives the answers
            build(parlaylib, examples,
                  [s for s in SCHEDULERS
                   if s in schedulers or s == "sequential"])
        times = measure(examples, workers, a.runs, a.raw, schedulers)
    command = "bench/parlaylib.py " + " ".join(sys.argv[1:])
    text = table(times, examples, workers, runs, command, parlaylib)
    print(text)
    if not a.no_write and not a.examples:
        bench_run.splice(os.path.join(ROOT, "docs", "benchmarks.md"), text,
                         "<!-- parlaylib:begin -->", "<!-- parlaylib:end -->")


if __name__ == "__main__":
    main()
