#!/usr/bin/env bash
# Rates a pack on a Slurm cluster: a job array of SHARDS tasks (one `tessera pack rate --shard
# K/SHARDS` each) and a merge job that starts when all of them succeeded (afterok).
#
#   deploy/slurm/submit.sh PACK SHARDS [sbatch options --] RATE_FLAGS...
#   deploy/slurm/submit.sh /shared/campaign.json 16 --bot match3-mcts --games 1000
#   deploy/slurm/submit.sh /shared/campaign.json 16 --partition=long --cpus-per-task=4 -- --bot mcts --games 500
#
# PACK, its levels and WORK (default: PACK's folder/shards-NAME) must be on a file system every
# node sees; TESSERA (default: `tessera` on PATH) must run on every node. Prints the two job ids
# (array, merge); `sbatch`'s own options (before `--`) go to both jobs. Each task uses
# --cpus-per-task threads.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
PACK="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
SHARDS="$2"
shift 2
sbatch_opts=()
if printf '%s\n' "$@" | grep -qx -- '--'; then
  while [ "$1" != "--" ]; do sbatch_opts+=("$1"); shift; done
  shift
fi
case "$SHARDS" in '' | *[!0-9]* | 0) echo "SHARDS must be a number of at least 1" >&2; exit 2 ;; esac
name="$(basename "$PACK" .json)"
WORK="${WORK:-$(dirname "$PACK")/shards-$name}"
mkdir -p "$WORK"
export PACK SHARDS WORK TESSERA="${TESSERA:-tessera}"
array=$(sbatch --parsable "${sbatch_opts[@]}" --array="0-$((SHARDS - 1))" \
  --output="$WORK/rate-%a.out" --export=ALL "$here/rate-shard.sbatch" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable "${sbatch_opts[@]}" --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$WORK/merge.out" --export=ALL "$here/merge.sbatch")
echo "$array ${merge%%;*}"
