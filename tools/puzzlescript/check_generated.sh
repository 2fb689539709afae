#!/usr/bin/env bash
# Levels generated for games tessera's fixtures do not have (PuzzleScript's regression suite's
# games), checked in the reference engine: `tessera generate` on each game in suite order
# until COUNT games gave levels, then every level's listed solution played in the reference
# (check_generated.js). Exits 1 when a solution does not win there.
#
#   tools/puzzlescript/check_generated.sh [COUNT] [OUTDIR]     (default 10, target/generate-check)
#
# Each game: `--count 2 --states 1000000 --level-states 20000 --min-steps 4`; a game tessera cannot
# generate for (no win condition, realtime, nothing proved in the budget) is skipped, and the
# table says so.
set -euo pipefail
cd "$(dirname "$0")/../.."
count="${1:-10}"
out="${2:-target/generate-check}"
ref="${PUZZLESCRIPT_REFERENCE:-../shared/benchmarks/puzzlescript/reference}"
suite="$ref/tests/resources/testdata.js"
[ -f "$suite" ] || { echo "no suite at $suite" >&2; exit 2; }
command -v node >/dev/null || { echo "node is not installed" >&2; exit 2; }
tessera="${TESSERA:-}"
if [ -z "$tessera" ]; then
  cargo build -q --release -p tessera-cli
  tessera="$PWD/target/release/tessera"
fi
rm -rf "$out"
mkdir -p "$out/games" "$out/generated"
node tools/puzzlescript/suite_games.js "$suite" "$out/games" >/dev/null
done_games=0
results=()
for game in "$out"/games/*.txt; do
  [ "$done_games" -ge "$count" ] && break
  name="$(basename "$game" .txt)"
  if "$tessera" generate "$game" --count 2 --states 1000000 --level-states 20000 --min-steps 4 --jobs 2 \
      --json --out "$out/generated/$name.txt" >"$out/generated/$name.json" 2>"$out/generated/$name.err"; then
    printf 'generated %s: %s\n' "$name" "$(tail -1 "$out/generated/$name.json" | node -e \
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.levels.map(l=>l.steps+" steps").join(", "))})')"
    results+=("$out/generated/$name.json")
    done_games=$((done_games + 1))
  else
    printf 'skipped %s: %s\n' "$name" "$(tail -1 "$out/generated/$name.err" | cut -c1-160)"
  fi
done
[ "${#results[@]}" -gt 0 ] || { echo "no game gave levels" >&2; exit 1; }
node tools/puzzlescript/check_generated.js "$ref" "${results[@]}"
