#!/usr/bin/env python3
"""Soak test of the scheduler: run real programs for a fixed time at 2 to 8
workers, with and without forced steals, and fail on any hang, crash or
output that differs from the serial elision.

    scripts/soak.py [--minutes M] [--build DIR] [--workdir DIR] [--timeout S]
                    [--seed N] [--jobs J]

What it runs (built once, before the clock starts):
  * every program of lit-tests/cilk5/ and lit-tests/run/ that the lit suite
    checks with %run-check, built by the same RUN lines (-O2, -O0 and
    AddressSanitizer builds alike), with the same arguments;
  * random race-free fork-join programs from
    lit-tests/random/gen_forkjoin.py, a fresh seed every --new-seed-every
    runs (compiled as the clock runs).

Each run picks a program, a worker count from --workers and stress on or
off at random, runs it under a timeout with WEFT_DEBUG_HANG set (so a hang
leaves the runtime's report of every worker in the log) and compares its
stdout and exit status with the serial elision's. On a hang it also takes a
backtrace of every thread with gdb when gdb is installed. Each failure is
written to WORKDIR/failures/; the summary at the end counts runs per
configuration and per program kind, and the exit status is 1 if anything
failed.

The README's test command does not run this (it takes as long as asked);
scripts/soak.sh builds Weft and runs it.
"""
import argparse
import collections
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIT = os.path.join(ROOT, "lit-tests")
GENERATOR = os.path.join(LIT, "random", "gen_forkjoin.py")
COMPILERS = ("%clangxx", "%clang", "%weftcxx", "%weftcc")


class Case:
    """One program and its arguments, with the serial elision's answer."""

    def __init__(self, kind, name, weft, serial, args):
        self.kind, self.name = kind, name
        self.weft, self.serial, self.args = weft, serial, args
        self.expected = None  # (stdout, status) of the serial elision

    def command(self):
        return [self.weft] + self.args


def substitutions(build, source, tmp):
    include = "-I" + os.path.join(ROOT, "include")
    return [
        ("%weftcxx", os.path.join(build, "bin", "weft-clang++")),
        ("%weftcc", os.path.join(build, "bin", "weft-clang")),
        ("%clangxx", "clang++-19 " + include),
        ("%clang", "clang-19 " + include),
        ("%plugin", os.path.join(build, "lib", "libWeftPlugin.so")),
        ("%examples", os.path.join(ROOT, "examples")),
        ("%S", os.path.dirname(source)),
        ("%s", source),
        ("%t", tmp),
    ]


def expand(line, subs):
    for key, value in subs:
        line = line.replace(key, value)
    return line


def run_lines(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for text in f:
            m = re.search(r"RUN:\s*(.*)$", text)
            if m:
                lines.append(m.group(1).strip())
    return lines


def lit_cases(build, workdir, log):
    """The %run-check'ed programs of cilk5/ and run/, built as lit builds
    them."""
    cases = []
    for folder in ("cilk5", "run"):
        for name in sorted(os.listdir(os.path.join(LIT, folder))):
            source = os.path.join(LIT, folder, name)
            if not name.endswith((".c", ".cpp")):
                continue
            lines = run_lines(source)
            checks = [l for l in lines if l.startswith("%run-check")]
            if not checks:
                continue
            tmp = os.path.join(workdir, "lit", folder, name + ".tmp")
            os.makedirs(os.path.dirname(tmp), exist_ok=True)
            subs = substitutions(build, source, tmp)
            built = True
            for line in lines:
                # Lines that build a program only: a compiler, substitutions
                # we know, and no pipe (those check IR with FileCheck).
                if (line.split()[0] not in COMPILERS or "|" in line
                        or "%" in expand(line, subs)):
                    continue
                result = subprocess.run(expand(line, subs), shell=True,
                                        capture_output=True, text=True)
                if result.returncode != 0:
                    log(f"build failed, skipping {folder}/{name}: {line}\n"
                        f"{result.stderr[-2000:]}")
                    built = False
                    break
            if not built:
                continue
            for line in checks:
                words = shlex.split(expand(line, subs))[1:]
                weft, serial, args = words[0], words[1], words[2:]
                label = f"{folder}/{name} {os.path.basename(weft)}"
                cases.append(Case(folder, label, weft, serial, args))
    return cases


class RandomPrograms:
    """Random fork-join programs, a new seed each time one is asked for."""

    def __init__(self, build, workdir, first_seed, log):
        self.build, self.dir, self.seed, self.log = build, workdir, first_seed, log
        self.lock = threading.Lock()
        os.makedirs(workdir, exist_ok=True)

    def next_case(self):
        with self.lock:
            seed = self.seed
            self.seed += 1
        source = os.path.join(self.dir, f"seed{seed}.cpp")
        with open(source, "w") as out:
            subprocess.run([sys.executable, GENERATOR, "--seed", str(seed)],
                           stdout=out, check=True)
        serial, weft = source[:-4] + ".serial", source[:-4] + ".weft"
        # Mostly -O2, some -O0, as the lit suite does.
        level = "-O0" if seed % 4 == 0 else "-O2"
        builds = [
            ["clang++-19", "-I" + os.path.join(ROOT, "include"), "-std=c++17",
             "-O2", "-w", source, "-o", serial],
            [os.path.join(self.build, "bin", "weft-clang++"), "-std=c++17",
             level, "-w", source, "-o", weft],
        ]
        for command in builds:
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                self.log(f"random seed {seed} did not build: {' '.join(command)}\n"
                         f"{result.stderr[-2000:]}")
                return None
        return Case("random", f"random seed {seed} {level}", weft, serial, [])


def run_serial(case, timeout):
    try:
        result = subprocess.run([case.serial] + case.args, capture_output=True,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    case.expected = (result.stdout, result.returncode)
    return result.returncode == 0


def backtraces(pid):
    if not shutil.which("gdb"):
        return "(gdb is not installed: no backtraces)\n"
    result = subprocess.run(
        ["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 40"],
        capture_output=True, text=True, timeout=120)
    return result.stdout[-30000:]


def run_once(case, workers, stress, timeout):
    """Runs case once; returns (verdict, details). verdict: ok, hang,
    crash, mismatch."""
    env = dict(os.environ, WEFT_NWORKERS=str(workers), WEFT_STRESS=str(stress),
               WEFT_DEBUG_HANG=str(max(1, timeout // 3)))
    process = subprocess.Popen(case.command(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stacks = backtraces(process.pid)
        process.kill()
        out, err = process.communicate()
        return "hang", (f"no exit after {timeout} s\n--- stderr ---\n"
                        f"{err.decode(errors='replace')[-20000:]}\n"
                        f"--- backtraces ---\n{stacks}")
    expected_out, expected_status = case.expected
    if process.returncode < 0 or process.returncode != expected_status:
        how = (f"signal {signal.Signals(-process.returncode).name}"
               if process.returncode < 0 else f"exit {process.returncode}")
        return "crash", (f"{how} (serial elision: exit {expected_status})\n"
                         f"--- stderr ---\n{err.decode(errors='replace')[-20000:]}")
    if out != expected_out:
        return "mismatch", (f"--- expected ---\n{expected_out.decode(errors='replace')[-5000:]}\n"
                            f"--- actual ---\n{out.decode(errors='replace')[-5000:]}\n"
                            f"--- stderr ---\n{err.decode(errors='replace')[-5000:]}")
    return "ok", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--workdir", default="/tmp/weft-soak")
    parser.add_argument("--timeout", type=int, default=90,
                        help="seconds one run may take (default 90)")
    parser.add_argument("--workers", default="2,3,4,6,8")
    parser.add_argument("--seed", type=int, default=None,
                        help="seeds the choices and the first random program")
    parser.add_argument("--new-seed-every", type=int, default=25,
                        help="runs between two new random programs")
    parser.add_argument("--jobs", type=int, default=1,
                        help="runs at once (default 1)")
    opts = parser.parse_args()

    seed = opts.seed if opts.seed is not None else int(time.time()) % 100000
    rng = random.Random(seed)
    workers = [int(w) for w in opts.workers.split(",")]
    os.makedirs(os.path.join(opts.workdir, "failures"), exist_ok=True)
    log_path = os.path.join(opts.workdir, "soak.log")
    log_lock = threading.Lock()

    def log(text):
        with log_lock:
            with open(log_path, "a") as f:
                f.write(text.rstrip("\n") + "\n")
            print(text.rstrip("\n"), flush=True)

    log(f"soak: seed {seed}, {opts.minutes} min, workers {workers}, "
        f"timeout {opts.timeout} s, jobs {opts.jobs}, log {log_path}")
    cases = lit_cases(opts.build, opts.workdir, log)
    randoms = RandomPrograms(opts.build, os.path.join(opts.workdir, "random"),
                             1_000_000 + seed * 1000, log)
    ready = []
    for case in cases:
        if run_serial(case, opts.timeout):
            ready.append(case)
        else:
            log(f"serial elision failed, skipping {case.name}")
    cases = ready
    log(f"soak: {len(cases)} lit programs ready")

    counts = collections.Counter()
    failures = []
    state_lock = threading.Lock()
    deadline = time.monotonic() + opts.minutes * 60
    started = time.monotonic()

    def one_run(index):
        with state_lock:
            fresh = index % opts.new_seed_every == 0
            case = None if fresh else rng.choice(cases)
            p, stress = rng.choice(workers), rng.choice((0, 1))
        if fresh:
            case = randoms.next_case()
            if case is None or not run_serial(case, opts.timeout):
                return
            with state_lock:
                cases.append(case)
        verdict, details = run_once(case, p, stress, opts.timeout)
        with state_lock:
            counts[("runs", p, stress)] += 1
            counts[("kind", case.kind)] += 1
            counts[("verdict", verdict)] += 1
            if verdict != "ok":
                failures.append((verdict, case.name, p, stress))
                number = len(failures)
        if verdict != "ok":
            path = os.path.join(opts.workdir, "failures", f"{number}-{verdict}.txt")
            with open(path, "w") as f:
                f.write(f"{verdict}: {case.name} at WEFT_NWORKERS={p} "
                        f"WEFT_STRESS={stress}\ncommand: {shlex.join(case.command())}\n"
                        f"{details}")
            log(f"FAIL {verdict}: {case.name} at WEFT_NWORKERS={p} "
                f"WEFT_STRESS={stress} ({path})")

    index = 0
    with ThreadPoolExecutor(max_workers=opts.jobs) as pool:
        pending = set()
        while time.monotonic() < deadline or pending:
            while time.monotonic() < deadline and len(pending) < opts.jobs:
                pending.add(pool.submit(one_run, index))
                index += 1
            done = {f for f in pending if f.done()}
            for f in done:
                f.result()
            pending -= done
            time.sleep(0.01)

    minutes = (time.monotonic() - started) / 60
    runs = sum(v for k, v in counts.items() if k[0] == "runs")
    log(f"soak: {runs} runs in {minutes:.1f} min, {len(cases)} programs "
        f"({randoms.seed - (1_000_000 + seed * 1000)} random seeds)")
    for kind in ("cilk5", "run", "random"):
        log(f"soak:   {kind}: {counts[('kind', kind)]} runs")
    for p in workers:
        row = ", ".join(f"stress {s}: {counts[('runs', p, s)]}" for s in (0, 1))
        log(f"soak:   P={p}: {row}")
    verdicts = ", ".join(f"{v} {counts[('verdict', v)]}"
                         for v in ("ok", "hang", "crash", "mismatch"))
    log(f"soak: {verdicts}")
    for verdict, name, p, stress in failures:
        log(f"soak:   {verdict}: {name} at P={p} stress={stress}")
    log(f"soak: {runs - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
