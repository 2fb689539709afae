#!/usr/bin/env bash
# The whole PuzzleScript regression suite (470 cases), side by side: the reference engine under
# Node.js (`node run_tests_node.js --sim-only`) and tessera's (`tessera puzzlescript test`), each
# run ROUNDS times alternately (this machine is shared: alternating keeps drift out of the ratio),
# wall clock per whole process, medians and their ratio printed at the end.
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
now() { date +%s.%N; }
node_times=(); ours_times=()
for ((i = 1; i <= rounds; i++)); do
  t0=$(now); (cd "$ref/tests" && node run_tests_node.js --sim-only >/dev/null); t1=$(now)
  "$tessera" puzzlescript test "$suite" >/dev/null; t2=$(now)
  node_times+=("$(awk "BEGIN {print $t1 - $t0}")"); ours_times+=("$(awk "BEGIN {print $t2 - $t1}")")
  printf 'round %d: reference %.3f s, tessera %.3f s\n' "$i" "${node_times[-1]}" "${ours_times[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
n=$(median "${node_times[@]}"); o=$(median "${ours_times[@]}")
printf 'median: reference %.3f s, tessera %.3f s: %.1fx faster\n' "$n" "$o" "$(awk "BEGIN {print $n / $o}")"
