#!/usr/bin/env bash
# Issue 62.6: the exported page of each fixture game: its size, and the time to its first frame
# in headless chromium (window.tessera.firstFrame: ms from navigation to the first frame drawn,
# the module inflated, compiled and the game compiled included), the median of ROUNDS loads.
#
#   crates/web/tests/measure.sh [TESSERA] [ROUNDS]      (needs crates/web/build.sh, chromium,
#                                                       node and puppeteer-core, as the browser test)
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
tessera="${1:-$root/target/debug/tessera}"
rounds="${2:-5}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
echo '{"steps":[]}' >"$dir/plan.json"
printf '%-14s %10s %16s\n' game "page bytes" "first frame ms"
for g in "$root"/fixtures/games/*.txt; do
  name="$(basename "$g" .txt)"
  "$tessera" export "$g" --html "$dir/$name.html" 2>/dev/null
  times=()
  for ((i = 0; i < rounds; i++)); do
    t=$(NODE_PATH="$root/target/web/node/node_modules" node "$root/crates/web/tests/browser.mjs" \
      "$dir/$name.html" "$dir/plan.json" "$dir/out" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).firstFrameMs.toFixed(0)))')
    times+=("$t")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf '%-14s %10s %16s\n' "$name" "$(wc -c <"$dir/$name.html")" "$median"
done
