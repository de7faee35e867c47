#!/usr/bin/env bash
# What the output convention costs: each kernel timed by ke-run (default
# lowering) with --outputs=caller (buffers allocated once, written in place)
# and --outputs=kernel (fresh buffers every call), back to back.
#
#   bench/outputs.sh [--threads N] [--bin DIR] KERNEL.mlir ...
#
# Prints a Markdown table of median times (µs) and the ratio kernel/caller.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads=2 bin=""
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    -*) echo "bench/outputs.sh: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
[ ${#files[@]} -gt 0 ] || { echo "bench/outputs.sh: no kernel files" >&2; exit 2; }
if [ -z "$bin" ]; then
  "$root/scripts/build.sh" >&2 || exit 1
  bin="$root/build/bin"
fi
median() { # file convention
  "$bin/ke-run" "$1" --threads="$threads" --json --min-time=0.5 --outputs="$2" 2>/dev/null |
    python3 -c 'import json, sys
line = sys.stdin.readline()
d = json.loads(line) if line.strip() else {}
print("%.1f" % (d["time_ns"]["median"] / 1e3) if d.get("correct") and d.get("time_ns") else "-")'
}
echo "| kernel | caller (µs) | kernel (µs) | kernel / caller |"
echo "|---|---|---|---|"
for file in "${files[@]}"; do
  caller=$(median "$file" caller)
  kernel=$(median "$file" kernel)
  ratio=$(python3 -c 'import sys; a, b = sys.argv[1:]; print("%.2f" % (float(b) / float(a)) if "-" not in (a, b) else "-")' "$caller" "$kernel")
  echo "| $(basename "$file" .mlir) | $caller | $kernel | $ratio |"
done
