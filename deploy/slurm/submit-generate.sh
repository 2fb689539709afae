#!/usr/bin/env bash
# Generates levels on a Slurm cluster: a job array of SHARDS tasks (one `tessera generate ...
# --shard K/SHARDS` each, writing a part) and a merge job that joins the parts into OUT when all
# of them succeeded (afterok). OUT is byte for byte what one machine writes with the same flags.
#
#   deploy/slurm/submit-generate.sh OUT SHARDS [sbatch options --] GENERATE_FLAGS...
#   deploy/slurm/submit-generate.sh /shared/more.txt 16 /shared/game.txt --count 40 --seed 1 --states 400000000
#   deploy/slurm/submit-generate.sh /shared/rooms.xsb 8 --partition=long -- --rules sokoban --size 10x10 --boxes 4 --count 100 --states 1000000000
#
# The flags need --states (a budget of states: a clock cannot be split). The game, WORK
# (default: OUT's folder/parts-NAME) and OUT must be on a file system every node sees, and the
# game's path must read the same on every node (an absolute path); TESSERA (default: `tessera`
# on PATH) must run on every node. Prints the two job ids (array, merge).
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
OUT="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SHARDS="$2"
shift 2
sbatch_opts=()
if printf '%s\n' "$@" | grep -qx -- '--'; then
  while [ "$1" != "--" ]; do sbatch_opts+=("$1"); shift; done
  shift
fi
case "$SHARDS" in '' | *[!0-9]* | 0) echo "SHARDS must be a number of at least 1" >&2; exit 2 ;; esac
printf '%s\n' "$@" | grep -qx -- '--states' || { echo "give --states N: only a budget of states can be split" >&2; exit 2; }
name="$(basename "$OUT")"
WORK="${WORK:-$(dirname "$OUT")/parts-${name%.*}}"
mkdir -p "$WORK"
export OUT SHARDS WORK TESSERA="${TESSERA:-tessera}"
array=$(sbatch --parsable "${sbatch_opts[@]}" --array="0-$((SHARDS - 1))" \
  --output="$WORK/generate-%a.out" --export=ALL "$here/generate-shard.sbatch" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable "${sbatch_opts[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$WORK/merge.out" --export=ALL "$here/generate-merge.sbatch")
echo "$array ${merge%%;*}"
