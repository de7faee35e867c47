#!/usr/bin/env bash
# Measures the skill library's warm start: how many candidates a search on a
# kernel needs to reach a given speedup, cold (empty database) and warm
# (after a search on a similar kernel recorded its skills).
#
#   bench/warm_start.sh [--budget N] [--threads N] [--kernel NAME] [--seeds "1 2 3"]
#
# The similar kernel is bench/similar/NAME.mlir: the same op kinds as
# bench/kernels/NAME.mlir, other shapes. Prints a Markdown table.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
budget=24 threads=1 kernel=matmul_bias_relu seeds="1 2 3"
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --kernel) kernel="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    *) echo "bench/warm_start.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
"$root/scripts/build.sh" >&2 || exit 1
work="$root/build/bench/warm-start"
rm -rf "$work" && mkdir -p "$work"
first="$root/bench/kernels/$kernel.mlir"
similar="$root/bench/similar/$kernel.mlir"
[ -f "$similar" ] || { echo "bench/warm_start.sh: no similar kernel $similar" >&2; exit 2; }

evolve() { # input db seed
  # The library alone: warm starts seed its schedules.
  "$root/build/bin/ke-opt" "$1" --ke-evolve="budget=$budget threads=$threads seed=$3 default-variants=false db=$2" \
    -o /dev/null 2>> "$work/log.txt"
}
# Best speedup after each evaluated candidate of the latest run of a db.
curve() {
  sqlite3 "$1" "select coalesce(speedup, 0) from nodes where run = (select max(id) from runs) order by id" |
    awk '{ if ($1 > best) best = $1; printf "%s%.2f", (NR > 1 ? " " : ""), best } END { print "" }'
}
# Candidates until the curve reaches a level.
reach() { # curve level
  echo "$1" | awk -v level="$2" '{ for (i = 1; i <= NF; i++) if ($i >= level) { print i; exit } print "never" }'
}

echo "| seed | search on bench/similar/$kernel | best after 1 | after 4 | after $budget | candidates to reach the first search's best | to reach 95% of cold's best |"
echo "|---|---|---|---|---|---|---|"
for seed in $seeds; do
  evolve "$similar" "$work/cold-$seed.db" "$seed" || exit 1
  evolve "$first" "$work/warm-$seed.db" "$seed" || exit 1
  first_best=$(curve "$work/warm-$seed.db" | awk '{ print $NF }')
  evolve "$similar" "$work/warm-$seed.db" "$seed" || exit 1
  cold=$(curve "$work/cold-$seed.db")
  warm=$(curve "$work/warm-$seed.db")
  level=$(echo "$cold" | awk '{ printf "%.2f", 0.95 * $NF }')
  for name in cold warm; do
    c=$([ $name = cold ] && echo "$cold" || echo "$warm")
    echo "| $seed | $name | $(echo "$c" | awk '{print $1}')x | $(echo "$c" | awk '{print $4}')x | $(echo "$c" | awk '{print $NF}')x | $(reach "$c" "$first_best") (${first_best}x) | $(reach "$c" "$level") (${level}x) |"
  done
done
