#!/usr/bin/env bash
# The search on a GPU host: ke-evolve target=nvgpu from the release archive
# (scripts/release.sh), every candidate checked and timed on the GPU by
# ke-run, then the best kernel re-timed next to ke's default GPU lowering and
# PyTorch (eager, torch.compile) on the same shapes.
#   bench/gpu_search.sh ARCHIVE OUT [--budget N] [--torch] [KERNEL.mlir ...]
# Kernels default to bench/kernels/*.mlir. OUT gets ke.db, per kernel the
# search's log and best IR, default.jsonl, best.jsonl, torch.jsonl and
# table.md (bench/gpu_table.py).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
archive="${1:?bench/gpu_search.sh ARCHIVE OUT [--budget N] [--torch] [KERNEL ...]}"
out="${2:?OUT directory}"
shift 2
budget=8
torch=0
kernels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget="$2"; shift 2 ;;
    --torch) torch=1; shift ;;
    *) kernels+=("$1"); shift ;;
  esac
done
[ ${#kernels[@]} -gt 0 ] || kernels=("$root"/bench/kernels/*.mlir)
mkdir -p "$out"
unpacked="$(mktemp -d)"
tar -xJf "$archive" -C "$unpacked" || exit 1
bin="$unpacked/ke/bin"
for kernel in "${kernels[@]}"; do
  name="$(basename "$kernel" .mlir)"
  start=$(date +%s)
  timeout 420 "$bin/ke-opt" "$kernel" \
    --ke-evolve="target=nvgpu budget=$budget db=$out/ke.db" \
    -o "$out/$name.best.mlir" 2> "$out/$name.evolve.log"
  echo "$name: ke-evolve exit $?, $(( $(date +%s) - start )) s" >&2
  grep "^| $name |" "$out/$name.evolve.log" >&2
  "$bin/ke-run" "$kernel" --target nvgpu --seeds 2 --json \
    >> "$out/default.jsonl" 2>> "$out/$name.run.log"
  [ -s "$out/$name.best.mlir" ] &&
    "$bin/ke-run" "$out/$name.best.mlir" --reference "$kernel" --naive \
      --target nvgpu --seeds 2 --json >> "$out/best.jsonl" \
      2>> "$out/$name.run.log"
done
if [ $torch -eq 1 ]; then
  python3 "$root/bench/baselines/torch_bench.py" --device cuda --compile \
    > "$out/torch.jsonl" 2> "$out/torch.log"
  python3 "$root/bench/gpu_table.py" "$out/best.jsonl" "$out/torch.jsonl" \
    > "$out/table.md"
fi
rm -rf "$unpacked"
