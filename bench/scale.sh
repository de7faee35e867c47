#!/usr/bin/env bash
# Candidates per minute with ke-evolve executor=slurm and 1, then 2, Slurm
# workers (jobs in flight), on a one-node Slurm cluster of this machine
# (test/Slurm/cluster.sh; SLURM_CONF set: that cluster instead), and what a
# candidate costs the coordinator (the search process's own CPU time).
#
#   bench/scale.sh [--budget N] [--kernel FILE.mlir] [--workers "1 2"] [--out DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
budget=16 kernel="$root/bench/kernels/softmax.mlir" workers_list="1 2" out="$root/build/bench/scale"
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget="$2"; shift 2 ;;
    --kernel) kernel="$2"; shift 2 ;;
    --workers) workers_list="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n 2,8p "$0"; exit 0 ;;
    *) echo "bench/scale.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
"$root/scripts/build.sh" >&2 || exit 1
mkdir -p "$out"
out="$(cd "$out" && pwd)"
own_cluster=0
if [ -z "${SLURM_CONF:-}" ]; then
  started=$("$root/test/Slurm/cluster.sh" start "$out/cluster") || exit 1
  export "$started"
  own_cluster=1
  trap '"$root/test/Slurm/cluster.sh" stop "$out/cluster"' EXIT
fi
# The search phase: from ke's default lowering committed (the reference and
# the floor are one evaluation each, in series) to the last candidate.
echo "| workers | seconds (all) | candidates | search-phase seconds | candidates per minute | vs 1 worker | efficiency | coordinator ms per candidate |"
echo "|---|---|---|---|---|---|---|---|"
base=""
for workers in $workers_list; do
  db="$out/scale-$workers.db"
  rm -f "$db" "$db-wal" "$db-shm"
  start=$(date +%s.%N)
  "$root/build/bin/ke-opt" "$kernel" --ke-evolve="budget=$budget workers=$workers threads=1 executor=slurm db=$db min-time=0.05 skills=false warm-start=false" \
    -o "$out/scale-$workers.mlir" 2> "$out/scale-$workers.log"
  end=$(date +%s.%N)
  phase=$(sqlite3 "$db" "select count(*), max(created) - (select created from nodes where proposer = 'default') from nodes where proposer != 'default'")
  coordinator=$(sed -n 's/.*coordinator CPU .*, \([0-9]*\) ms per candidate.*/\1/p' "$out/scale-$workers.log")
  rate=$(python3 - "$workers" "$start" "$end" "$phase" "${coordinator:-?}" "$base" <<'PY'
import sys
workers, start, end, phase, coordinator, base = sys.argv[1:7]
candidates, seconds = phase.split("|")
candidates, seconds = int(candidates), float(seconds)
rate = candidates * 60 / seconds
ratio = rate / float(base) if base else 1.0
print(f"{rate} | {workers} | {float(end) - float(start):.1f} | {candidates} | {seconds:.1f} | {rate:.1f} | "
      f"{ratio:.2f}x | {ratio / int(workers):.2f} | {coordinator} |")
PY
)
  echo "| ${rate#* | }"
  [ -n "$base" ] || base="${rate%% *}"
done
