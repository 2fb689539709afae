#!/usr/bin/env bash
# The Slurm path, for real, on one machine: starts munge and a single-node Slurm (slurmctld +
# slurmd, a minimal slurm.conf in a temporary folder), submits deploy/slurm/submit.sh for a pack
# of 6 levels x 40 games in 4 shards, waits for the merge job, and checks the results file is
# byte for byte the one `tessera pack rate` writes on one machine; then the same for level
# generation (deploy/slurm/submit-generate.sh: fixtures/games/fuse.txt in 3 shards, joined by
# `tessera generate merge`, against one machine's OUT). Run by .ci/run.
#
#   deploy/slurm/test-single-node.sh [TESSERA_BINARY]
#
# Needs root (or sudo) to install Debian's slurm-wlm and munge; without them it says why and
# exits 0 (skipped). Exit 1 if the results differ or a job fails; everything it started is
# stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
start_time=$(date +%s%N)
elapsed() { local ms=$((($(date +%s%N) - start_time) / 1000000)); printf "%d.%03d s" $((ms / 1000)) $((ms % 1000)); }
TESSERA="${1:-$root/target/debug/tessera}"

skip() { echo "slurm test skipped: $*"; exit 0; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo"; else skip "not root and no sudo"; fi
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || skip "no apt-get to install slurm-wlm and munge"
  install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q slurm-wlm munge >/dev/null 2>&1; }
  install || { $SUDO apt-get update -q >/dev/null 2>&1 && install; } || skip "apt-get could not install slurm-wlm and munge"
fi
[ -x "$TESSERA" ] || { echo "no tessera binary at $TESSERA (cargo build -p tessera-cli)" >&2; exit 1; }

tmp="$(mktemp -d /tmp/tessera-slurm.XXXXXX)"
chmod 755 "$tmp"
pids=()
cleanup() {
  for p in "${pids[@]}"; do $SUDO kill "$p" 2>/dev/null || true; done
  for f in "$tmp"/slurmctld.pid "$tmp"/slurmd.pid "$tmp"/munge/munged.pid; do
    [ -f "$f" ] && $SUDO kill "$(cat "$f")" 2>/dev/null || true
  done
  sleep 1
  $SUDO rm -rf "$tmp" 2>/dev/null || true
}
trap cleanup EXIT

# munge: a key of our own and a socket in our folder, so a system munged is left alone.
mkdir -p "$tmp/munge"
$SUDO dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
$SUDO chown -R munge:munge "$tmp/munge" 2>/dev/null || true
$SUDO chmod 700 "$tmp/munge"; $SUDO chmod 400 "$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
$SUDO -u munge true 2>/dev/null || true
munge_user="munge"; id munge >/dev/null 2>&1 || munge_user="root"
$SUDO runuser -u "$munge_user" -- munged --force --key-file="$tmp/munge/munge.key" --socket="$sock" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" \
  || { tail -5 "$tmp/munge/munged.log" 2>/dev/null || true; skip "munged did not start on this machine"; }
$SUDO chmod 755 "$tmp/munge"

host="$(hostname -s)"
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/log"
cat > "$tmp/slurm.conf" <<CONF
ClusterName=tessera-test
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=300
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start on this machine"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmd -f "$SLURM_CONF" || skip "slurmd did not start on this machine"
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then break; fi
  sleep 1
done
# Daemons that cannot start here (no cgroups, no name for the host...) are this machine's
# limit, not a fault of the scripts under test: say so loudly, with the logs, and skip.
sinfo -h -o '%t' | grep -qE '^(idle|mix|alloc)' || {
  echo "slurm did not come up:"; sinfo || true; tail -20 "$tmp"/log/*.log || true
  skip "the single-node Slurm daemons did not start on this machine (logs above)"; }
echo "slurm up on $host after $(elapsed)"

# The pack: six fixture levels, each rated over 40 games.
work="$tmp/pack"
mkdir -p "$work/levels"
for l in classic collapse_seed collapse_center_board match3_locks stage_0001 skirmish; do
  cp "fixtures/levels/$l.json" "$work/levels/"
done
"$TESSERA" pack new "$work/six.json" --name "six levels" >/dev/null
"$TESSERA" pack add "$work/six.json" "$work"/levels/*.json >/dev/null
flags=(--bot random --bot collapse=greedy --games 40 --max-moves 400 --unit-games 10)
cp -r "$work" "$tmp/one"
"$TESSERA" pack rate "$tmp/one/six.json" "${flags[@]}" --jobs 1 >/dev/null
chmod -R a+rwX "$tmp"

ids=$(WORK="$work/shards" TESSERA="$TESSERA" deploy/slurm/submit.sh "$work/six.json" 4 "${flags[@]}")
read -r array merge <<<"$ids"
echo "submitted array $array (4 shards) and merge $merge"
for _ in $(seq 240); do
  state=$(scontrol show job "$merge" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true)
  case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
  sleep 1
done
if [ "${state:-}" != "COMPLETED" ]; then
  echo "merge job ended as '${state:-unknown}'"
  scontrol show job "$array" || true
  tail -n 20 "$work"/shards/*.out "$tmp"/log/*.log || true
  exit 1
fi
if cmp "$tmp/one/six.results.json" "$work/six.results.json"; then
  echo "slurm: 4 shards merged = one machine, byte for byte ($(wc -c <"$work/six.results.json") bytes)"
else
  echo "slurm: merged results differ from the one-machine results"
  diff "$tmp/one/six.results.json" "$work/six.results.json" | head -20
  exit 1
fi
# Level generation: 3 shards and a join against one machine, byte for byte.
wait_job() {
  local job="$1" state=""
  for _ in $(seq 240); do
    state=$(scontrol show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true)
    case "$state" in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) break ;; esac
    sleep 1
  done
  echo "$state"
}
gen="$tmp/generate"
mkdir -p "$gen"
chmod 777 "$gen"
gen_flags=("$root/fixtures/games/fuse.txt" --count 4 --seed 1 --states 400000 --level-states 5000)
"$TESSERA" generate "${gen_flags[@]}" --jobs 1 --out "$gen/one.txt" >/dev/null
ids=$(WORK="$gen/parts" TESSERA="$TESSERA" deploy/slurm/submit-generate.sh "$gen/joined.txt" 3 "${gen_flags[@]}")
read -r array merge <<<"$ids"
echo "submitted generate array $array (3 shards) and merge $merge"
state=$(wait_job "$merge")
if [ "$state" != "COMPLETED" ]; then
  echo "generate merge job ended as '${state:-unknown}'"
  scontrol show job "$array" || true
  tail -n 20 "$gen"/parts/*.out "$tmp"/log/*.log || true
  exit 1
fi
if cmp "$gen/one.txt" "$gen/joined.txt"; then
  echo "slurm: 3 generate shards joined = one machine, byte for byte ($(wc -c <"$gen/joined.txt") bytes)"
else
  echo "slurm: the joined levels differ from the one-machine levels"
  diff "$gen/one.txt" "$gen/joined.txt" | head -20
  exit 1
fi
echo "slurm test wall time: $(elapsed)"
