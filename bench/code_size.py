#!/usr/bin/env python3
"""Code size and compile time of Weft against the serial elision, file by
file, as the "Code size and compile time" section of docs/benchmarks.md
reports them.

  bench/code_size.py [--runs N] [--build DIR] [--parlaylib PATH] [--no-write]
  bench/code_size.py --functions FILE [--top N] [--build DIR] [--parlaylib PATH]

Each file of a fixed set is compiled to an object (-c -O2) twice: as the
serial elision (the build's clang++, or clang for C, with Weft's include
directory and no plugin, so that <cilk/cilk.h>'s keywords expand to
nothing) and with the build's weft-clang++ (weft-clang). The set:

  parlaylib  examples of github.com/cmuparlay/parlaylib built on its
             OpenCilk scheduler (-std=c++17 -DPARLAY_OPENCILK), template-
             heavy code whose every par_do and parallel_for is a spawn or
             a cilk_for; given by --parlaylib PATH or WEFT_BENCH_PARLAYLIB,
             left out (one line says so) without it
  bench      bench/*/NAME_cilk.cpp, as bench/run.py builds them
  cilk5      Cilk-5 style programs of lit-tests/cilk5

Compile time is the wall time of the compiler process, the median of --runs
interleaved runs (each run compiles every file in both modes, serial first
in odd runs and Weft first in even ones). The rest comes from the objects:
.text bytes are the sizes of every section named .text or .text.* (inline
functions and template instances each have a COMDAT section of their own),
functions are the defined function symbols (nm types t, T, W), and the Weft
object's .text splits by symbol (nm -S) into

  fast clones   the functions that push a frame (a relocation against the
                runtime's push): the spawning functions, and any caller one
                was inlined into
  .resume       the slow clones, entered by a thief at a stolen continuation
                (with the .destroy that coro-split sometimes leaves, a return)
  helpers       spawn helpers (NAME.weft.spawn, an invoke's window outlined),
                spawned statements (__weft_spawned_N) and the front end's
                assignment helpers (__weft_assign_N::run)
  loop bodies   cilk_for bodies outlined for the runtime's splitter
                (NAME.weft.pfor); one that spawns is a fast clone
  rest          every other function, and the alignment padding between all

One more column compiles each file once more, untimed, as the serial
elision of a program that links Weft's runtime (-DWEFT_LINKS_RUNTIME):
without the plugin <cilk/cilk_api.h> answers __cilkrts_get_nworkers() with
the constant 1, and parlaylib's `num_workers() == 1` tests then delete its
parallel paths from the serial elision alone; with the define the count is
a call, as in Weft's build, and the same paths stay.

A serial object that refers to the runtime, or a Weft object that does not,
stops the run: then one of the two is not what it claims to be. The table
replaces the section between the code-size markers of docs/benchmarks.md
unless --no-write; the objects stay in BUILD/bench/code_size.

--functions FILE (a file name of the set: BFS.cpp, fib_cilk.cpp, ...)
compiles that one file once in each mode and prints where Weft's extra
bytes are: the Weft object's parts with the bytes the same functions have
in the serial elision, the largest functions only Weft's object has, the
largest growths of functions both have, and the .resume against the fast
clone. Nothing is written.

Needs build/ (scripts/build.sh), or the build tree --build names, and
binutils (nm, size).
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import time

import run as bench_run

ROOT = bench_run.ROOT
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
BEGIN, END = "<!-- code-size:begin -->", "<!-- code-size:end -->"

# parlaylib's examples: small ones (primes, mergesort, knuth_shuffle) to
# graph algorithms over nested sequences (BFS, maximal_independent_set,
# bellman_ford), each of which compiles in under 20 s in either mode on the
# machine the docs were measured on.
PARLAYLIB_EXAMPLES = ["BFS", "mergesort", "knuth_shuffle", "primes", "quicksort",
                      "kth_smallest", "maximal_independent_set", "spanning_tree",
                      "word_counts", "bellman_ford"]
CILK5_PROGRAMS = ["fib.cpp", "nqueens.c", "qsort.cpp", "cilksort.cpp", "strassen.cpp",
                  "fft.cpp", "lu.cpp", "cholesky.cpp"]

CATEGORIES = ["fast", "resume", "helper", "loop", "rest"]


class Source:
    """One file of the set: its row label, path and the flags both modes
    share (the serial elision adds Weft's include directory)."""

    def __init__(self, label, path, flags):
        self.label, self.path, self.flags = label, path, flags
        self.c = path.endswith(".c")


def sources(parlaylib):
    found = []
    if parlaylib:
        flags = ["-std=c++17", "-DPARLAY_OPENCILK", "-I" + os.path.join(parlaylib, "include")]
        for name in PARLAYLIB_EXAMPLES:
            path = os.path.join(parlaylib, "examples", name + ".cpp")
            if not os.path.exists(path):
                sys.exit(f"code_size: --parlaylib {parlaylib}: no examples/{name}.cpp")
            found.append(Source(f"parlaylib/examples/{name}.cpp", path, flags))
    bench = os.path.join(ROOT, "bench")
    for name in sorted(os.listdir(bench)):
        path = os.path.join(bench, name, f"{name}_cilk.cpp")
        if os.path.exists(path):
            found.append(Source(f"bench/{name}/{name}_cilk.cpp", path, []))
    for name in CILK5_PROGRAMS:
        path = os.path.join(ROOT, "lit-tests", "cilk5", name)
        found.append(Source(f"lit-tests/cilk5/{name}", path,
                            ["-std=c11"] if name.endswith(".c") else []))
    return found


class Compilers:
    """The serial elision's compilers (the build's Clang) and Weft's drivers."""

    def __init__(self, tree):
        _, clangxx = bench_run.llvm_of(tree)
        clang = os.path.join(os.path.dirname(clangxx), "clang")
        include = "-I" + os.path.join(ROOT, "include")
        self.cxxfilt = os.path.join(os.path.dirname(clangxx), "llvm-cxxfilt")
        self.serial = {False: [clangxx, include], True: [clang, include]}
        bin_dir = os.path.join(tree, "bin")
        self.weft = {False: [os.path.join(bin_dir, "weft-clang++")],
                     True: [os.path.join(bin_dir, "weft-clang")]}
        for driver in self.weft.values():
            if not os.path.exists(driver[0]):
                sys.exit(f"code_size: no {driver[0]} (build Weft, or name a tree with --build)")

    def command(self, mode, src, obj):
        compiler = (self.weft if mode == "weft" else self.serial)[src.c]
        # The serial elision as a program that links Weft's runtime builds
        # it: the worker count a call, not the constant 1.
        linked = ["-DWEFT_LINKS_RUNTIME"] if mode == "serial_rt" else []
        return [*compiler, *src.flags, *linked, "-O2", "-c", src.path, "-o", obj]


def compile_once(cmd):
    """Wall seconds of one compilation."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"code_size: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return seconds


def text_bytes(obj):
    """Bytes of .text and every .text.* section (`size -A`)."""
    out = subprocess.run(["size", "-A", obj], capture_output=True, text=True,
                         check=True).stdout
    total = 0
    for line in out.splitlines()[2:]:
        fields = line.split()
        if len(fields) == 3 and (fields[0] == ".text" or fields[0].startswith(".text.")):
            total += int(fields[1])
    return total


def symbols(obj):
    """(defined functions as (name, size), undefined names) of an object."""
    out = subprocess.run(["nm", "-S", obj], capture_output=True, text=True,
                         check=True).stdout
    functions, undefined = [], set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] == "U":
            undefined.add(fields[1])
        elif len(fields) == 4 and fields[2] in "tTW":
            functions.append((fields[3], int(fields[1], 16)))
        elif len(fields) == 3 and fields[1] in "tTW":  # no size
            functions.append((fields[2], 0))
    return functions, undefined


def spawning_functions(obj):
    """The functions of an object that push a frame: those with a relocation
    against the runtime's push (__weft_push_preserving, which the inlined
    fast path calls on its rare path, or __weft_push where it is not
    inlined). objdump -t places each function in its section, objdump -r
    each relocation."""
    table = subprocess.run(["objdump", "-t", obj], capture_output=True, text=True,
                           check=True).stdout
    by_section = {}
    for line in table.splitlines():
        # address, seven flag characters, section, a tab, size and name
        entry = re.match(r"([0-9a-f]+) (.{7}) (\S+)\t([0-9a-f]+) (.*)$", line)
        if entry and "F" in entry.group(2):
            start, section = int(entry.group(1), 16), entry.group(3)
            size, name = int(entry.group(4), 16), entry.group(5)
            by_section.setdefault(section, []).append((start, size, name))
    relocs = subprocess.run(["objdump", "-r", obj], capture_output=True, text=True,
                            check=True).stdout
    pushing, section = set(), None
    for line in relocs.splitlines():
        if line.startswith("RELOCATION RECORDS FOR ["):
            section = line[len("RELOCATION RECORDS FOR ["):-2]
            continue
        fields = line.split()
        if section is None or len(fields) != 3 or not fields[2].startswith("__weft_push"):
            continue
        offset = int(fields[0], 16)
        for start, size, name in by_section.get(section, []):
            if start <= offset < start + size:
                pushing.add(name)
    return pushing


def category(name, pushing):
    """Which part of the Weft object a function is (the docstring's list)."""
    if name.endswith((".resume", ".destroy", ".cleanup")):
        return "resume"
    if name in pushing:
        return "fast"
    if ".weft.spawn" in name or "__weft_spawned_" in name or "__weft_assign_" in name:
        return "helper"
    if ".weft.pfor" in name:
        return "loop"
    return "rest"


def split(functions, text, pushing):
    """{category: (bytes, count)}; rest's bytes are .text's less the others'."""
    parts = {c: [0, 0] for c in CATEGORIES}
    for name, size in functions:
        part = parts[category(name, pushing)]
        part[0] += size
        # A slow clone's .destroy and .cleanup (a return, when LLVM keeps
        # them) are its bytes, not clones of their own.
        part[1] += not name.endswith((".destroy", ".cleanup"))
    parts["rest"][0] = text - sum(parts[c][0] for c in CATEGORIES if c != "rest")
    return {c: tuple(v) for c, v in parts.items()}


def inspect(obj, mode):
    """.text bytes, function count and the split of one object, checked to
    be the mode it claims."""
    functions, undefined = symbols(obj)
    runtime = sorted(u for u in undefined if u.startswith("__weft_"))
    if mode == "serial" and runtime:
        sys.exit(f"code_size: {obj} is no serial elision: it refers to {runtime[:3]}")
    if mode == "weft" and not runtime:
        sys.exit(f"code_size: {obj} calls nothing of Weft's runtime: nothing spawned")
    text = text_bytes(obj)
    pushing = spawning_functions(obj) if mode == "weft" else set()
    return {"text": text, "functions": len(functions),
            "split": split(functions, text, pushing)}


def objects(files, out_dir):
    """{(label, mode): the object file it compiles to}, named after the
    file's label (parlaylib_examples_BFS_cpp.weft.o), so that a run with
    another set finds the same objects under the same names."""
    os.makedirs(out_dir, exist_ok=True)
    obj = {}
    for src in files:
        stem = src.label.replace("/", "_").replace(".", "_")
        for mode in ("serial", "weft", "serial_rt"):
            obj[(src.label, mode)] = os.path.join(out_dir, f"{stem}.{mode}.o")
    return obj


def measure(files, compilers, runs, out_dir):
    """{(label, mode): {"seconds": median, "text": ..., "functions": ..., "split": ...}}."""
    obj = objects(files, out_dir)
    seconds = {}
    for r in range(runs):
        order = ("serial", "weft") if r % 2 == 0 else ("weft", "serial")
        for src in files:
            for mode in order:
                cmd = compilers.command(mode, src, obj[(src.label, mode)])
                seconds.setdefault((src.label, mode), []).append(compile_once(cmd))
        print(f"code_size: round {r + 1}/{runs} done", file=sys.stderr)
    # Once, untimed: only its .text is reported.
    for src in files:
        compile_once(compilers.command("serial_rt", src, obj[(src.label, "serial_rt")]))
    results = {}
    for key, path in obj.items():
        if key[1] == "serial_rt":
            results[key] = {"text": text_bytes(path)}
            continue
        results[key] = inspect(path, key[1])
        results[key]["seconds"] = statistics.median(seconds[key])
    return results


def demangle(names, cxxfilt):
    """{name: demangled}; LLVM's demangler, since binutils' gives up on
    parlaylib's longest names."""
    out = subprocess.run([cxxfilt], input="\n".join(names), capture_output=True,
                         text=True, check=True).stdout.split("\n")
    return dict(zip(names, out))


def functions_report(src, serial_obj, weft_obj, top, cxxfilt):
    """Where one file's extra bytes are: both objects function by function."""
    s_funcs, w_funcs = symbols(serial_obj)[0], symbols(weft_obj)[0]
    s_size, w_size = {}, {}
    for name, size in s_funcs:
        s_size[name] = s_size.get(name, 0) + size
    for name, size in w_funcs:
        w_size[name] = w_size.get(name, 0) + size
    names = set(w_size)
    pushing = spawning_functions(weft_obj)
    short = demangle(sorted(set(s_size) | names), cxxfilt)
    cut = lambda name: short[name] if len(short[name]) <= 110 else short[name][:107] + "..."
    both = names & set(s_size)
    print(f"{src.label}: .text {text_bytes(serial_obj):,} B serial, "
          f"{text_bytes(weft_obj):,} B Weft; functions {len(s_size)} serial, {len(w_size)} Weft")
    print("\nWeft's functions by part: bytes (count; of them also in the serial "
          "elision, and their bytes there)")
    for c in CATEGORIES:
        mine = [n for n in names if category(n, pushing) == c]
        shared = [n for n in mine if n in both]
        print(f"  {c:7} {sum(w_size[n] for n in mine):9,} ({len(mine)}; {len(shared)}, "
              f"{sum(s_size[n] for n in shared):,} B)")
    only = sorted(set(s_size) - names, key=lambda n: -s_size[n])
    print(f"  serial elision only: {sum(s_size[n] for n in only):,} B ({len(only)})")
    print("\nlargest Weft-only functions:")
    for n in sorted(names - both, key=lambda n: -w_size[n])[:top]:
        print(f"  {w_size[n]:7,} {category(n, pushing):6} {cut(n)}")
    print("\nlargest growths of functions in both:")
    grown = [n for n in both if w_size[n] > s_size[n]]
    for n in sorted(grown, key=lambda n: s_size[n] - w_size[n])[:top]:
        print(f"  {s_size[n]:7,} -> {w_size[n]:7,} {category(n, pushing):6} {cut(n)}")
    fast = [n for n in names if category(n, pushing) == "fast" and n + ".resume" in names]
    if fast:
        ratios = sorted(w_size[n + ".resume"] / max(w_size[n], 1) for n in fast)
        print(f"\n{len(fast)} fast clones with a .resume of their own, "
              f"{sum(w_size[n] for n in fast):,} B; their .resume "
              f"{sum(w_size[n + '.resume'] for n in fast):,} B; .resume / fast clone: median "
              f"{statistics.median(ratios):.2f}, from {ratios[0]:.2f} to {ratios[-1]:.2f}")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def parlaylib_version(checkout):
    """The line naming the parlaylib the table measured."""
    proc = subprocess.run(["git", "-C", checkout, "log", "-1", "--format=%h, %cs"],
                          capture_output=True, text=True)
    version = proc.stdout.strip() if proc.returncode == 0 else "not a git checkout"
    return f"parlaylib: {version}."


def table(files, results, runs, command, notes):
    head = ["file", "compile serial (s)", "compile Weft (s)", "time Weft/serial",
            ".text serial (B)", ".text Weft (B)", ".text Weft/serial",
            ".text serial, workers at run time (B)", ".text Weft/that",
            "functions serial", "functions Weft", "fast clones (B, n)", ".resume (B, n)",
            "helpers (B, n)", "loop bodies (B, n)", "rest (B)"]
    lines = [bench_run.measured_line(runs, command, "interleaved runs of each compilation"),
             *notes, "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    totals = {k: 0 for k in ("ts", "tw", "bs", "bw", "br", "fs", "fw")}
    split_totals = {c: [0, 0] for c in CATEGORIES}
    time_ratios, size_ratios, rt_ratios = [], [], []
    for src in files:
        s, w = results[(src.label, "serial")], results[(src.label, "weft")]
        r = results[(src.label, "serial_rt")]
        time_ratios.append(w["seconds"] / s["seconds"])
        size_ratios.append(w["text"] / s["text"])
        rt_ratios.append(w["text"] / r["text"])
        for key, value in zip(totals, (s["seconds"], w["seconds"], s["text"], w["text"],
                                       r["text"], s["functions"], w["functions"])):
            totals[key] += value
        for c in CATEGORIES:
            split_totals[c][0] += w["split"][c][0]
            split_totals[c][1] += w["split"][c][1]
        lines.append(row(src.label, s["seconds"], w["seconds"], f"{time_ratios[-1]:.2f}",
                         s["text"], w["text"], f"{size_ratios[-1]:.2f}",
                         r["text"], f"{rt_ratios[-1]:.2f}",
                         s["functions"], w["functions"], w["split"]))
    lines.append(row(
        f"**total** ({len(files)} files; ratios: geomean, and of the totals)",
        totals["ts"], totals["tw"],
        f"{geomean(time_ratios):.2f} ({totals['tw'] / totals['ts']:.2f})",
        totals["bs"], totals["bw"],
        f"{geomean(size_ratios):.2f} ({totals['bw'] / totals['bs']:.2f})",
        totals["br"], f"{geomean(rt_ratios):.2f} ({totals['bw'] / totals['br']:.2f})",
        totals["fs"], totals["fw"], split_totals))
    return "\n".join(lines) + "\n"


def row(label, ts, tw, time_ratio, bs, bw, size_ratio, br, rt_ratio, fs, fw, parts):
    cells = [label, f"{ts:.2f}", f"{tw:.2f}", time_ratio, f"{bs:,}", f"{bw:,}", size_ratio,
             f"{br:,}", rt_ratio, str(fs), str(fw)]
    cells += [f"{parts[c][0]:,} ({parts[c][1]})" for c in CATEGORIES[:-1]]
    cells.append(f"{parts['rest'][0]:,}")
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--build", default=bench_run.BUILD, help="Weft's build tree")
    ap.add_argument("--parlaylib", default=os.environ.get("WEFT_BENCH_PARLAYLIB"),
                    help="a checkout of github.com/cmuparlay/parlaylib (default: "
                    "$WEFT_BENCH_PARLAYLIB); its examples are left out without one")
    ap.add_argument("--no-write", action="store_true",
                    help="print the table, leave docs/ as it is")
    ap.add_argument("--functions", metavar="FILE",
                    help="instead, compile the one file of the set whose name is FILE "
                    "(BFS.cpp, fib_cilk.cpp, ...) once in each mode and compare the "
                    "objects function by function")
    ap.add_argument("--top", type=int, default=15, help="rows of each --functions list")
    a = ap.parse_args()
    if a.runs < 1:
        sys.exit("code_size: --runs must be at least 1")
    tree = os.path.abspath(a.build)
    parlaylib = a.parlaylib and os.path.abspath(a.parlaylib)
    if not parlaylib:
        print("code_size: no parlaylib checkout (--parlaylib PATH or WEFT_BENCH_PARLAYLIB): "
              "its examples are left out", file=sys.stderr)
    files = sources(parlaylib)
    if a.functions:
        chosen = [f for f in files if os.path.basename(f.path) == a.functions]
        if not chosen:
            sys.exit(f"code_size: --functions {a.functions}: no such file in the set")
        compilers, out_dir = Compilers(tree), os.path.join(tree, "bench", "code_size")
        obj = objects(chosen, out_dir)
        for mode in ("serial", "weft"):
            compile_once(compilers.command(mode, chosen[0], obj[(chosen[0].label, mode)]))
        functions_report(chosen[0], obj[(chosen[0].label, "serial")],
                         obj[(chosen[0].label, "weft")], a.top, compilers.cxxfilt)
        return
    results = measure(files, Compilers(tree), a.runs, os.path.join(tree, "bench", "code_size"))
    command = ("bench/code_size.py " + " ".join(sys.argv[1:])).strip()
    notes = [parlaylib_version(parlaylib)] if parlaylib else []
    text = table(files, results, a.runs, command, notes)
    print(text)
    if a.no_write:
        return
    bench_run.splice(DOC, text, BEGIN, END)
    print(f"code_size: written to {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
