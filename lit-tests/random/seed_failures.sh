# Sourced by run_seeds.sh and run_constructs.sh: the seeds that failed so
# far, and how each failure is reported (the generator is $gen).
failed=()
fail() { # seed program what details...
  local seed=$1 src=$2 what=$3
  shift 3
  echo "FAIL seed $seed: $what"
  echo "  generated program: $src"
  echo "  regenerate: python3 $gen --seed $seed ${GEN_ARGS:-}"
  for line in "$@"; do echo "  $line"; done
  failed+=("$seed")
}
