#!/usr/bin/env bash
# Tests of ke on a GPU host, from the release archive (scripts/package.sh):
# the machine has an NVIDIA GPU and its driver, and no LLVM. Not part of
# scripts/test.sh, which runs where no GPU is; run it on the GPU host:
#   test/GPU/gpu-host.sh ARCHIVE [WORK_DIR]
# Prints PASS/FAIL per check and exits non-zero if any check failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
archive="${1:?test/GPU/gpu-host.sh ARCHIVE [WORK_DIR]}"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
tar -xJf "$archive" -C "$work" || { echo "FAIL: unpack $archive"; exit 1; }
bin="$work/ke/bin"
inputs="$root/test/Target/Inputs"
failures=0
check() { # NAME COMMAND...: PASS when the command succeeds
  local name="$1"
  shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; failures=$((failures + 1)); fi
}
json_has() { # FILE PYTHON-EXPRESSION over `r`, the last JSON line
  python3 - "$1" "$2" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
r = json.loads(lines[-1]) if lines else {}
ok = bool(eval(sys.argv[2]))
if not ok:
    print("  got:", json.dumps(r)[:600], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# The GPU's roofline: a device copy and an FMA loop, cached per device.
"$bin/ke-run" --calibrate --target nvgpu > "$work/calibrate.json" 2>&1
cat "$work/calibrate.json"
check "calibrate: bandwidth and FMA peak measured" \
  json_has "$work/calibrate.json" 'r["gbps"] > 100 and r["gflops"] > 1000'

# Checked and timed on the GPU, with the bound against the peaks.
"$bin/ke-run" "$inputs/vadd.mlir" --target nvgpu --seeds 2 --json \
  > "$work/vadd.json" 2> "$work/vadd.err"
check "ke-run vadd: correct on the GPU, timed by events, bound and launches" \
  json_has "$work/vadd.json" 'r["runnable"] and r["correct"] and "CUDA events" in r["time_source"] and r["bound"] and r["gpu_code"]["launches_per_call"] >= 1'

# A rank-3 reduction over the middle axis, squared, subtracted and reduced
# over the last (a factorization machine's interaction).
"$bin/ke-run" "$inputs/fm_interaction.mlir" --target nvgpu --seeds 2 --json \
  > "$work/fm.json" 2> "$work/fm.err"
check "ke-run fm_interaction: correct on the GPU" \
  json_has "$work/fm.json" 'r["runnable"] and r["correct"]'

# Prefix scans (log-step chains) scanned by thread blocks along rows and by
# threads down columns: sums, products, min/max, integers and f16, several
# chunks a row, ragged rounds, a prime length; every kernel of each file.
all_correct() { # FILE COUNT: COUNT JSON lines, every one correct
  python3 - "$1" "$2" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
bad = [r.get("kernel") for r in rows if not (r.get("runnable") and r.get("correct"))]
if bad or len(rows) != int(sys.argv[2]):
    print("  rows:", len(rows), "not correct:", bad, file=sys.stderr)
sys.exit(0 if not bad and len(rows) == int(sys.argv[2]) else 1)
PY
}
"$bin/ke-run" "$root/test/ke-run/Inputs/prefix_scans.mlir" --target nvgpu \
  --seeds 2 --json --check-only > "$work/scans.json" 2> "$work/scans.err"
check "ke-run prefix_scans: all 6 correct on the GPU" all_correct "$work/scans.json" 6
"$bin/ke-run" "$root/test/GPU/Inputs/long_scans.mlir" --target nvgpu \
  --seeds 2 --json --check-only > "$work/long_scans.json" 2> "$work/long_scans.err"
check "ke-run long_scans: all 7 correct on the GPU" all_correct "$work/long_scans.json" 7

# Tensor-core products with their epilogues in registers (a bias and ReLU
# after a bf16 GEMM; attention's softmax between two bf16 products).
for kernel in matmul_bias_relu_bf16 attention_bf16; do
  "$bin/ke-run" "$root/bench/kernels/$kernel.mlir" --target nvgpu \
    --seeds 2 --json --check-only >> "$work/bf16.json" 2>> "$work/bf16.err"
done
check "ke-run bf16 GEMM with epilogue and bf16 attention: correct on the GPU" \
  all_correct "$work/bf16.json" 2

# ke-gpu-run contains a faulting bundle: a gather bundle whose indices are
# rewritten to 2^30, so the kernel reads 512 GB past its table.
rm -rf "$work/bundles"
"$bin/ke-run" "$root/bench/kernels/gather.mlir" --target nvgpu --bundle "$work/bundles" \
  --check-only --seeds 1 > /dev/null 2>&1
cp -r "$work/bundles/gather" "$work/bundles/gather@wild"
python3 - "$work/bundles/gather@wild" <<'PY'
import struct, sys
path = sys.argv[1] + "/in-0-1.bin"
count = len(open(path, "rb").read()) // 4
open(path, "wb").write(struct.pack("<%di" % count, *([1 << 30] * count)))
PY
"$bin/ke-gpu-run" --min-time 0.01 "$work/bundles/gather@wild" "$work/bundles/gather" \
  > "$work/gpu-run.jsonl" 2> "$work/gpu-run.err"
echo "ke-gpu-run exit $?"
cat "$work/gpu-run.jsonl"
check "ke-gpu-run: the out-of-bounds bundle fails with its reason" \
  python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(0 if len(r)==2 and not r[0]['correct'] and r[0]['error'] else 1)" "$work/gpu-run.jsonl"
check "ke-gpu-run: the next bundle runs correctly in a fresh process" \
  python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])]; sys.exit(0 if len(r)==2 and r[1]['correct'] else 1)" "$work/gpu-run.jsonl"

# The search survives a candidate that faults on the device: with the
# fault-injection hook, the candidate holding the marker stores to a wild
# address before its kernel runs; it is recorded failed, the other candidate
# is measured and the search finishes.
rm -f "$work/fault.db"
KE_GPU_INJECT_FAULT=ke_test_wild_store "$bin/ke-opt" "$inputs/vadd.mlir" \
  --ke-evolve="target=nvgpu proposer=file proposals=$root/test/GPU/Inputs/vadd-fault-proposals.mlir budget=2 db=$work/fault.db" \
  -o "$work/fault-best.mlir" > /dev/null 2> "$work/fault.log"
status=$?
tail -8 "$work/fault.log"
check "ke-evolve target=nvgpu: finishes despite a faulting candidate" test $status -eq 0
python3 - "$work/fault.db" > "$work/fault-nodes.txt" <<'PY'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(
        "select proposer, status, strategy, coalesce(error, '') from nodes order by id"):
    print(" | ".join(str(x) for x in row))
PY
cat "$work/fault-nodes.txt"
check "ke-evolve target=nvgpu: the faulting candidate is recorded failed with the device's reason" \
  grep -q -E "faults on the device.*(illegal|CUDA error)" "$work/fault-nodes.txt"
check "ke-evolve target=nvgpu: the other candidate is correct" \
  grep -q -E "^file \| correct \| two elementwise ops" "$work/fault-nodes.txt"

echo "gpu-host: $failures failed"
exit $((failures > 0))
