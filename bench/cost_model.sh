#!/usr/bin/env bash
# What the cost model buys: the best speedup found after each measured
# candidate, with cost-model=true and cost-model=false, over several seeds,
# on bench kernels (library proposer, fresh database per search, so no
# prior from other kernels: the model learns within the kernel only).
#
#   bench/cost_model.sh [--budget N] [--threads N] [--seeds "1 2 3"]
#                       [--jobs N] [--bin DIR] [--out DIR] [KERNEL ...]
#
# --bin: ke-opt and ke-run from DIR (a release archive's bin/) instead of
# building. --jobs: searches at once (each uses --threads threads). Prints a
# Markdown table: per kernel and mode, the mean over seeds of the best
# speedup over the naive reference after 8, 16, 24 and all candidates, and
# the spread of the final best over seeds ((max - min) / max).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
budget=32 threads=2 seeds="1 2 3" jobs=1 bin="" out="$root/build/bench/cost-model"
kernels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    -*) echo "bench/cost_model.sh: unknown option $1" >&2; exit 2 ;;
    *) kernels+=("$1"); shift ;;
  esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=(matmul softmax rmsnorm attention conv2d)
if [ -z "$bin" ]; then
  "$root/scripts/build.sh" >&2 || exit 1
  bin="$root/build/bin"
fi
[ -x "$bin/ke-opt" ] || { echo "bench/cost_model.sh: no ke-opt in $bin" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"

jobs_file="$out/jobs.txt"
: > "$jobs_file"
for kernel in "${kernels[@]}"; do
  [ -f "$root/bench/kernels/$kernel.mlir" ] || { echo "bench/cost_model.sh: no kernel $kernel" >&2; exit 2; }
  for mode in true false; do
    for seed in $seeds; do
      echo "$kernel $mode $seed" >> "$jobs_file"
    done
  done
done
search() { # kernel mode seed
  local db="$out/$1-$2-$3.db"
  rm -f "$db" "$db-wal" "$db-shm"
  # The library alone: the model ranks its schedules, not the default's variants.
  KE_RUN="$bin/ke-run" "$bin/ke-opt" "$root/bench/kernels/$1.mlir" \
    --ke-evolve="budget=$budget threads=$threads seed=$3 cost-model=$2 skills=false default-variants=false db=$db" \
    -o /dev/null 2> "$out/$1-$2-$3.log" || echo "bench/cost_model.sh: $1 cost-model=$2 seed=$3 failed (see $out/$1-$2-$3.log)" >&2
}
export -f search
export root bin out budget threads
xargs -P "$jobs" -L 1 bash -c 'search "$0" "$1" "$2"' < "$jobs_file"

# Best speedup after each measured candidate (the floor is not one).
# (Python's sqlite3: GPU hosts need not have the sqlite3 tool.)
curve() {
  python3 -c 'import sqlite3, sys
best, out = 0.0, []
for (s,) in sqlite3.connect(sys.argv[1]).execute("select coalesce(speedup, 0) from nodes where proposer != '"'default'"' order by id"):
    best = max(best, s); out.append("%.4f" % best)
print(" ".join(out))' "$1" 2>/dev/null
}
{
echo "| kernel | cost model | best after 8 | after 16 | after 24 | after $budget | spread over seeds |"
echo "|---|---|---|---|---|---|---|"
for kernel in "${kernels[@]}"; do
  for mode in true false; do
    curves=""
    for seed in $seeds; do
      curves+="$(curve "$out/$kernel-$mode-$seed.db")"$'\n'
    done
    printf '%s' "$curves" | awk -v kernel="$kernel" -v mode="$mode" -v budget="$budget" '
      function at(n, i) { return (n <= count[i]) ? value[i, n] : value[i, count[i]] }
      NF > 0 { runs++; count[runs] = NF; for (j = 1; j <= NF; j++) value[runs, j] = $j }
      END {
        if (runs == 0) { printf "| %s | %s | - | - | - | - | - |\n", kernel, mode; exit }
        split("8 16 24 " budget, points, " ")
        line = sprintf("| %s | %s", kernel, mode)
        for (p = 1; p <= 4; p++) {
          sum = 0; for (i = 1; i <= runs; i++) sum += at(points[p], i)
          line = line sprintf(" | %.2fx", sum / runs)
        }
        lo = hi = at(budget, 1)
        for (i = 2; i <= runs; i++) { v = at(budget, i); if (v < lo) lo = v; if (v > hi) hi = v }
        spread = hi > 0 ? 100 * (hi - lo) / hi : 0
        printf "%s | %.0f%% |\n", line, spread
      }'
  done
done
} | tee "$out/table.md"
