#!/usr/bin/env bash
# ke on a directory of kernels it was not written for (../shared/kernelbench,
# or any folder of .mlir files or KernelBench-format .py files, searched
# recursively): per problem, ke-run on ke's default lowering (checked and
# timed), ke-evolve, and the search's output re-checked and timed with ke-run
# against the original reference; then a Markdown table with fast_0
# (correct) for both and the search's speedup over the default lowering (the
# two re-timed back to back after the search: output, default, default,
# output, each its faster time; an output that is the default lowering's
# own program, the floor node, counts at the default's time, and the gap
# between the two readings is reported as noise), and with PyTorch timings fast_1/fast_2 and the geomean against PyTorch eager
# and torch.compile.
#
#   bench/kernelbench.sh DIR [--target cpu] [--budget N] [--threads N]
#                        [--jobs N] [--bin DIR] [--pytorch | --torch FILE.jsonl]
#                        [--out DIR] [--resume]
#
# .py files go through tools/ke-import first (into OUT/imported/); their
# kernels are also checked against PyTorch's own outputs (ke-run --expected),
# both the default lowering and the search's output.
# --jobs N: problems in flight at once (each with --threads threads; default
# 1): for correctness counts on a large machine; they share it, so time with
# --jobs 1. --bin DIR: ke's tools from DIR (e.g. a release archive's bin/) instead
# of building here. --pytorch: time PyTorch eager and torch.compile on the
# same problems in this run (bench/kernelbench_torch.py, same thread count,
# the Python of bench/.venv: scripts/install-import-deps.sh bench/.venv puts
# torch there); --torch FILE: timings from an earlier run instead. With
# --pytorch, a .mlir problem without a .tensors file beside it gets one
# written from its KernelBench source (its inputs, PyTorch's outputs), so
# ke-run checks it against PyTorch and times it on PyTorch's own inputs
# (KernelBench draws them with torch.rand, in [0, 1); ke's seeds are in
# [-1, 1), and a kernel's speed can depend on the signs, as ELU's does).
# A problem with a tensor file is also searched on it (ke-evolve inputs=).
# --resume keeps OUT's rows of problems already done and runs the others,
# continuing searches that were cut off from their databases.
# On a GPU host, --target nvgpu runs the search from the release archive:
# bench/gpu_search.sh (this script's OUT and budget), then PyTorch with
# --device cuda where --pytorch is given.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { sed -n 2,26p "$0" >&2; exit 2; }
dir="$1"; shift
budget=16 threads=2 target=cpu torch="" pytorch=0 jobs=1 bin="" out="$root/build/bench/kernelbench"
archive="" resume=0
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --archive) archive="$2"; shift 2 ;;
    --torch) torch="$2"; shift 2 ;;
    --pytorch) pytorch=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --resume) resume=1; shift ;;
    *) echo "bench/kernelbench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d "$dir" ] || { echo "bench/kernelbench.sh: $dir is not a directory" >&2; exit 2; }
case "$target" in cpu|nvgpu) ;; *) echo "bench/kernelbench.sh: --target cpu or nvgpu" >&2; exit 2 ;; esac
mkdir -p "$out"
out="$(cd "$out" && pwd)"
venv_python="$root/bench/.venv/bin/python"

# KernelBench .py files become ke kernels first; one that does not import is
# a row of its own (not correct, with ke-import's reason).
mlir_dir="$dir"
mkdir -p "$out/rows"
[ $resume = 1 ] || rm -f "$out"/rows/*.json
if [ -n "$(find "$dir" -name '*.py' -print -quit)" ]; then
  # ke-import's Python: $KE_PYTHON, its own venv, else the bench venv.
  if [ -z "${KE_PYTHON:-}" ] && [ ! -x "${KE_IMPORT_VENV:-$root/.venv}/bin/python" ] &&
     "$venv_python" -c "import torch_mlir.fx" 2>/dev/null; then
    export KE_PYTHON="$venv_python"
  fi
  mlir_dir="$out/imported"
  mkdir -p "$mlir_dir"
  for py in $(find "$dir" -name '*.py' | sort); do
    level=$(basename "$(dirname "$py")")
    mkdir -p "$mlir_dir/$level"
    dest="$mlir_dir/$level/$(basename "$py" .py).mlir"
    [ -s "$dest" ] && continue
    echo "== import $py" >&2
    if ! "$root/tools/ke-import/ke-import" "$py" -o "$dest" 2> "${dest%.mlir}.import.txt"; then
      reason=$(tail -1 "${dest%.mlir}.import.txt")
      echo "$reason" >&2
      rm -f "$dest"
      python3 -c 'import json, sys; print(json.dumps({"name": sys.argv[1], "file": sys.argv[2], "import_error": sys.argv[3]}))' \
        "${level}_$(basename "$py" .py)" "$py" "$reason" > "$out/rows/${level}_$(basename "$py" .py).json"
    fi
  done
fi
[ -n "$(find "$mlir_dir" -name '*.mlir' -print -quit)" ] || { echo "bench/kernelbench.sh: no kernels under $dir" >&2; exit 2; }

if [ "$target" = nvgpu ]; then
  [ -n "$archive" ] || archive=$(ls -t "$root"/dist/ke-*-linux-x86_64.tar.xz 2>/dev/null | head -1)
  [ -n "$archive" ] || { echo "bench/kernelbench.sh: --target nvgpu needs --archive (scripts/package.sh)" >&2; exit 2; }
  "$root/bench/gpu_search.sh" "$archive" "$out" --budget "$budget" $(find "$mlir_dir" -name '*.mlir' | sort)
  status=$?
  if [ $pytorch = 1 ]; then
    "$venv_python" "$root/bench/kernelbench_torch.py" --device cuda --compile \
      $(find "$mlir_dir" -name '*.mlir' | sort) > "$out/torch.jsonl"
  fi
  exit $status
fi

if [ -z "$bin" ]; then
  "$root/scripts/build.sh" >&2 || exit 1
  bin="$root/build/bin"
fi
mkdir -p "$out/db"
results="$out/results.jsonl"
: > "$results"

# One problem: default lowering, search, the search's output re-checked. Rows
# go to rows/NAME.json, so problems can run side by side.
run_problem() {
  src="$1"
  name=$(basename "$(dirname "$src")")_$(basename "$src" .mlir)
  [ "$resume" = 1 ] && [ -s "$out/rows/$name.json" ] && return 0
  expected=() own_tensors=""
  if [ -f "${src%.mlir}.tensors" ]; then
    expected=(--expected "${src%.mlir}.tensors")
  elif [ "$pytorch" = 1 ]; then
    # The problem's own inputs and PyTorch's outputs (removed after the
    # row: up to 34 MB a problem), so that ke is checked against PyTorch and
    # timed on the inputs PyTorch is timed on.
    own_tensors="$out/tensors/$(basename "$(dirname "$src")")/$(basename "$src" .mlir).tensors"
    "$venv_python" "$root/bench/kernelbench_torch.py" --check-only --tensors "$out/tensors" \
      "$src" > /dev/null 2>&1
    [ -f "$own_tensors" ] && expected=(--expected "$own_tensors")
  fi
  # The search chooses on the same inputs (ke-evolve inputs=FILE).
  evolve_inputs=""
  [ ${#expected[@]} -gt 0 ] && evolve_inputs=" inputs=${expected[1]}"
  echo "== $name" >&2
  default=$(timeout 900 "$bin/ke-run" "$src" --json --threads "$threads" --timeout 600 \
    "${expected[@]}" 2>/dev/null | tail -1)
  # --resume also continues a search that was cut off (its database kept).
  continue_search=false
  if [ "$resume" = 1 ] && [ -s "$out/db/$name.db" ]; then
    continue_search=true
  else
    rm -f "$out/db/$name.db"*
  fi
  start=$(date +%s)
  timeout 3600 "$bin/ke-opt" "$src" --ke-evolve="budget=$budget threads=$threads db=$out/db/$name.db resume=$continue_search$evolve_inputs" \
    -o "$out/$name.best.mlir" 2> "$out/$name.evolve.txt"
  evolve_status=$?
  seconds=$(( $(date +%s) - start ))
  best="" retimes=()
  run_best() {
    timeout 900 "$bin/ke-run" "$out/$name.best.mlir" --reference "$src" --naive --json \
      --threads "$threads" --timeout 600 "${expected[@]}" 2>/dev/null | tail -1
  }
  run_default() {
    timeout 900 "$bin/ke-run" "$src" --json --threads "$threads" --timeout 600 \
      "${expected[@]}" 2>/dev/null | tail -1
  }
  if [ $evolve_status -eq 0 ]; then
    best=$(run_best)
    # The default lowering and the output timed back to back (output,
    # default, default, output; each keeps its faster time): the default
    # timed before the search is minutes away from the output on a host
    # whose load changes.
    retimes=("$(run_default)" "$(run_default)" "$(run_best)")
  fi
  # What the search output: a node's strategy, "(default lowering)" (the
  # floor node: the default lowering's own program) or, without a selected
  # node, the kernel as written (timed as the naive reference by run_best).
  output=""
  if [ -s "$out/$name.best.mlir" ]; then
    output=$(sed -n 's/.*ke\.strategy = "\([^"]*\)".*/\1/p' "$out/$name.best.mlir" | head -1)
    grep -q 'ke\.selected' "$out/$name.best.mlir" || output="(kernel as written)"
  fi
  python3 - "$name" "$src" "$evolve_status" "$seconds" "$output" "$default" "$best" "${retimes[@]}" > "$out/rows/$name.json" <<'PY'
import json, sys
name, src, status, seconds, output, default, best = sys.argv[1:8]
def parse(text):
    try:
        return json.loads(text)
    except Exception:
        return None
def median(report):
    return ((report or {}).get("time_ns") or {}).get("median") if (report or {}).get("correct") else None
default, best = parse(default), parse(best)
retimes = [parse(text) for text in sys.argv[8:]]
row = {"name": name, "file": src, "evolve_status": int(status),
       "evolve_seconds": int(seconds), "output": output or None,
       "default": default, "best": best}
if len(retimes) == 3 and default and best:
    defaults = [m for m in (median(retimes[0]), median(retimes[1])) if m]
    bests = [m for m in (median(best), median(retimes[2])) if m]
    if defaults and bests and default.get("time_ns") and best.get("time_ns"):
        row["default_before_search_ns"] = default["time_ns"]["median"]
        default["time_ns"]["median"] = min(defaults)
        best["time_ns"]["median"] = min(bests)
        row["retimed_back_to_back"] = True
print(json.dumps(row))
PY
  [ -z "$own_tensors" ] || rm -f "$own_tensors"
}
# PyTorch's sources: KernelBench's .py files when DIR holds them.
sources=()
[ "$mlir_dir" = "$dir" ] || sources=(--kernelbench-dir "$dir")
[ $pytorch = 1 ] && ! "$venv_python" -c "import torch" 2>/dev/null && pytorch=0 &&
  echo "bench/kernelbench.sh: no torch in bench/.venv (scripts/install-import-deps.sh bench/.venv); PyTorch not timed" >&2
export -f run_problem
export bin threads budget out resume pytorch root venv_python
find "$mlir_dir" -name '*.mlir' | sort | xargs -r -P "$jobs" -I{} bash -c 'run_problem "$1"' _ {}
cat "$out"/rows/*.json > "$results" 2>/dev/null

if [ $pytorch = 1 ]; then
  torch="$out/torch.jsonl"
  "$venv_python" "$root/bench/kernelbench_torch.py" --threads "$threads" --compile \
    "${sources[@]}" $(find "$mlir_dir" -name '*.mlir' | sort) > "$torch"
fi
python3 "$root/bench/kernelbench_table.py" "$results" ${torch:+--torch "$torch"}
