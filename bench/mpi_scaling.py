#!/usr/bin/env python3
"""Times the distributed sample sort (examples/mpi) on one node under
several splits of the cores between MPI ranks and Weft workers.

Each configuration is one mpirun command line; rounds are interleaved (round
r runs every configuration once) so that the noise of a shared machine
falls on all of them alike. The time is the sort's own, between two
barriers, as sample_sort prints it on stderr (the slowest rank's, as the
barrier makes it), with its phases (the local sort, the exchange, the
merge of the received runs); mpirun's start-up is left out. Every run's stdout must
be the serial elision's, or the script fails. It prints a Markdown table of
medians, each with its speedup over the serial elision, and the load
average before and after (other work on the machine shows there).

  bench/mpi_scaling.py [--build build] [--keys 16777216] [--runs 7]

Needs a build with MPI found (scripts/setup.sh installs Open MPI), so that
<build>/examples/mpi holds sample_sort and sample_sort_serial.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> (ranks, workers per rank, mpirun options, binary). The binding is
# given explicitly: Open MPI binds each rank to a core when there are at
# most two ranks, which leaves 2 workers of one rank on one core.
CONFIGS = [
    ("serial elision, 1 rank", 1, 1, ["--bind-to", "none"], "sample_sort_serial"),
    ("1 rank x 1 worker", 1, 1, ["--bind-to", "none"], "sample_sort"),
    ("1 rank x 2 workers", 1, 2, ["--bind-to", "none"], "sample_sort"),
    ("2 ranks x 1 worker (bound to a core each)", 2, 1, ["--bind-to", "core"],
     "sample_sort"),
    ("2 ranks x 1 worker (unbound)", 2, 1, ["--bind-to", "none"],
     "sample_sort"),
    ("2 ranks x 2 workers (oversubscribed, unbound)", 2, 2,
     ["--bind-to", "none"], "sample_sort"),
    ("2 ranks x 2 workers (both on the rank's core)", 2, 2,
     ["--bind-to", "core"], "sample_sort"),
]

TIME = re.compile(r"sample sort: ([0-9.]+) s .*local sort ([0-9.]+) s, "
                  r"exchange ([0-9.]+) s, merge ([0-9.]+) s")


def environment():
    env = dict(os.environ)
    env.pop("WEFT_STRESS", None)
    env.pop("WEFT_STATS", None)
    if os.getuid() == 0:  # Open MPI refuses root unless told it is meant
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    return env


def run_once(example_dir, keys, config, env):
    """One run: its stdout, and the seconds of the sort and of its three
    phases (each the slowest rank's)."""
    _, ranks, workers, options, binary = config
    command = (["mpirun", "-np", str(ranks), "-x", "WEFT_NWORKERS=%d" % workers]
               + options + [os.path.join(example_dir, binary), str(keys)])
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          timeout=600)
    match = TIME.search(done.stderr)
    if done.returncode != 0 or not match:
        sys.exit("failed: %s\n%s%s" % (" ".join(command), done.stdout,
                                       done.stderr))
    return done.stdout, [float(match.group(i)) for i in range(1, 5)]


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--keys", type=int, default=1 << 24)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    example_dir = os.path.join(os.path.abspath(args.build), "examples", "mpi")
    env = environment()

    load_before = load_average()
    times = {config[0]: [] for config in CONFIGS}
    expected = None
    for round_ in range(args.runs):
        for config in CONFIGS:
            out, seconds = run_once(example_dir, args.keys, config, env)
            if expected is None:
                expected = out
            elif out != expected:
                sys.exit("%s printed %r, the serial elision %r"
                         % (config[0], out, expected))
            times[config[0]].append(seconds)
        print("round %d of %d done" % (round_ + 1, args.runs), file=sys.stderr)

    serial = statistics.median(t[0] for t in times[CONFIGS[0][0]])
    print("%d keys, median of %d interleaved runs, `nproc` = %d, load "
          "average %s before and %s after\n" % (
              args.keys, args.runs, len(os.sched_getaffinity(0)), load_before,
              load_average()))
    print("| configuration | median (s) | min-max (s) | speedup over serial "
          "| local sort, exchange, merge: medians (s) |")
    print("|---|---|---|---|---|")
    for name, *_ in CONFIGS:
        totals = [t[0] for t in times[name]]
        median = statistics.median(totals)
        phases = ", ".join("%.3f" % statistics.median(t[i] for t in times[name])
                           for i in range(1, 4))
        print("| %s | %.3f | %.3f-%.3f | %.2f | %s |" % (
            name, median, min(totals), max(totals), serial / median, phases))


if __name__ == "__main__":
    main()
