"""bench/run.py --ligra PATH: Ligra's BFS, Components and PageRank on Weft.

Ligra (github.com/jshun/ligra) is a graph framework written for Cilk Plus:
its ligra/parallel.h maps parallel_for to cilk_for (with grainsize pragmas
in _Pragma form) when CILK is defined, and to a plain for otherwise. So the
same sources are a Cilk program written without Weft in mind and, built
without CILK, the serial elision that Weft's times are measured against.

Each app is built by Ligra's own apps/Makefile, driven by make variables
only, in two copies of the checkout under build/bench/ligra:
  serial/  make PCC=clang++-19           Ligra's serial build: no CILK, its
                                         own PCFLAGS (-O3)
  weft/    make CILK=1 PCC=weft-clang++  Ligra's Cilk Plus build, whose
                                         -fcilkplus -lcilkrts the driver
                                         takes (docs/migration.md)
Both copies are made afresh and built on every run: make cannot see a
change to Weft's runtime or plugin, which is what the numbers are about.

The input is an rMat graph of 2^18 vertices and Ligra's default 10 * 2^18
edges before symmetrization, made symmetric (-s, which Components needs)
by Ligra's utils/rMatGraph, built serially by utils/Makefile. rMatGraph is
deterministic (seed 1), so the graph is made once and kept as
build/bench/ligra/rMat_18_sym. Every app reads it with -s.

Each app runs Compute once untimed, then -rounds 5 times, printing
"Running time : T" (three significant digits) for each of the 5; one run's
time is the median of its 5, and the table gives the median of those over
the --runs runs. Loading the graph and the untimed first Compute, and so
Weft's pool start-up, are outside the times. BFS, Components and PageRank
print nothing else: there is no result to check against the serial
elision, only the exit status and the count of timed rounds.

The configurations, all run in the same interleaved rounds: the serial
elision at one core, and Weft at every --workers count with the default
fences (WEFT_FENCES unset: each deque switches between unfenced and fenced
pops as thieves come), with WEFT_FENCES=symmetric (every pop and steal
fenced) and with WEFT_FENCES=asymmetric (no pop fenced, a membarrier per
steal). A graph app runs many short parallel loops, several per step of
its frontier, so the cost of a steal, which the fence choice moves between
owner and thief, weighs more here than in the recursive benchmarks
(docs/architecture.md, section 3, "Fences").
"""
import os
import shutil
import statistics
import subprocess
import sys

APPS = ["BFS", "Components", "PageRank"]
LOG2_N = 18
ROUNDS = 5
# (label, environment on top of the inherited one, the build tree it runs:
# "serial" is the serial elision, the others are Weft builds).
CONFIGS = [("serial elision (Ts)", {}, "serial"),
           ("Weft, default fences", {}, "weft"),
           ("Weft, WEFT_FENCES=symmetric", {"WEFT_FENCES": "symmetric"}, "weft"),
           ("Weft, WEFT_FENCES=asymmetric", {"WEFT_FENCES": "asymmetric"}, "weft")]
# With --baseline, the other Weft build's apps at the default fences, in the
# same rounds: a change's effect on Ligra is read from its row against the
# default-fences row.
BASELINE_CONFIG = ("baseline build, default fences", {}, "baseline")

# Every function that takes `run` is given the bench/run.py module itself,
# for its paths and its helpers.


def make(directory, variables, targets):
    """Runs Ligra's Makefile in directory; its output (clang's warnings about
    Ligra's variable-length arrays) is shown only if it fails."""
    cmd = ["make", "-C", directory, f"-j{os.cpu_count()}", *variables, *targets]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")


def build(run, checkout, configs, baseline):
    """Copies the checkout under OUT_DIR/ligra once per build tree (serial
    elision, Weft, and with a baseline the baseline's Weft), builds the apps
    in each and makes the graph if it is not there yet.
    Returns ({(config label, app): binary}, graph path)."""
    if not os.path.exists(os.path.join(checkout, "ligra", "ligra.h")):
        sys.exit(f"--ligra {checkout}: not a Ligra checkout (no ligra/ligra.h)")
    top = os.path.join(run.OUT_DIR, "ligra")
    compilers = {"serial": ["PCC=" + run.CLANGXX],
                 "weft": ["CILK=1", "PCC=" + os.path.join(run.BUILD, "bin", "weft-clang++")]}
    if baseline:
        compilers["baseline"] = ["CILK=1", "PCC=" + run.baseline_driver(baseline)]
    trees = {}
    for tree, variables in compilers.items():
        dest = os.path.join(top, tree)
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(checkout, dest, symlinks=True,
                        ignore=shutil.ignore_patterns(".git"))
        apps = os.path.join(dest, "apps")
        make(apps, variables, APPS)
        trees[tree] = apps
    graph = os.path.join(top, f"rMat_{LOG2_N}_sym")
    if not os.path.exists(graph):
        utils = os.path.join(top, "serial", "utils")
        make(utils, ["PCC=" + run.CLANGXX], ["rMatGraph"])
        # Written under another name first, so that an interrupted run
        # leaves no partial graph to be taken for the cached one.
        partial = graph + ".partial"
        subprocess.run([os.path.join(utils, "rMatGraph"), "-s", str(1 << LOG2_N), partial],
                       check=True, stdout=subprocess.DEVNULL)
        os.replace(partial, graph)
    binaries = {}
    for label, _, tree in configs:
        for app in APPS:
            binaries[(label, app)] = os.path.join(trees[tree], app)
    return binaries, graph


def run_once(binary, graph, workers, extra_env):
    """One run of an app: the median of its ROUNDS reported times."""
    env = dict(os.environ, WEFT_NWORKERS=str(workers), **extra_env)
    if "WEFT_FENCES" not in extra_env:
        env.pop("WEFT_FENCES", None)  # the default must be the default
    cmd = [binary, "-s", "-rounds", str(ROUNDS), graph]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} at P={workers} failed ({proc.returncode}): "
                 f"{proc.stderr}")
    times = [float(l.split(":", 1)[1]) for l in proc.stdout.splitlines()
             if l.startswith("Running time")]
    if len(times) != ROUNDS:
        sys.exit(f"{' '.join(cmd)}: {len(times)} timed rounds, not {ROUNDS}:\n{proc.stdout}")
    return statistics.median(times)


def measure(run, binaries, graph, configs, workers, runs):
    """Runs every (app, configuration, P) once per round, in an order
    shuffled afresh each round (run.round_order); returns the median over
    the rounds of each one's median time."""
    runs_of_a_round = [(app, label, env, p) for app in APPS for label, env, tree in configs
                       for p in (workers if tree != "serial" else [1])]
    order = run.round_order()
    samples = {}
    for r in range(runs):
        order.shuffle(runs_of_a_round)
        for app, label, env, p in runs_of_a_round:
            seconds = run_once(binaries[(label, app)], graph, p, env)
            samples.setdefault((app, label, p), []).append(seconds)
        print(f"bench: Ligra round {r + 1}/{runs} done", file=sys.stderr)
    return {key: statistics.median(values) for key, values in samples.items()}


def fmt(seconds):
    """Ligra prints three significant digits; a median of an odd count of
    its times is one of them."""
    return f"{seconds:.3g}"


def table(medians, configs, workers, runs, command, measured_line):
    pmax = max(workers)
    lines = [measured_line(runs, command, f"interleaved runs, each the median of "
                           f"Ligra's {ROUNDS} timed rounds"), "",
             f"Ligra apps on an rMat graph of 2^{LOG2_N} vertices, symmetric, "
             f"built by Ligra's Makefile (-O3).", ""]
    head = ["app", "configuration", *(f"T{p} (s)" for p in workers), "T1/Ts",
            f"T1/T{pmax}"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for app in APPS:
        ts = medians[(app, configs[0][0], 1)]
        for label, _, tree in configs:
            if tree == "serial":
                row = [app, label, fmt(ts), *(["-"] * (len(workers) + 1))]
            else:
                t1, tp = medians[(app, label, 1)], medians[(app, label, pmax)]
                row = [app, label, *(fmt(medians[(app, label, p)]) for p in workers),
                       f"{t1 / ts:.2f}", f"{t1 / tp:.2f}"]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def ligra(run, checkout, workers, runs, command, baseline=None):
    """Builds, measures and prints the Ligra table; returns its text.
    baseline is another Weft build tree whose apps run in the same rounds."""
    configs = CONFIGS + ([BASELINE_CONFIG] if baseline else [])
    binaries, graph = build(run, os.path.abspath(checkout), configs, baseline)
    medians = measure(run, binaries, graph, configs, workers, runs)
    text = table(medians, configs, workers, runs, command, run.measured_line)
    print(text)
    return text
