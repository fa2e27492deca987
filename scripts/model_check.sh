#!/usr/bin/env bash
# Checks the deque's memory orderings with GenMC, a stateless model checker
# for C11 programs (github.com/MPI-SWS/genmc; not a Debian package, so this
# is no part of scripts/test.sh): the C11 transcription of runtime/deque.h
# in test/deque_model/deque_model.h, driven by the clients beside it, each
# of which asserts that every pushed element is delivered exactly once.
#
#   scripts/model_check.sh [--genmc PATH] [--no-weakening] [--all]
#
# 1. Every client at every fence policy (fenced; unfenced, every steal a
#    membarrier; adaptive with a patient thief, which asks for fenced pops,
#    with an impatient one, which pays the membarrier, and with one that
#    asks first and pays at its second steal) under RC11, the
#    C11 model, and IMM, a hardware model that allows what Arm does: all
#    must pass. Prints the executions each explored.
# 2. Each ordering and fence deque.h argues for, weakened alone (an acquire
#    or release made relaxed, a fence left out): some client must fail, or
#    the checks could not fail at all. Prints the first failing run of
#    each, or NOT CAUGHT. Two acquires guard against load buffering, which
#    both models forbid and C++ allows: no run can fail without them, so
#    they are listed with that reason and weakened only with --all.
#
# Exits 0 when GenMC is not found (with a line saying so), 1 when a check
# fails or a weakening is not caught. docs/architecture.md, section 3, has
# the figures of the last run.
set -uo pipefail
cd "$(dirname "$0")/.."

genmc=${GENMC:-genmc}
weakening=yes
all=
while [ $# -gt 0 ]; do
  case "$1" in
    --genmc) genmc=$2; shift 2 ;;
    --no-weakening) weakening=; shift ;;
    --all) all=yes; shift ;;
    *) echo "model_check: unknown argument $1" >&2; exit 2 ;;
  esac
done
if ! command -v "$genmc" >/dev/null 2>&1; then
  echo "model_check: skipped: no GenMC ($genmc); build it from github.com/MPI-SWS/genmc and pass --genmc PATH"
  exit 0
fi

dir=test/deque_model
clients=(two_elements three_in_two_slots slot_reused_by_push)
# Cheapest first: the membarrier's model multiplies the executions.
policies=("POLICY=FENCED" "POLICY=ADAPTIVE PATIENT=1" "POLICY=UNFENCED"
          "POLICY=ADAPTIVE PATIENT=0" "POLICY=ADAPTIVE PATIENT=2")
models=(rc11 imm)

# run MODEL CLIENT "DEFINES": GenMC's verdict; prints "pass N" or "FAIL".
run() {
  local model=$1 client=$2 defines=$3 flags=() out
  for d in $defines; do flags+=("-D$d"); done
  out=$("$genmc" "-$model" -disable-estimation -- "${flags[@]}" -I"$dir" \
        "$dir/$client.c" 2>&1)
  if [ $? -eq 0 ] && grep -q "No errors were detected" <<<"$out"; then
    echo "pass $(grep -o 'explored: [0-9]*' <<<"$out" | head -1 | grep -o '[0-9]*')"
  else
    echo "FAIL"
    [ -n "${VERBOSE:-}" ] && echo "$out" | head -40 >&2
  fi
}

status=0
echo "== every client, policy and model must pass (executions explored)"
for model in "${models[@]}"; do
  for client in "${clients[@]}"; do
    for policy in "${policies[@]}"; do
      verdict=$(run "$model" "$client" "$policy")
      printf '%-5s %-20s %-28s %s\n' "$model" "$client" "$policy" "$verdict"
      [[ $verdict == pass* ]] || status=1
    done
  done
done

[ -n "$weakening" ] || exit $status

# The weakenings: each is one -D that deque_model.h reads.
weakenings=(
  ORD_PUBLISH_BOTTOM=memory_order_relaxed
  ORD_RESERVE_BOTTOM=memory_order_relaxed
  ORD_GROW_RING=memory_order_relaxed
  ORD_STEAL_BOTTOM=memory_order_relaxed
  ORD_STEAL_RING=memory_order_relaxed
  ORD_STEAL_CAS=memory_order_relaxed
  FENCE_OWNER=0
  FENCE_THIEF=0
  FENCE_MEMBARRIER=0
)
# The acquires no run can need: the thief's read of a slot, then its
# release CAS; the owner's acquire of that top, then its store into the
# reused slot. Without the acquire the read could see the store (load
# buffering): RC11 forbids that by axiom, IMM by the control dependency
# from the top loaded to the slot written; C++ forbids neither.
load_buffering=(
  ORD_PUSH_SLOW_TOP=memory_order_relaxed
  ORD_TAKE_LAST_CAS=memory_order_relaxed
)
echo "== each weakening alone must make some run fail (the first that does)"
for weak in "${weakenings[@]}" ${all:+"${load_buffering[@]}"}; do
  caught=
  for policy in "${policies[@]}"; do # cheapest first
    for client in "${clients[@]}"; do
      for model in "${models[@]}"; do
        if [ "$(run "$model" "$client" "$policy $weak")" = FAIL ]; then
          caught="$model $client $policy"
          break 3
        fi
      done
    done
  done
  if [ -n "$caught" ]; then
    printf '%-40s caught: %s\n' "$weak" "$caught"
  elif [[ " ${load_buffering[*]} " == *" $weak "* ]]; then
    printf '%-40s not caught, as both models forbid load buffering\n' "$weak"
  else
    printf '%-40s NOT CAUGHT\n' "$weak"
    status=1
  fi
done
if [ -z "$all" ]; then
  for weak in "${load_buffering[@]}"; do
    printf '%-40s not run: load buffering, which both models forbid (--all runs it)\n' "$weak"
  done
fi
exit $status
