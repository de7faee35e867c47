#!/usr/bin/env bash
# The bench: evolves every kernel of bench/kernels with ke-evolve in one run
# on this machine and prints a Markdown table next to the baselines:
# naive loops, ke's default schedule, ke's best, OpenBLAS (numpy sgemm, for
# GEMMs), PyTorch eager, and IREE compiling the same .mlir for llvm-cpu.
#
#   bench/run.sh [--budget N] [--threads N] [--kernels "a b"] [--no-baselines]
#                [--keep-db]
#
# Each run starts from an empty database (build/bench/bench.db), so the
# searches do not warm-start from skills of earlier bench runs; --keep-db
# keeps it (and its skills).
#
# Baselines are optional extras: PyTorch 1.13 and numpy come from Debian
# (python3-torch, python3-numpy); PyTorch 2.x eager and torch.compile from
# the torch in bench/.venv where there is one (scripts/install-import-deps.sh
# bench/.venv puts it there), same thread count; IREE from PyPI in
# bench/.venv; whatever cannot be installed is reported as n/a. fast_1,
# fast_2 and the geomean are given against each PyTorch column and against
# the best of them.
#
# The GPU bench, on a GPU host with only ke's release archive (no LLVM, no
# build: bash, tar, xz, python3 with torch and the CUDA driver):
#
#   bench/run.sh --target nvgpu [--archive FILE] [--budget N] [--workers N]
#                [--kernels "a b"] [--out DIR] [--timeout S] [--keep-db]
#
# runs bench/gpu_search.sh on the archive (--archive, else the newest
# dist/ke-*-linux-x86_64.tar.xz, else build/release/ke-linux-x86_64.tar.xz;
# made by scripts/package.sh where ke builds): per kernel ke-evolve
# target=nvgpu with budget N (64) and workers=N (4) candidates at a time,
# stopping at --timeout S seconds (420) and confirming its output against
# the default lowering, the best and ke's default lowering re-timed by ke-run, PyTorch eager and torch.compile timed in the same run,
# then bench/gpu_table.py's table (fast_1, fast_2, geomeans vs eager and vs
# torch.compile, candidates per minute). Everything lands in --out DIR
# (build/bench/nvgpu), whose ke.db is removed first unless --keep-db.
# The older knob sweep without search (bundles compiled where ke builds, run
# on the GPU host by ke-gpu-run) stays in bench/gpu_run.sh.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
budget=64 threads=1 kernels="" baselines=1 keep_db=0 target=cpu
archive="" workers="" out="" limit=""
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --kernels) kernels="$2"; shift 2 ;;
    --no-baselines) baselines=0; shift ;;
    --keep-db) keep_db=1; shift ;;
    --archive) archive="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    *) echo "bench/run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$target" in
  cpu)
    if [ -n "$archive$workers$out$limit" ]; then
      echo "bench/run.sh: --archive, --workers, --out and --timeout are for --target nvgpu" >&2
      exit 2
    fi ;;
  nvgpu)
    # No build here: the GPU host has ke's release archive only.
    if [ -z "$archive" ]; then
      archive=$(ls -t "$root"/dist/ke-*-linux-x86_64.tar.xz 2>/dev/null | head -n 1)
      [ -n "$archive" ] || archive="$root/build/release/ke-linux-x86_64.tar.xz"
    fi
    if [ ! -f "$archive" ]; then
      echo "bench/run.sh --target nvgpu: no release archive ($archive);" \
        "make one with scripts/package.sh where ke builds and pass it with" \
        "--archive FILE or put it in dist/" >&2
      exit 1
    fi
    out="${out:-$root/build/bench/nvgpu}"
    mkdir -p "$out" || exit 1
    [ "$keep_db" = 1 ] || rm -f "$out/ke.db" "$out/ke.db-wal" "$out/ke.db-shm"
    echo "bench/run.sh --target nvgpu: $archive -> $out" >&2
    exec "$root/bench/gpu_search.sh" "$archive" "$out" --budget "$budget" \
      --workers "${workers:-4}" --timeout "${limit:-420}" --torch $kernels ;;
  *) echo "bench/run.sh: unknown target '$target' (cpu, nvgpu)" >&2; exit 2 ;;
esac
"$root/scripts/build.sh" >&2 || exit 1
bin="$root/build/bin"
work="$root/build/bench"
mkdir -p "$work"
[ "$keep_db" = 1 ] || rm -f "$work/bench.db" "$work/bench.db-wal" "$work/bench.db-shm"
[ -n "$kernels" ] || kernels=$(cd "$root/bench/kernels" && ls *.mlir | sed 's/\.mlir$//')

torch_json="$work/torch.jsonl"; : > "$torch_json"
torch2_json="$work/torch2.jsonl"; : > "$torch2_json"
iree=""
if [ $baselines -eq 1 ]; then
  # OpenBLAS too: without it Debian's numpy and torch 1.13 fall back to the
  # reference BLAS, 20 times slower.
  if ! /usr/bin/python3 -c "import torch, numpy" 2>/dev/null ||
     ! /sbin/ldconfig -p | grep -q 'libopenblas\.so\.0'; then
    echo "bench: installing python3-torch, python3-numpy and OpenBLAS (Debian)" >&2
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      python3-torch python3-numpy python3-venv libopenblas0-pthread >&2 || true
  fi
  if /usr/bin/python3 -c "import torch" 2>/dev/null; then
    /usr/bin/python3 "$root/bench/baselines/torch_bench.py" --threads "$threads" \
      --kernels $kernels > "$torch_json" 2>/dev/null || true
  fi
  if "$root/bench/.venv/bin/python" -c "import torch; assert int(torch.__version__.split('.')[0]) >= 2" 2>/dev/null; then
    "$root/bench/.venv/bin/python" "$root/bench/baselines/torch_bench.py" --threads "$threads" \
      --compile --kernels $kernels > "$torch2_json" 2>/dev/null || true
  else
    echo "bench: no PyTorch 2.x in bench/.venv (scripts/install-import-deps.sh bench/.venv): its columns are n/a" >&2
  fi
  if [ ! -x "$root/bench/.venv/bin/iree-compile" ]; then
    echo "bench: installing IREE (iree-base-compiler, iree-base-runtime) into bench/.venv" >&2
    # Into the venv that is there (ke-import's, made by another Python
    # perhaps): running venv over it would point it at this Python's stdlib.
    { [ -x "$root/bench/.venv/bin/python" ] || /usr/bin/python3 -m venv "$root/bench/.venv" >&2; } &&
      "$root/bench/.venv/bin/python" -m pip install -q iree-base-compiler iree-base-runtime >&2 || true
  fi
  [ -x "$root/bench/.venv/bin/iree-compile" ] && iree="$root/bench/.venv/bin"
fi

median_of() { # JSON line on stdin -> median ns or empty
  /usr/bin/python3 -c 'import json,sys
try:
    d = json.loads(sys.stdin.read().strip().splitlines()[-1])
    print(d["time_ns"]["median"] if d.get("correct") else "")
except Exception:
    print("")'
}

iree_time() { # kernel -> median ns or empty
  local k="$1" vmfb="$work/$1.vmfb"
  "$iree/iree-compile" "$root/bench/kernels/$k.mlir" --iree-hal-target-device=local \
    --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=host \
    -o "$vmfb" 2>/dev/null || return 0
  local inputs
  inputs=$(/usr/bin/python3 - "$root/bench/kernels/$k.mlir" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
sig = re.search(r"func\.func @\w+\((.*?)\)\s*->", text, re.S).group(1)
for m in re.finditer(r"tensor<([^>]*)>", sig):
    dims = m.group(1).split("x")
    print("--input=" + "x".join(dims) + "=1")
PY
)
  "$iree/iree-benchmark-module" --module="$vmfb" --device=local-task \
    --task_topology_max_group_count="$threads" --function="$k" $inputs \
    --benchmark_min_time=0.3 --benchmark_format=json 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys
try:
    d = json.load(sys.stdin)
    t = [b for b in d["benchmarks"] if b.get("aggregate_name") in (None, "median")]
    b = t[-1]
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
    print(b["real_time"] * scale)
except Exception:
    print("")'
}

# The smaller of two times, either of which may be empty (not measured).
min_of() {
  /usr/bin/python3 -c 'import sys
v = [float(x) for x in sys.argv[1:] if x]
print(min(v) if v else "")' "$@"
}

results="$work/results.jsonl"; : > "$results"
for k in $kernels; do
  src="$root/bench/kernels/$k.mlir"
  naive=$("$bin/ke-run" "$src" --naive --seeds 1 --json --threads "$threads" | median_of)
  "$bin/ke-opt" "$src" --ke-evolve="budget=$budget threads=$threads db=$work/bench.db" \
    -o "$work/$k.best.mlir" 2> "$work/$k.evolve.log"
  # The default and the best are timed in turns, twice each, and keep their
  # faster median: timed minutes apart, this VM's drift alone read the
  # search's output (the default lowering itself) 1.3x slower than the
  # default.
  default=""; best=""
  for round in 1 2; do
    d=$("$bin/ke-run" "$src" --seeds 1 --json --threads "$threads" | median_of)
    b=$("$bin/ke-run" "$work/$k.best.mlir" --reference "$src" --naive --json \
      --threads "$threads" | median_of)
    default=$(min_of "$default" "$d"); best=$(min_of "$best" "$b")
  done
  # Where the search chose the default lowering itself, both columns time
  # the same program: each keeps the faster of the four medians (this VM
  # read that one program at 7.1 and 11.0 ms in two of them).
  if grep -q '| (default lowering) |' "$work/$k.evolve.log"; then
    default=$(min_of "$default" "$best"); best="$default"
  fi
  ireens=""; [ -n "$iree" ] && ireens=$(iree_time "$k")
  echo "{\"kernel\":\"$k\",\"naive\":\"$naive\",\"default\":\"$default\",\"best\":\"$best\",\"iree\":\"$ireens\"}" >> "$results"
  echo "bench: $k done" >&2
done

/usr/bin/python3 - "$results" "$torch_json" "$torch2_json" "$budget" "$threads" <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
def load(path):
    found = {}
    for line in open(path):
        d = json.loads(line); found[d["kernel"]] = d
    return found
torch1, torch2 = load(sys.argv[2]), load(sys.argv[3])
budget, threads = sys.argv[4], sys.argv[5]
num = lambda s: float(s) if s not in ("", None) else None
us = lambda v: f"{v/1e3:.1f}" if v else "n/a"
f = lambda v: f"{v:.2f}x" if v else "n/a"
print(f"ke-evolve budget={budget}, threads={threads}; times are medians in µs.\n")
print("| kernel | naive | ke default | ke best | speedup vs naive | OpenBLAS | PyTorch 1.13 | PyTorch 2 eager | torch.compile | ke vs best PyTorch | IREE | ke vs IREE |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
columns = {"PyTorch 1.13 eager": [], "PyTorch 2 eager": [], "torch.compile": [], "the best PyTorch": []}
speedups, beats_iree, n_iree = [], 0, 0
for r in rows:
    k = r["kernel"]; naive, default, best, iree = map(num, (r["naive"], r["default"], r["best"], r["iree"]))
    best = best or default
    t1, t2 = torch1.get(k, {}), torch2.get(k, {})
    eager1, blas = t1.get("eager_ns"), t1.get("blas_ns") or t2.get("blas_ns")
    eager2, compiled = t2.get("eager_ns"), t2.get("compiled_ns")
    present = [v for v in (eager1, eager2, compiled) if v]
    fastest = min(present) if present else None
    sp = naive / best if naive and best else None
    if sp: speedups.append(sp)
    for name, theirs in (("PyTorch 1.13 eager", eager1), ("PyTorch 2 eager", eager2),
                         ("torch.compile", compiled), ("the best PyTorch", fastest)):
        if theirs and best:
            columns[name].append(theirs / best)
    vs_iree = iree / best if iree and best else None
    if iree:
        n_iree += 1
        beats_iree += 1 if vs_iree and vs_iree > 1.0 else 0
    vs_best = fastest / best if fastest and best else None
    print(f"| {k} | {us(naive)} | {us(default)} | {us(best)} | {f(sp)} | {us(blas)} | {us(eager1)} | {us(eager2)} | {us(compiled)} | {f(vs_best)} | {us(iree)} | {f(vs_iree)} |")
geo = math.exp(sum(map(math.log, speedups)) / len(speedups)) if speedups else float("nan")
print(f"\ngeomean speedup over naive: {geo:.1f}x over {len(speedups)} kernels")
for name, ratios in columns.items():
    if ratios:
        n = len(ratios)
        fast1 = sum(1 for v in ratios if v > 1.0); fast2 = sum(1 for v in ratios if v > 2.0)
        g = math.exp(sum(map(math.log, ratios)) / n)
        print(f"vs {name}: fast_1 {fast1/n:.2f} ({fast1}/{n}), fast_2 {fast2/n:.2f} ({fast2}/{n}), geomean {g:.2f}x")
if n_iree:
    print(f"faster than IREE on {beats_iree}/{n_iree} kernels")
PY
