#!/usr/bin/env bash
# Long random-input runs of the regression suite's games, side by side (issue 38.5): every
# STRIDE-th distinct (game, level) of the suite, each played with INPUTS random inputs (up, left,
# down, right, action; a fixed seed, so every run plays the same inputs), through the reference
# engine under Node.js (`reference.js`, its `runTest` procedure) and through tessera's
# (`tessera puzzlescript test --jobs 1`: the same procedure; the cases have no expected board,
# so tessera reports them all as failing, which is not what is measured). Each runs ROUNDS times
# alternately; the medians of their CPU times (user + system) and the ratio are printed.
#
#   tools/puzzlescript/bench_random.sh [ROUNDS] [INPUTS] [STRIDE]   (default 3, 200, 8)
#
# With TESSERA_BASELINE=PATH (another build of `tessera`, say an earlier commit's), each round
# also times that binary on the same cases, so that the two builds are compared round by round
# on the same load (this machine's figures drift by a third between runs).
#
# The reference runs a game's `again` turns without end (tessera stops after 2,000): with 500
# inputs on every 4th game it had not finished after 4 minutes of CPU (where the defaults take
# 10 s), likely in such a loop. The defaults (58 games) end.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds="${1:-3}"
inputs="${2:-200}"
stride="${3:-8}"
baseline="${TESSERA_BASELINE:-}"
[ -z "$baseline" ] || [ -x "$baseline" ] || { echo "TESSERA_BASELINE=$baseline: not an executable file" >&2; exit 2; }
ref="${PUZZLESCRIPT_REFERENCE:-../shared/benchmarks/puzzlescript/reference}"
suite="$ref/tests/resources/testdata.js"
[ -f "$suite" ] || { echo "no suite at $suite" >&2; exit 2; }
command -v node >/dev/null || { echo "node is not installed" >&2; exit 2; }
cargo build -q --release -p tessera-cli
tessera="$PWD/target/release/tessera"
cases="$(mktemp --suffix .json)"
trap 'rm -f "$cases"' EXIT
node - "$suite" "$inputs" "$stride" >"$cases" <<'EOF'
const fs = require('fs');
const vm = require('vm');
const [suite, n, stride] = process.argv.slice(2);
const ctx = {};
vm.runInNewContext(fs.readFileSync(suite, 'utf8') + '\n;this.testdata = testdata;', ctx);
let x = 0x5eed;
const next = () => { x = (Math.imul(x, 1103515245) + 12345) >>> 0; return x >>> 16; };
const seen = new Set();
const out = [];
let k = 0;
for (const [name, data] of ctx.testdata) {
    const key = data[0] + '\u0000' + (data[3] || 0);
    if (seen.has(key)) continue;
    seen.add(key);
    if (k++ % Number(stride) !== 0) continue;
    const inputs = Array.from({ length: Number(n) }, () => next() % 5);
    out.push([name, [data[0], inputs, '', data[3] || 0, data[4]]]);
}
process.stderr.write(`${out.length} games, ${n} random inputs each\n`);
process.stdout.write(JSON.stringify(out));
EOF
TIMEFORMAT='%U %S'
# CPU seconds of one command (its output discarded; tessera exits 1: the cases have no board)
cpu() { { time "$@" >/dev/null 2>&1 || true; } 2>&1 | awk '{printf "%s\n", $1 + $2}'; }
declare -a rc tc bc
for ((i = 1; i <= rounds; i++)); do
  rc+=("$(cpu node tools/puzzlescript/reference.js "$ref" "$cases")")
  # (with a baseline, the two builds take turns at running first: the run right after the
  # reference's is the slower, by a tenth here)
  if [ -n "$baseline" ] && ((i % 2 == 0)); then
    bc+=("$(cpu "$baseline" puzzlescript test "$cases" --jobs 1)")
    tc+=("$(cpu "$tessera" puzzlescript test "$cases" --jobs 1)")
  else
    tc+=("$(cpu "$tessera" puzzlescript test "$cases" --jobs 1)")
    [ -z "$baseline" ] || bc+=("$(cpu "$baseline" puzzlescript test "$cases" --jobs 1)")
  fi
  if [ -n "$baseline" ]; then
    printf 'round %d: reference %s s cpu, tessera --jobs 1 %s s cpu, baseline %s s cpu\n' "$i" "${rc[-1]}" "${tc[-1]}" "${bc[-1]}"
  else
    printf 'round %d: reference %s s cpu, tessera --jobs 1 %s s cpu\n' "$i" "${rc[-1]}" "${tc[-1]}"
  fi
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
R=$(median "${rc[@]}"); T=$(median "${tc[@]}")
printf 'median cpu: reference %.2f s; tessera --jobs 1 %.2f s (%sx)\n' "$R" "$T" "$(awk "BEGIN {printf \"%.1f\", $R / $T}")"
if [ -n "$baseline" ]; then
  B=$(median "${bc[@]}")
  printf 'baseline --jobs 1 %.2f s (%sx)\n' "$B" "$(awk "BEGIN {printf \"%.1f\", $R / $B}")"
fi
