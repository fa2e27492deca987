"""bench/run.py --bounds: each benchmark run beside its theoretical bounds.

For every benchmark (and an input-size sweep of fib and cilksort) this
measures, with the Weft build:
  T1, T2      the kernel's wall time at P=1 and P=2 (medians of --runs),
              with WEFT_STATS=1 so that the runtime reports its steals;
  T_inf       the span from the work/span build (docs/workspan.md), the
              smallest of --runs readings (a span only gains noise);
  RSS1, RSS2  peak RSS (VmHWM) at P=1 and P=2, the largest of the runs;
and sets them against the work-stealing bounds of Blumofe and Leiserson:
  max(T1/P, T_inf) <= T_P <= T1/P + c*T_inf   (c reported, not assumed)
  steals = O(P*T_inf)                          (steals per P*T_inf in ms)
  S_P <= P*S1                                  (RSS2/RSS1 against P)
and shows what the fences cost per steal at P=2: membarriers, and thieves'
requests for fenced pops (docs/architecture.md, section 3, "Fences").
The tables replace the marked sections of docs/benchmarks.md.
"""
import csv
import os
import statistics
import subprocess
import sys

P = 2
# The upper bound's c is whatever the scheduler's constant is; the table
# flags a run whose implied c exceeds this, so that misses stand out.
C_MAX = 10.0
# Input sizes of the sweep: (benchmark, argument, label).
SWEEP = [("fib", "26", "fib(26)"), ("fib", "29", "fib(29)"), ("fib", "32", "fib(32)"),
         ("fib", "35", "fib(35)"), ("cilksort", "100000", "cilksort 10^5"),
         ("cilksort", "1000000", "cilksort 10^6"), ("cilksort", "10000000", "cilksort 10^7")]


# Every function that takes `run` is given the bench/run.py module itself,
# for its paths, its BENCHMARKS and its helpers.


def build_bounds(run, names):
    """Builds the serial elision, the Weft build and the work/span build of
    each benchmark; returns {(name, variant): binary}."""
    os.makedirs(run.OUT_DIR, exist_ok=True)
    binaries = {}
    for name in names:
        for variant, cmd, binary in run.compile_commands(name):
            if variant in ("serial", "weft"):
                subprocess.run(cmd, check=True)
                binaries[(name, variant)] = binary
        src = os.path.join(run.ROOT, "bench", run.folder(name), f"{run.folder(name)}_cilk.cpp")
        binary = os.path.join(run.OUT_DIR, f"{name}_workspan")
        subprocess.run([os.path.join(run.BUILD, "bin", "weft-clang++"), "--weft-workspan",
                        "-O2", src, "-o", binary], check=True)
        binaries[(name, "workspan")] = binary
    return binaries


def run_weft(binary, args, workers):
    """One run of a Weft build with WEFT_STATS=1: (result, seconds, rss_kb, stats)."""
    env = dict(os.environ, WEFT_NWORKERS=str(workers), WEFT_STATS="1")
    proc = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)} failed ({proc.returncode}): {proc.stderr}")
    bench = parse_line(proc.stdout, "bench:")
    stats = parse_line(proc.stderr, "weft-stats:")
    return bench["result"], float(bench["seconds"]), int(bench["rss_kb"]), stats


def parse_line(text, prefix):
    """The key=value fields of the last line of text that starts with prefix."""
    lines = [l for l in text.splitlines() if l.startswith(prefix)]
    if not lines:
        sys.exit(f"no '{prefix}' line in: {text}")
    return dict(kv.split("=", 1) for kv in lines[-1].split()[1:] if "=" in kv)


def run_span(binary, args):
    """One run of the work/span build, planned for P workers: (work, span) in seconds."""
    out = binary + ".csv"
    env = dict(os.environ, WEFT_NWORKERS=str(P), WEFT_WORKSPAN_OUT=out)
    subprocess.run([binary, *args], env=env, check=True, capture_output=True)
    with open(out) as f:
        row = next(r for r in csv.DictReader(f) if r["tag"] == "kernel")
    return float(row["work (seconds)"]), float(row["span (seconds)"])


def measure_case(run, binaries, name, args, runs):
    """Measures one input; returns a dict of the quantities of the table."""
    expected = run.run_once(binaries[(name, "serial")], args, 1)[0]
    samples = {1: [], P: []}
    spans = []
    for _ in range(runs):
        for p in (1, P):
            sample = run_weft(binaries[(name, "weft")], args, p)
            if sample[0] != expected:
                sys.exit(f"{name} {args} at P={p}: result {sample[0]}, "
                         f"serial elision {expected}")
            samples[p].append(sample)
        spans.append(run_span(binaries[(name, "workspan")], args))
    med = lambda p, i: statistics.median(s[i] for s in samples[p])
    return {
        "t1": med(1, 1), "t2": med(P, 1),
        "work": min(w for w, _ in spans), "span": min(s for _, s in spans),
        "steals": statistics.median(int(s[3]["steals"]) for s in samples[P]),
        "membarriers": statistics.median(int(s[3]["membarriers"]) for s in samples[P]),
        "requests": statistics.median(int(s[3]["fence_requests"]) for s in samples[P]),
        "spawns": int(samples[P][0][3]["spawns"]),
        "rss1": max(s[2] for s in samples[1]), "rss2": max(s[2] for s in samples[P]),
    }


def derived(m):
    """The bound checks of one measurement."""
    half = m["t1"] / P
    c = (m["t2"] - half) / m["span"]
    lower = m["t2"] >= max(half, m["span"])
    return {
        "par": m["t1"] / m["span"], "c": c, "lower": lower,
        "within": lower and c <= C_MAX,
        "steal_rate": m["steals"] / (P * m["span"] * 1e3),
        "rss_ratio": m["rss2"] / m["rss1"],
    }


def per_steal(count, steals):
    """What the fences cost per steal (docs/architecture.md, section 3,
    "Fences"): membarriers include those of workers going to sleep."""
    return f"{count / steals:.2f}" if steals else f"{count:.0f} (no steal)"


def yes(flag):
    return "yes" if flag else "**no**"


def bounds_table(run, results, names):
    """The main table: one row per benchmark."""
    head = ["benchmark", "T1 (s)", f"T{P} (s)", f"T1/T{P}", "T_inf (ms)", "T1/T_inf",
            f"T1/{P} (s)", f"T{P} >= max(T1/{P}, T_inf)", f"c = (T{P} - T1/{P}) / T_inf",
            f"within [max(T1/{P}, T_inf), T1/{P} + {C_MAX:g}·T_inf]",
            f"steals at P={P}", "spawns", f"steals / (P·T_inf in ms)",
            "membarriers / steal", "fence requests / steal",
            "RSS1 / RSS2 (MiB)", "RSS2 / RSS1", f"RSS2 <= {P}·RSS1"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in names:
        m = results[name]
        d = derived(m)
        row = [f"{name}: {run.BENCHMARKS[name][1]}", run.fmt(m["t1"]), run.fmt(m["t2"]),
               f"{m['t1'] / m['t2']:.2f}", f"{m['span'] * 1e3:.3f}", f"{d['par']:.0f}", run.fmt(m["t1"] / P),
               yes(d["lower"]), f"{d['c']:.2f}", yes(d["within"]),
               f"{m['steals']:.0f}", f"{m['spawns']}", f"{d['steal_rate']:.1f}",
               per_steal(m["membarriers"], m["steals"]), per_steal(m["requests"], m["steals"]),
               f"{m['rss1'] / 1024:.1f} / {m['rss2'] / 1024:.1f}",
               f"{d['rss_ratio']:.3f}", yes(m["rss2"] <= P * m["rss1"])]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def sweep_table(run, results):
    """The input-size sweep: does steals / (P·T_inf) stay bounded as T1 grows?"""
    head = ["input", "T1 (s)", f"T{P} (s)", f"T1/T{P}", "T_inf (ms)", "T1/T_inf",
            f"c = (T{P} - T1/{P}) / T_inf", f"steals at P={P}", "spawns",
            "steals / (P·T_inf in ms)", "steals / spawns"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, _, label in SWEEP:
        m = results[label]
        d = derived(m)
        row = [label, run.fmt(m["t1"]), run.fmt(m["t2"]), f"{m['t1'] / m['t2']:.2f}",
               f"{m['span'] * 1e3:.3f}",
               f"{d['par']:.0f}", f"{d['c']:.2f}", f"{m['steals']:.0f}",
               f"{m['spawns']}", f"{d['steal_rate']:.1f}",
               f"{m['steals'] / max(m['spawns'], 1):.2e}"]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def bounds(run, names, runs, command, out, write=True):
    """Measures the bounds table and the sweep, prints them and, with write,
    replaces the <!-- bounds:begin --> section of out with them."""
    if os.getloadavg()[0] > 0.5 * (os.cpu_count() or 1):
        print(f"bench: warning: load average {os.getloadavg()[0]:.1f} before the runs; "
              f"other jobs will slow T{P} more than T1", file=sys.stderr)
    sweep_names = sorted({n for n, _, _ in SWEEP})
    binaries = build_bounds(run, sorted(set(names) | set(sweep_names)))
    results = {}
    for name in names:
        results[name] = measure_case(run, binaries, name, run.BENCHMARKS[name][0], runs)
        print(f"bench: bounds of {name} measured", file=sys.stderr)
    for name, arg, label in SWEEP:
        results[label] = measure_case(run, binaries, name, [arg], runs)
        print(f"bench: bounds of {label} measured", file=sys.stderr)
    lines = [run.measured_line(runs, command, "runs (T_inf: the smallest)"), ""]
    lines += bounds_table(run, results, names)
    lines += ["", f"Input-size sweep (same command, same P={P}):", ""]
    lines += sweep_table(run, results)
    text = "\n".join(lines) + "\n"
    print(text)
    if write:
        run.splice(out, text, "<!-- bounds:begin -->", "<!-- bounds:end -->")
