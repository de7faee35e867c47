#!/usr/bin/env bash
# Row reductions on an NVIDIA GPU against the bandwidth of a device-to-device
# copy, on the GPU host from the release archive:
#
#   bench/gpu_rows.sh ARCHIVE OUT.jsonl [--rows R] [--cols C] [--seeds N]
#                     [--knobs "ARGS|ARGS|..."] [--no-torch]
#
# The bench's softmax, layernorm and rmsnorm (bench/kernels/*.mlir, f32
# 512x1024) rewritten to R x C (default 16384 x 4096: 256 MB in, 256 MB out),
# run by ke-run --target nvgpu (checked on the GPU against the CPU reference
# on --seeds seeds, CUDA events, L2 flushed, median) once per knob set, then
# (bench/gpu_rows_torch.py) a copy of the same bytes, PyTorch eager and
# torch.compile on the same shapes, timed the same way. One JSON line per run
# in OUT.jsonl: "kernel", "rows", "cols", "knobs" (ke) or "library".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage='bench/gpu_rows.sh ARCHIVE OUT.jsonl [--rows R] [--cols C] [--seeds N] [--knobs "ARGS|ARGS"] [--no-torch]'
archive="${1:?$usage}"
out="${2:?$usage}"
shift 2
rows=16384
cols=4096
seeds=2
knobs=""
torch=1
while [ $# -gt 0 ]; do
  case "$1" in
    --rows) rows="$2"; shift 2 ;;
    --cols) cols="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --knobs) knobs="$2"; shift 2 ;;
    --no-torch) torch=0; shift ;;
    *) echo "bench/gpu_rows.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$archive" ] || { echo "bench/gpu_rows.sh: no archive $archive" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xJf "$archive" -C "$work" || exit 1
bin="$work/ke/bin"
: > "$out"

IFS='|' read -r -a knob_sets <<< "${knobs:-}"
[ ${#knob_sets[@]} -gt 0 ] || knob_sets=("")
for kernel in softmax layernorm rmsnorm; do
  file="$work/$kernel.mlir"
  # The kernels name their shape in three spellings: the matrix, a row's
  # statistics and a column's parameters; the norms divide by the row length.
  sed -e "s/512x1024xf32/${rows}x${cols}xf32/g" \
      -e "s/tensor<512xf32>/tensor<${rows}xf32>/g" \
      -e "s/tensor<1024xf32>/tensor<${cols}xf32>/g" \
      -e "s/constant 1024.0 : f32/constant ${cols}.0 : f32/" \
      "$root/bench/kernels/$kernel.mlir" > "$file"
  for set in "${knob_sets[@]}"; do
    # shellcheck disable=SC2086
    result=$("$bin/ke-run" "$file" --target nvgpu --seeds "$seeds" --json --timeout 300 \
      --reference-cache "$work/reference" $set 2> "$work/err")
    python3 - "$kernel" "$rows" "$cols" "$set" "$result" "$work/err" >> "$out" <<'PY'
import json, sys
kernel, rows, cols, knobs, text, err = sys.argv[1:7]
try:
    row = json.loads(text.strip().splitlines()[-1])
except (ValueError, IndexError):
    row = {"error": (text + open(err).read())[-2000:]}
row.update({"kernel": kernel, "rows": int(rows), "cols": int(cols), "knobs": knobs})
print(json.dumps(row, sort_keys=True))
PY
    tail -1 "$out" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); t=r.get("time_ns") or {}; print(r["kernel"], repr(r["knobs"]), "correct=%s" % r.get("correct"), "median_us=%s" % (t.get("median", 0) / 1e3), (r.get("error") or "")[:300])' >&2
  done
done
if [ $torch -eq 1 ]; then
  python3 "$root/bench/gpu_rows_torch.py" --rows "$rows" --cols "$cols" >> "$out"
fi
