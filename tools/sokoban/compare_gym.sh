#!/bin/sh
# tessera's Sokoban generator beside gym-sokoban's generate_room (issue 64.8), in one run:
# 10x10 rooms, 3 and 4 boxes, COUNT levels each; levels a minute (CPU time, one core), and the
# push-optimal solution lengths of both sets, measured by tessera's solver (`tessera difficulty
# --all`, which proves the fewest pushes).
#
#   TESSERA=target/release/tessera PYTHON=/tmp/gymvenv/bin/python tools/sokoban/compare_gym.sh [COUNT]
#
# PYTHON must have numpy and gym-sokoban 0.0.6 (pip install gym-sokoban==0.0.6 numpy; gym
# itself is not needed).
set -eu
COUNT=${1:-50}
TESSERA=${TESSERA:-target/release/tessera}
PYTHON=${PYTHON:-python3}
DIR=${DIR:-/tmp/tessera-gym-compare}
HERE=$(dirname "$0")
mkdir -p "$DIR"
stats() { # XSB file -> "solved mean median max" of the fewest pushes
  "$TESSERA" difficulty "$1" --all --json --states 1000000 --jobs 1 | tail -n 1 | "$PYTHON" -c '
import json, sys
levels = json.load(sys.stdin)["levels"]
p = sorted(l["features"]["pushes"] for l in levels if l.get("solved"))
print("%d/%d %.2f %d %d" % (len(p), len(levels), sum(p) / len(p), p[len(p) // 2], p[-1]))'
}
printf '%-8s %-6s %8s %10s %s\n' set boxes levels "per minute" "pushes: proved mean median max"
for b in 3 4; do
  if [ -z "${SKIP_GYM:-}" ]; then
    "$PYTHON" "$HERE/gym_rooms.py" --size 10 --boxes "$b" --count "$COUNT" --seed 1 --out "$DIR/gym$b.xsb" > "$DIR/gym$b.json"
  fi
  gym_rate=$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["rooms_per_minute"])' "$DIR/gym$b.json")
  printf '%-8s %-6s %8s %10s %s\n' gym "$b" "$COUNT" "$gym_rate" "$(stats "$DIR/gym$b.xsb")"
  "$PYTHON" - "$TESSERA" "$b" "$COUNT" "$DIR/tessera$b.xsb" > "$DIR/tessera$b.rate" <<'PY'
import resource, subprocess, sys
tessera, boxes, count, out = sys.argv[1:]
subprocess.run([tessera, "generate", "--rules", "sokoban", "--size", "10x10", "--boxes", boxes,
                "--count", count, "--seed", "1", "--states", "1000000000", "--level-states", "200000",
                "--min-steps", "1", "--jobs", "1", "--out", out, "--json"],
               check=True, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(round(60 * int(count) / (r.ru_utime + r.ru_stime), 1))
PY
  printf '%-8s %-6s %8s %10s %s\n' tessera "$b" "$COUNT" "$(cat "$DIR/tessera$b.rate")" "$(stats "$DIR/tessera$b.xsb")"
done
