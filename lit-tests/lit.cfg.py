# lit configuration for Weft (N: the LLVM version it is built for). Substitutions:
#   %weftcc, %weftcxx  the Weft drivers (plugin + headers + runtime)
#   %clang, %clangxx   plain clang-N with Weft's include path (serial elision)
#   %plugin            the Clang plugin library, for -fplugin=
#   %pass-plugin       the pass-only plugin library, for -load-pass-plugin=
#   %opt-weft          opt-N with the pass-only plugin loaded
#   %llvm-version      N
#   %run-check         runs a Weft binary at P=1,2,4 with and without
#                      WEFT_STRESS and compares stdout with a serial binary
#   %until-stolen      reruns a WEFT_STATS=1 program until it counts a steal
#                      (until-stolen.sh), for checks that steals happen
#   %stack-bound       checks a weft-stats line (a file) against the bound
#                      on fiber stacks (stack-bound.sh)
# For the package tests (package/), which build a project against an
# installed Weft or against this build tree:
#   %weft-build        this build tree (cmake --install's input, and itself a
#                      CMake package prefix)
#   %install-libdir    the library directory under an install prefix
#   %cmake-configure   cmake with this build's generator, to configure a project
#   %cmake             cmake
#   %cpack             cpack
#   %bare-clang, %bare-clangxx  clang-N with no Weft flags at all
# For the tests of the plugins in another LLVM major version's tools
# (package/other_clang.test):
#   %other-llvm-version  that version, M (feature other-clang)
#   %other-clangxx     clang++-M with Weft's include path
#   %other-bare-clang, %other-bare-clangxx  clang-M alone
#   %other-opt         opt-M
# For the MPI tests (mpi/):
#   %mpirun            the mpiexec CMake's FindMPI found
#   %mpi-example       the build directory of examples/mpi (sample_sort and
#                      its serial elision sample_sort_serial)
#   %mpi-cxxflags, %mpi-libs  what compiles and links a program against MPI
# A cross build's suite (config.weft_target, docs/install.md): its drivers
# and %clang, %clangxx, %bare-clang and %bare-clangxx compile for the
# target, %run-check, %same-at-every-p and %until-stolen run programs
# through the emulator (WEFT_RUN_PREFIX), and only the tests of
# EMULATED_SUITES that run their programs through those run; the rest say
# why they are unsupported there (feature cross).
# Features: gcc (gcc and g++ are on PATH); other-clang (clang and opt of
# another LLVM major version, 16 or later, are installed next to this one's,
# as Debian installs /usr/lib/llvm-M: the newest such M); dpkg (dpkg-deb is
# on PATH, so `cpack -G DEB` can build a package); weft-race-archive (this
# build tree holds lib/libweft_race.a, the race detector's archive that
# `--weft-race` links: the weft_race target); mpi (the build found MPI and
# built examples/mpi, and mpiexec runs); openmpi (that MPI is Open MPI, for
# tests that use its mpirun options); avx2, avx512f (the CPU has AVX2, or
# AVX-512F, by /proc/cpuinfo, for tests that run their instructions); csmith
# (Csmith and its header csmith.h are installed, which scripts/setup.sh does
# not do: `apt-get install csmith libcsmith-dev`; random/csmith.test).
import os
import re
import shutil
import subprocess
import lit.formats

config.name = "Weft"
config.test_format = lit.formats.ShTest(True)
cross = bool(config.weft_target)
config.suffixes = [".c", ".cpp", ".ll", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.weft_obj_root
config.excludes = ["Inputs", "known-bugs", "lit.cfg.py", "lit.site.cfg.py.in", "run-check.sh", "same-at-every-p.sh", "until-stolen.sh",
                   "stack-bound.sh"]

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

include = "-I" + config.weft_include_dir
target = " --target=" + config.weft_target if cross else ""
clang = os.path.join(config.llvm_tools_dir, "clang") + target
clangxx = os.path.join(config.llvm_tools_dir, "clang++") + target
plugin = os.path.join(config.weft_plugin_dir, "libWeftPlugin.so")
passlib = os.path.join(config.weft_plugin_dir, "libWeftPass.so")

config.substitutions.append(("%weft-build", config.weft_build_root))
config.substitutions.append(("%install-libdir", config.install_libdir))
config.substitutions.append(("%cmake-configure", '"{}" -G "{}" -DCMAKE_MAKE_PROGRAM="{}"'.format(
    config.cmake, config.cmake_generator, config.cmake_make_program)))
config.substitutions.append(("%cmake", '"{}"'.format(config.cmake)))
config.substitutions.append(("%cpack", '"{}"'.format(config.cpack)))
config.substitutions.append(("%llvm-version", config.llvm_version))
config.substitutions.append(("%bare-clangxx", clangxx))
config.substitutions.append(("%bare-clang", clang))
config.substitutions.append(("%weftcxx", os.path.join(config.weft_bin_dir, "weft-clang++")))
config.substitutions.append(("%weftcc", os.path.join(config.weft_bin_dir, "weft-clang")))
config.substitutions.append(("%clangxx", clangxx + " " + include))
config.substitutions.append(("%clang", clang + " " + include))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%pass-plugin", passlib))
config.substitutions.append(("%examples", os.path.join(config.weft_src_root, "examples")))
config.substitutions.append(("%opt-weft", os.path.join(config.llvm_tools_dir, "opt")
                             + " -load-pass-plugin=" + passlib))
config.substitutions.append(("%run-check", "bash " + os.path.join(
    config.test_source_root, "run-check.sh")))
config.substitutions.append(("%weft-scale", os.path.join(config.weft_bin_dir, "weft-scale")))
config.substitutions.append(("%same-at-every-p", "bash " + os.path.join(
    config.test_source_root, "same-at-every-p.sh")))
config.substitutions.append(("%until-stolen", "bash " + os.path.join(
    config.test_source_root, "until-stolen.sh")))
config.substitutions.append(("%stack-bound", "bash " + os.path.join(
    config.test_source_root, "stack-bound.sh")))

if shutil.which("gcc", path=config.environment["PATH"]) and \
        shutil.which("g++", path=config.environment["PATH"]) and not cross:
    config.available_features.add("gcc")
if os.path.exists(os.path.join(config.weft_lib_dir, "libweft_race.a")):
    config.available_features.add("weft-race-archive")
if shutil.which("dpkg-deb", path=config.environment["PATH"]):
    config.available_features.add("dpkg")
# weft-scale draws its plots with it (scripts/setup.sh installs it).
if shutil.which("gnuplot", path=config.environment["PATH"]):
    config.available_features.add("gnuplot")
if shutil.which("csmith", path=config.environment["PATH"]) and any(
        os.path.exists(os.path.join(d, "csmith.h"))
        for d in ("/usr/include/csmith", "/usr/local/include/csmith")):
    config.available_features.add("csmith")


def other_llvm():
    """The newest other LLVM major version (16 or later: the plugins ask the
    host with LLVMGetVersion, which 16 added) whose clang, clang++ and opt
    sit next to this one's, and their directory; None when there is none."""
    llvm_root = os.path.dirname(config.llvm_tools_dir)
    found = []
    for entry in os.listdir(os.path.dirname(llvm_root)):
        version = entry[len("llvm-"):]
        if not entry.startswith("llvm-") or not version.isdigit():
            continue
        if int(version) < 16 or version == config.llvm_version:
            continue
        bin_dir = os.path.join(os.path.dirname(llvm_root), entry, "bin")
        if all(os.access(os.path.join(bin_dir, tool), os.X_OK)
               for tool in ("clang", "clang++", "opt")):
            found.append((int(version), bin_dir))
    return max(found) if found else None


other = other_llvm()
if other:
    config.available_features.add("other-clang")
    other_version, other_bin = other
    config.substitutions.append(("%other-llvm-version", str(other_version)))
    config.substitutions.append(("%other-bare-clangxx", os.path.join(other_bin, "clang++")))
    config.substitutions.append(("%other-bare-clang", os.path.join(other_bin, "clang")))
    config.substitutions.append(("%other-clangxx", os.path.join(other_bin, "clang++")
                                 + " " + include))
    config.substitutions.append(("%other-opt", os.path.join(other_bin, "opt")))


def cpu_flags():
    """The CPU's feature flags as Linux lists them (none elsewhere)."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


for flag in ("avx2", "avx512f"):
    if flag in cpu_flags() and not cross:
        config.available_features.add(flag)


def mpi_missing():
    """Why the MPI tests cannot run here, or None when they can."""
    if config.weft_have_mpi != "ON":
        return ("the build found no MPI (scripts/setup.sh installs Open MPI; "
                "then reconfigure)")
    if not os.access(config.mpiexec, os.X_OK):
        return "mpiexec {} is not there".format(config.mpiexec)
    if not os.path.exists(os.path.join(config.mpi_example_dir, "sample_sort")):
        return ("examples/mpi is not built in {} (build the weft_mpi_example "
                "target)".format(config.mpi_example_dir))
    return None


def mpi_is_open_mpi():
    try:
        out = subprocess.run([config.mpiexec, "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    # Open MPI's mpiexec names its launcher, OpenRTE; its mpirun also.
    return "Open MPI" in out or "OpenRTE" in out


mpi_why_not = mpi_missing()
if mpi_why_not:
    lit_config.note("MPI tests (mpi/) are unsupported: " + mpi_why_not)
else:
    config.available_features.add("mpi")
    if mpi_is_open_mpi():
        config.available_features.add("openmpi")
    # Open MPI refuses to start as root unless told it is meant.
    if os.getuid() == 0:
        config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
config.substitutions.append(("%mpirun", config.mpiexec))
config.substitutions.append(("%mpi-example", config.mpi_example_dir))
config.substitutions.append(("%mpi-cxxflags", config.mpi_cxxflags))
config.substitutions.append(("%mpi-libs", config.mpi_libs))


# The cross build's subset (see the top), in a module of its own: lit
# sends the test format to its worker processes by name.
if cross:
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    from emulated_subset import EmulatedSubset
    config.available_features.add("cross")
    config.environment["WEFT_RUN_PREFIX"] = config.emulator
    config.test_format = EmulatedSubset(True)
