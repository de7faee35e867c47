#!/usr/bin/env bash
# GEMMs on an NVIDIA GPU, ke against cuBLAS, on the GPU host from the
# release archive (no LLVM there: bash, tar, xz, python3 with torch, the
# CUDA driver):
#
#   bench/gpu_gemm.sh ARCHIVE OUT.jsonl [--sizes "1024 2048 4096"]
#                     [--types "f32 tf32 bf16"] [--seeds N]
#                     [--knobs "ARGS|ARGS|..."] [--no-cublas]
#
# Per type and size N: an N^3 matmul kernel (f32: exact; tf32: f32 under
# ke.precision = "tf32"; bf16: bf16 inputs, f32 result), run by ke-run
# --target nvgpu (checked on the GPU against the CPU reference on --seeds
# seeds, timed with CUDA events, L2 flushed, median) once per knob set
# (ke-run flags, e.g. "--gpu-shared-tile=128 --gpu-warps=8"; the empty set
# is ke's default), then cuBLAS through torch.mm timed the same way
# (bench/gpu_gemm_torch.py). One JSON line per run in OUT.jsonl, with
# "type", "size" and "knobs" (ke) or "library": "cublas".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage='bench/gpu_gemm.sh ARCHIVE OUT.jsonl [--sizes "N ..."] [--types "f32 tf32 bf16"] [--seeds N] [--knobs "ARGS|ARGS"] [--no-cublas]'
archive="${1:?$usage}"
out="${2:?$usage}"
shift 2
sizes="1024 2048 4096"
types="f32 tf32 bf16"
seeds=2
knobs=""
cublas=1
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --types) types="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --knobs) knobs="$2"; shift 2 ;;
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

kernel() { # TYPE N: an N^3 matmul of that type, printed
  local type="$1" n="$2" input=f32 attrs=""
  [ "$type" = bf16 ] && input=bf16
  [ "$type" = tf32 ] && attrs=', ke.precision = "tf32"'
  cat <<MLIR
func.func @matmul_${type}_$n(%A: tensor<${n}x${n}x$input>, %B: tensor<${n}x${n}x$input>) -> tensor<${n}x${n}xf32> attributes {ke.kernel$attrs} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<${n}x${n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  %C = linalg.matmul ins(%A, %B : tensor<${n}x${n}x$input>, tensor<${n}x${n}x$input>) outs(%init : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %C : tensor<${n}x${n}xf32>
}
MLIR
}

reference() { # TYPE N: the check's reference for kernel TYPE N, printed
  # The same sums in the same order (each output over k ascending, the
  # products in f32), with B transposed first so that the naive loops
  # read both inputs along k: the CPU reference of an 8192^3 product takes
  # a minute on 16 cores instead of hours.
  local type="$1" n="$2" input=f32 a="%a" b="%b"
  [ "$type" = bf16 ] && input=bf16
  if [ "$input" != f32 ]; then
    a="%ae"; b="%be"
  fi
  cat <<MLIR
func.func @matmul_${type}_$n(%A: tensor<${n}x${n}x$input>, %B: tensor<${n}x${n}x$input>) -> tensor<${n}x${n}xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<${n}x${n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  %tempty = tensor.empty() : tensor<${n}x${n}x$input>
  %Bt = linalg.transpose ins(%B : tensor<${n}x${n}x$input>) outs(%tempty : tensor<${n}x${n}x$input>) permutation = [1, 0]
  %C = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %Bt : tensor<${n}x${n}x$input>, tensor<${n}x${n}x$input>) outs(%init : tensor<${n}x${n}xf32>) {
  ^bb0(%a: $input, %b: $input, %acc: f32):
MLIR
  if [ "$input" != f32 ]; then
    echo "    %ae = arith.extf %a : $input to f32"
    echo "    %be = arith.extf %b : $input to f32"
  fi
  cat <<MLIR
    %p = arith.mulf $a, $b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<${n}x${n}xf32>
  return %C : tensor<${n}x${n}xf32>
}
MLIR
}

IFS='|' read -r -a knob_sets <<< "${knobs:-}"
[ ${#knob_sets[@]} -gt 0 ] || knob_sets=("")
for type in $types; do
  for n in $sizes; do
    file="$work/matmul_${type}_$n.mlir"
    kernel "$type" "$n" > "$file"
    reference "$type" "$n" > "$work/reference_${type}_$n.mlir"
    for set in "${knob_sets[@]}"; do
      # shellcheck disable=SC2086
      # The reference (ke's naive CPU lowering) runs once per seed, cached
      # across knob sets.
      result=$("$bin/ke-run" "$file" --target nvgpu --seeds "$seeds" --json --timeout 300 \
        --reference "$work/reference_${type}_$n.mlir" \
        --reference-cache "$work/reference" $set 2> "$work/err")
      python3 - "$type" "$n" "$set" "$result" "$work/err" >> "$out" <<'PY'
import json, sys
type_, n, knobs, text, err = sys.argv[1:6]
try:
    row = json.loads(text.strip().splitlines()[-1])
except (ValueError, IndexError):
    row = {"error": (text + open(err).read())[-2000:]}
row.update({"type": type_, "size": int(n), "knobs": knobs})
print(json.dumps(row, sort_keys=True))
PY
      tail -1 "$out" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); t=r.get("time_ns") or {}; print(r["type"], r["size"], repr(r["knobs"]), "correct=%s" % r.get("correct"), "median_us=%s" % (t.get("median", 0) / 1e3), (r.get("error") or "")[:300])' >&2
    done
  done
done
if [ $cublas -eq 1 ]; then
  python3 "$root/bench/gpu_gemm_torch.py" --sizes $sizes --types $types >> "$out"
fi
