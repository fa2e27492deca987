#!/usr/bin/env bash
# csmith_check.sh WEFT_CC PLAIN_CC FIRST_SEED LAST_SEED [COMPILER_FLAG...]
#
# Checks that the Weft plugin is invisible to C code that does not spawn.
# For every seed S in FIRST_SEED..LAST_SEED, `csmith --seed S` writes a random
# C program (Csmith's programs avoid undefined behaviour and print a checksum
# of their global state); it is compiled with PLAIN_CC and with WEFT_CC, both
# with -w, Csmith's header directory and the same COMPILER_FLAGs (default
# -O2), and both binaries run under `timeout` with the argument 1 (Csmith's
# main then prints the checksum after every global, not only the last). The
# Weft binary runs twice, with the default workers and with WEFT_NWORKERS=2,
# and each run's stdout and exit status must equal the plain binary's.
#
# A seed is skipped (not a failure) when Csmith fails, when the plain build
# does not compile, or when the plain run times out or exits non-zero (Csmith
# sometimes writes programs that run for minutes). A seed fails when the Weft
# build does not compile, or a Weft run crashes, times out or prints
# something else; the script then prints the seed, the flags and the first
# lines of the error or diff, keeps the program, both outputs and a repro.sh
# under $CSMITH_KEEP/seedS_FLAGS/ (default: a new directory under TMPDIR,
# named when the first failure is kept), and goes on with the next seed. The
# last two lines are
#   csmith: N passed, M failed, K skipped
#   N passed, M failed
# and the status is 1 if any seed failed (2 on a usage error).
#
# WEFT_CC and PLAIN_CC are command strings, split on spaces, as lit's
# %weftcc and %clang expand. Environment:
#   CSMITH           the csmith binary (default: csmith on PATH)
#   CSMITH_INCLUDE   the directory of csmith.h (default: searched for)
#   CSMITH_OPTS      options for csmith (default: --max-funcs 5, which keeps
#                    programs small; Csmith's other defaults stay)
#   CSMITH_TIMEOUT   seconds a plain run may take (default 5); a Weft run may
#                    take CSMITH_WEFT_TIMEOUT (default three times that, so
#                    that a loaded machine does not make a slow seed fail)
#   CSMITH_COMPILE_TIMEOUT  seconds a compile may take (default 120)
#   CSMITH_KEEP      where failing seeds are kept
#
# From the source tree with the build in build/ (Debian: apt-get install
# csmith libcsmith-dev), e.g.
#
#   bash lit-tests/random/csmith_check.sh build/bin/weft-clang \
#     /usr/lib/llvm-19/bin/clang 1 50 -O2
#
# Thousands of seeds: run ranges per optimisation level, sequentially or one
# job per core, each with its own log, and grep the logs for FAIL and the
# summary lines; failures of all jobs collect in one CSMITH_KEEP, e.g.
#
#   export CSMITH_KEEP=/tmp/csmith-fails
#   for o in -O0 -O1 -O2 -O3; do
#     bash lit-tests/random/csmith_check.sh build/bin/weft-clang \
#       /usr/lib/llvm-19/bin/clang 1 2000 $o > /tmp/csmith$o.log 2>&1
#   done
#   grep -h -e '^FAIL' -e '^csmith:' /tmp/csmith-O*.log
#
# Each seed takes about a second at -O2 (two compiles, three short runs).
# A kept failure reproduces with its repro.sh; creduce can shrink it with a
# test script that runs the two compiles and compares the outputs.
set -u

if [ $# -lt 4 ]; then
  sed -n '2,3p' "$0" >&2
  exit 2
fi
read -r -a weft_cc <<< "$1"
read -r -a plain_cc <<< "$2"
first=$3 last=$4
shift 4
flags=("$@")
[ ${#flags[@]} -eq 0 ] && flags=(-O2)
case "$first$last" in
  *[!0-9]*)
    echo "csmith_check.sh: FIRST_SEED and LAST_SEED must be numbers" >&2
    exit 2 ;;
esac

csmith=${CSMITH:-csmith}
if ! command -v "$csmith" > /dev/null 2>&1; then
  echo "csmith_check.sh: $csmith not found (Debian: apt-get install csmith libcsmith-dev)" >&2
  exit 2
fi
find_include() {
  local bin dir
  bin=$(readlink -f -- "$(command -v "$csmith")")
  for dir in "${CSMITH_INCLUDE:-}" /usr/include/csmith /usr/local/include/csmith \
      "$(dirname -- "$(dirname -- "$bin")")"/include/csmith* /usr/include/csmith-* \
      /usr/local/include/csmith-* /usr/include /usr/local/include; do
    if [ -n "$dir" ] && [ -f "$dir/csmith.h" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}
if ! include=$(find_include); then
  echo "csmith_check.sh: csmith.h not found; set CSMITH_INCLUDE (Debian: apt-get install libcsmith-dev)" >&2
  exit 2
fi
read -r -a csmith_opts <<< "${CSMITH_OPTS---max-funcs 5}"
run_timeout=${CSMITH_TIMEOUT:-5}
weft_timeout=${CSMITH_WEFT_TIMEOUT:-$((run_timeout * 3))}
compile_timeout=${CSMITH_COMPILE_TIMEOUT:-120}

work=$(mktemp -d "${TMPDIR:-/tmp}/csmith-check.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
keep_root=
# Flags as a directory-name suffix: -O2 -> _-O2, "-O1 -g" -> _-O1_-g.
flag_tag=$(printf '_%s' "${flags[@]}" | tr -c 'A-Za-z0-9=_.+-' '_')

passed=0 failed=0 skipped=0
failed_seeds=()

# quote WORD...: the words, shell-quoted, on one line.
quote() { printf '%q ' "$@"; }

# keep SEED: copy the seed's files to the keep directory, kept_dir.
kept_dir=
keep() {
  local seed=$1 dir
  if [ -z "$keep_root" ]; then
    if [ -n "${CSMITH_KEEP:-}" ]; then
      keep_root=$CSMITH_KEEP
      mkdir -p "$keep_root" || return 1
    else
      keep_root=$(mktemp -d "${TMPDIR:-/tmp}/csmith-keep.XXXXXX") || return 1
    fi
    echo "keeping failures in $keep_root"
  fi
  dir=$keep_root/seed$seed$flag_tag
  rm -rf "$dir"
  mkdir -p "$dir" || return 1
  cp "$work"/program.c "$dir"/
  for f in plain.out weft.out weft2.out weft.err weft2.err weft-compile.log; do
    [ -f "$work/$f" ] && cp "$work/$f" "$dir/"
  done
  {
    echo "#!/usr/bin/env bash"
    echo "# csmith seed $seed, flags: ${flags[*]}; regenerate: $(quote "$csmith" --seed "$seed" "${csmith_opts[@]}")"
    echo "cd \"\$(dirname \"\$0\")\" || exit 2"
    quote "${plain_cc[@]}" -w -I"$include" "${flags[@]}" program.c -o plain
    echo
    quote "${weft_cc[@]}" -w -I"$include" "${flags[@]}" program.c -o weft
    echo "|| exit 1"
    echo "timeout $run_timeout ./plain 1 > plain.out; echo \"plain exit \$?\""
    echo "timeout $weft_timeout ./weft 1 > weft.out; echo \"weft exit \$?\""
    echo "WEFT_NWORKERS=2 timeout $weft_timeout ./weft 1 > weft2.out; echo \"weft (2 workers) exit \$?\""
    echo "diff plain.out weft.out && diff plain.out weft2.out && echo same"
  } > "$dir/repro.sh"
  kept_dir=$dir
}

# fail SEED WHAT DETAIL: report a failing seed and keep its files.
fail() {
  local seed=$1 what=$2 detail=$3
  failed=$((failed + 1))
  failed_seeds+=("$seed")
  kept_dir=
  keep "$seed"
  echo "FAIL seed $seed (${flags[*]}): $what"
  [ -n "$kept_dir" ] && echo "  kept: $kept_dir (program.c, repro.sh)"
  [ -n "$detail" ] && printf '%s\n' "$detail" | head -20 | sed 's/^/  /'
  return 0
}

# run_weft SEED NAME [ENV...]: run the Weft binary, output in NAME.out,
# stderr in NAME.err; compare with the plain run. 0 when they agree.
run_weft() {
  local seed=$1 name=$2 status
  shift 2
  env "$@" timeout -k 2 "$weft_timeout" "$work/weft" 1 > "$work/$name.out" 2> "$work/$name.err"
  status=$?
  local how="Weft binary${*:+ with $*}"
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    fail "$seed" "$how timed out after ${weft_timeout}s (plain run did not)" \
      "$(tail -5 "$work/$name.err")"
    return 1
  fi
  if [ $status -gt 128 ]; then
    fail "$seed" "$how crashed (signal $((status - 128)), $(kill -l $((status - 128)) 2> /dev/null))" \
      "$(cat "$work/$name.err"; echo "stdout: $(wc -l < "$work/$name.out") of $(wc -l < "$work/plain.out") lines")"
    return 1
  fi
  if [ $status -ne "$plain_status" ]; then
    fail "$seed" "$how exited with status $status, plain with $plain_status" \
      "$(cat "$work/$name.err"; diff "$work/plain.out" "$work/$name.out")"
    return 1
  fi
  if ! cmp -s "$work/plain.out" "$work/$name.out"; then
    fail "$seed" "$how printed a different checksum" \
      "$(grep '^checksum' "$work/plain.out" | sed 's/^/plain: /'
         grep '^checksum' "$work/$name.out" | sed 's/^/weft:  /'
         diff "$work/plain.out" "$work/$name.out")"
    return 1
  fi
  return 0
}

for ((seed = first; seed <= last; ++seed)); do
  rm -f "$work"/program.c "$work"/plain "$work"/weft "$work"/*.out "$work"/*.err "$work"/*.log
  # csmith writes platform.info into its working directory.
  if ! (cd "$work" && "$csmith" --seed "$seed" "${csmith_opts[@]}" -o program.c > csmith.log 2>&1); then
    echo "skip seed $seed: csmith failed"
    skipped=$((skipped + 1))
    continue
  fi
  if ! timeout -k 5 "$compile_timeout" "${plain_cc[@]}" -w -I"$include" "${flags[@]}" \
      "$work/program.c" -o "$work/plain" > "$work/plain-compile.log" 2>&1; then
    echo "skip seed $seed: plain compile failed"
    skipped=$((skipped + 1))
    continue
  fi
  timeout -k 2 "$run_timeout" "$work/plain" 1 > "$work/plain.out" 2> /dev/null
  plain_status=$?
  if [ $plain_status -eq 124 ] || [ $plain_status -eq 137 ]; then
    echo "skip seed $seed: plain run timed out after ${run_timeout}s"
    skipped=$((skipped + 1))
    continue
  fi
  if [ $plain_status -ne 0 ]; then
    echo "skip seed $seed: plain run exited with status $plain_status"
    skipped=$((skipped + 1))
    continue
  fi
  timeout -k 5 "$compile_timeout" "${weft_cc[@]}" -w -I"$include" "${flags[@]}" \
    "$work/program.c" -o "$work/weft" > "$work/weft-compile.log" 2>&1
  status=$?
  if [ $status -ne 0 ]; then
    what="Weft compile failed (status $status)"
    [ $status -eq 124 ] && what="Weft compile timed out after ${compile_timeout}s"
    fail "$seed" "$what" "$(head -20 "$work/weft-compile.log")"
    continue
  fi
  run_weft "$seed" weft || continue
  run_weft "$seed" weft2 WEFT_NWORKERS=2 || continue
  passed=$((passed + 1))
done

if [ $failed -ne 0 ]; then
  echo "failing seeds (${flags[*]}): ${failed_seeds[*]}; kept in $keep_root"
fi
echo "csmith: $passed passed, $failed failed, $skipped skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
