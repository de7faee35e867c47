#!/usr/bin/env bash
# GEMMs on an NVIDIA GPU, ke against cuBLAS, on the GPU host from the
# release archive (no LLVM there: bash, tar, xz, python3 with torch, the
# CUDA driver):
#
#   bench/gpu_gemm.sh ARCHIVE OUT.jsonl [--sizes "1024 2048 4096"]
#                     [--types "f32 tf32 bf16"] [--seeds N]
#                     [--knobs "ARGS|ARGS|..."] [--layouts "nn nt"]
#                     [--no-cublas]
#
# Per type and size N: an N^3 matmul kernel (f32: exact; tf32: f32 under
# ke.precision = "tf32"; bf16: bf16 inputs, f32 result), run by ke-run
# --target nvgpu (checked on the GPU against the CPU reference on --seeds
# seeds, timed with CUDA events, L2 flushed, median) once per knob set
# (ke-run flags, e.g. "--gpu-shared-tile=128 --gpu-warps=8"; the empty set
# is ke's default) and B layout (nn: [K][N]; nt: [N][K] transposed in the
# kernel, as torch-mlir writes a Linear), then cuBLAS through torch.mm timed the same way
# (bench/gpu_gemm_torch.py). One JSON line per run in OUT.jsonl, with
# "type", "size" and "knobs" (ke) or "library": "cublas".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage='bench/gpu_gemm.sh ARCHIVE OUT.jsonl [--sizes "N ..."] [--types "f32 tf32 bf16"] [--seeds N] [--knobs "ARGS|ARGS"] [--layouts "nn nt"] [--no-cublas]'
archive="${1:?$usage}"
out="${2:?$usage}"
shift 2
sizes="1024 2048 4096"
types="f32 tf32 bf16"
seeds=2
knobs=""
layouts="nn"
cublas=1
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --types) types="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --knobs) knobs="$2"; shift 2 ;;
    --layouts) layouts="$2"; shift 2 ;;
    --no-cublas) cublas=0; shift ;;
    *) echo "bench/gpu_gemm.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$archive" ] || { echo "bench/gpu_gemm.sh: no archive $archive" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xJf "$archive" -C "$work" || exit 1
bin="$work/ke/bin"
: > "$out"

kernel() { # TYPE N LAYOUT: an N^3 matmul of that type, printed
  # LAYOUT nn: B is [K][N]; nt: B is [N][K], transposed first as
  # torch-mlir writes x @ W.T (a Linear's weight).
  local type="$1" n="$2" layout="$3" input=f32 attrs="" b="%B"
  [ "$type" = bf16 ] && input=bf16
  [ "$type" = tf32 ] && attrs=', ke.precision = "tf32"'
  cat <<MLIR
func.func @matmul_${type}_${layout}_$n(%A: tensor<${n}x${n}x$input>, %B: tensor<${n}x${n}x$input>) -> tensor<${n}x${n}xf32> attributes {ke.kernel$attrs} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<${n}x${n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
MLIR
  if [ "$layout" = nt ]; then
    b="%Bt"
    echo "  %tempty = tensor.empty() : tensor<${n}x${n}x$input>"
    echo "  %Bt = linalg.transpose ins(%B : tensor<${n}x${n}x$input>) outs(%tempty : tensor<${n}x${n}x$input>) permutation = [1, 0]"
  fi
  cat <<MLIR
  %C = linalg.matmul ins(%A, $b : tensor<${n}x${n}x$input>, tensor<${n}x${n}x$input>) outs(%init : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %C : tensor<${n}x${n}xf32>
}
MLIR
}

IFS='|' read -r -a knob_sets <<< "${knobs:-}"
[ ${#knob_sets[@]} -gt 0 ] || knob_sets=("")
for type in $types; do
  for layout in $layouts; do
  for n in $sizes; do
    file="$work/matmul_${type}_${layout}_$n.mlir"
    kernel "$type" "$n" "$layout" > "$file"
    for set in "${knob_sets[@]}"; do
      # shellcheck disable=SC2086
      # The reference (ke's naive CPU lowering, its columns in vectors
      # inside the sums) runs once per seed, cached across knob sets.
      result=$("$bin/ke-run" "$file" --target nvgpu --seeds "$seeds" --json --timeout 600 \
        --reference-cache "$work/reference" $set 2> "$work/err")
      python3 - "$type" "$n" "$layout" "$set" "$result" "$work/err" >> "$out" <<'PY'
import json, sys
type_, n, layout, knobs, text, err = sys.argv[1:7]
try:
    row = json.loads(text.strip().splitlines()[-1])
except (ValueError, IndexError):
    row = {"error": (text + open(err).read())[-2000:]}
row.update({"type": type_, "size": int(n), "layout": layout, "knobs": knobs})
print(json.dumps(row, sort_keys=True))
PY
      tail -1 "$out" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); t=r.get("time_ns") or {}; print(r["type"], r["layout"], r["size"], repr(r["knobs"]), "correct=%s" % r.get("correct"), "median_us=%s" % (t.get("median", 0) / 1e3), (r.get("error") or "")[:300])' >&2
    done
  done
  done
done
if [ $cublas -eq 1 ]; then
  python3 "$root/bench/gpu_gemm_torch.py" --sizes $sizes --types $types --layouts $layouts >> "$out"
fi
