#!/usr/bin/env bash
# ke on a directory of kernels it was not written for (../shared/kernelbench,
# or any folder of .mlir files, searched recursively): per kernel, ke-run on
# ke's default lowering (checked and timed), ke-evolve, and the search's
# output re-checked and timed with ke-run against the original reference;
# then a Markdown table with fast_0 (correct) for both, and the search's
# speedup over the default lowering. With PyTorch timings (a JSONL file from
# bench/kernelbench_torch.py) it adds fast_1/fast_2 and the geomean against
# PyTorch eager and torch.compile.
#
#   bench/kernelbench.sh DIR [--target cpu] [--budget N] [--threads N]
#                        [--torch FILE.jsonl] [--out DIR]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { sed -n 2,13p "$0" >&2; exit 2; }
dir="$1"; shift
budget=16 threads=2 target=cpu torch="" out="$root/build/bench/kernelbench"
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --torch) torch="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "bench/kernelbench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "$target" = cpu ] || { echo "bench/kernelbench.sh: only --target cpu runs here (nvgpu: bench/gpu_run.sh)" >&2; exit 2; }
"$root/scripts/build.sh" >&2 || exit 1
bin="$root/build/bin"
mkdir -p "$out"
results="$out/results.jsonl"
: > "$results"
rm -f "$out/ke.db" "$out/ke.db-wal" "$out/ke.db-shm"
for src in $(find "$dir" -name '*.mlir' | sort); do
  name=$(basename "$(dirname "$src")")_$(basename "$src" .mlir)
  echo "== $name" >&2
  default=$(timeout 900 "$bin/ke-run" "$src" --json --threads "$threads" --timeout 600 2>/dev/null | tail -1)
  timeout 3600 "$bin/ke-opt" "$src" --ke-evolve="budget=$budget threads=$threads db=$out/ke.db" \
    -o "$out/$name.best.mlir" 2> "$out/$name.evolve.txt"
  evolve_status=$?
  best=""
  if [ $evolve_status -eq 0 ]; then
    best=$(timeout 900 "$bin/ke-run" "$out/$name.best.mlir" --reference "$src" --naive --json \
      --threads "$threads" --timeout 600 2>/dev/null | tail -1)
  fi
  python3 - "$name" "$src" "$evolve_status" "$default" "$best" >> "$results" <<'PY'
import json, sys
name, src, status, default, best = sys.argv[1:6]
def parse(text):
    try:
        return json.loads(text)
    except Exception:
        return None
print(json.dumps({"name": name, "file": src, "evolve_status": int(status),
                  "default": parse(default), "best": parse(best)}))
PY
done
python3 "$root/bench/kernelbench_table.py" "$results" ${torch:+--torch "$torch"}
