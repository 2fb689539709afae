#!/usr/bin/env bash
# The whole PuzzleScript regression suite (470 cases), side by side: the reference engine under
# Node.js (`node run_tests_node.js --sim-only`) and tessera's (`tessera puzzlescript test`), each
# run ROUNDS times alternately (this machine is shared: alternating keeps drift out of the ratio).
# For each: wall clock of the whole process and its CPU time (user + system, children included),
# medians and their ratios printed at the end. tessera runs once on one thread (`--jobs 1`, the
# engine against the engine) and once on every core (the default, as a user runs it).
#
#   tools/puzzlescript/bench_suite.sh [ROUNDS]        (default 5; needs node and ../shared)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-5}"
ref="${PUZZLESCRIPT_REFERENCE:-../shared/benchmarks/puzzlescript/reference}"
suite="$ref/tests/resources/testdata.js"
[ -f "$suite" ] || { echo "no suite at $suite" >&2; exit 2; }
command -v node >/dev/null || { echo "node is not installed" >&2; exit 2; }
cargo build -q --release -p tessera-cli
tessera="$PWD/target/release/tessera"
TIMEFORMAT='%R %U %S'
# "wall cpu" of one command (its output discarded)
timed() { { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{printf "%s %s\n", $1, $2 + $3}'; }
declare -a nw nc ow oc pw pc
for ((i = 1; i <= rounds; i++)); do
  read -r w c < <(cd "$ref/tests" && timed node run_tests_node.js --sim-only); nw+=("$w"); nc+=("$c")
  read -r w c < <(timed "$tessera" puzzlescript test "$suite" --jobs 1); ow+=("$w"); oc+=("$c")
  read -r w c < <(timed "$tessera" puzzlescript test "$suite"); pw+=("$w"); pc+=("$c")
  printf 'round %d: reference %s s (cpu %s), tessera --jobs 1 %s s (cpu %s), tessera %s s (cpu %s)\n' \
    "$i" "${nw[-1]}" "${nc[-1]}" "${ow[-1]}" "${oc[-1]}" "${pw[-1]}" "${pc[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
r() { awk "BEGIN {printf \"%.1f\", $1 / $2}"; }
NW=$(median "${nw[@]}"); NC=$(median "${nc[@]}")
OW=$(median "${ow[@]}"); OC=$(median "${oc[@]}")
PW=$(median "${pw[@]}"); PC=$(median "${pc[@]}")
printf 'median wall: reference %.2f s; tessera --jobs 1 %.2f s (%sx); tessera on %s cores %.2f s (%sx)\n' \
  "$NW" "$OW" "$(r "$NW" "$OW")" "$(nproc)" "$PW" "$(r "$NW" "$PW")"
printf 'median cpu:  reference %.2f s; tessera --jobs 1 %.2f s (%sx); tessera on %s cores %.2f s (%sx)\n' \
  "$NC" "$OC" "$(r "$NC" "$OC")" "$(nproc)" "$PC" "$(r "$NC" "$PC")"
