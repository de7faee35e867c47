#!/usr/bin/env bash
# The search on a GPU host: ke-evolve target=nvgpu from the release archive
# (scripts/package.sh; unpacks to ke/bin/{ke-opt,ke-run,...}), every
# candidate checked and timed on the GPU by ke-run, then the best kernel
# re-timed next to ke's default GPU lowering and PyTorch (eager,
# torch.compile) on the same shapes. Needs only bash, tar, xz, python3 (with
# torch for --torch) and the CUDA driver: no LLVM, no build.
#
#   bench/gpu_search.sh ARCHIVE OUT [--budget N] [--workers N] [--timeout S]
#                       [--min-time S] [--torch] [KERNEL ...]
#
# bench/run.sh --target nvgpu calls it with the newest archive of dist/.
# KERNEL: a .mlir file or the name of one of bench/kernels (default: all of
# them). --budget N: candidates per kernel (default 8). --workers N:
# candidates proposed per expansion and evaluated at a time (ke-evolve's
# workers=N: that many ke-run processes sharing the GPU; default 1).
# --timeout S: wall clock per kernel's search (default 420): ke-evolve's
# time-limit, after which it stops proposing and re-times its best nodes
# against the default lowering back to back (the confirmation, which picks
# the output); a hard cap kills it 300 s later (on SIGTERM ke-evolve writes
# the best so far, unconfirmed): the limit counts from after the naive
# reference is timed, and the expansion in flight at the limit finishes.
# --min-time S: seconds of timed runs per
# candidate during the search (default 0.05: hundreds of runs of a
# microsecond kernel); the default lowering and the best are re-timed with
# ke-run's default 0.2 s. OUT gets ke.db, per kernel the
# search's log (<kernel>.evolve.log) and best IR (<kernel>.best.mlir),
# default.jsonl (ke-run on the default lowering), best.jsonl (ke-run on the
# best), throughput.jsonl (per kernel: wall seconds of the search and the
# candidates it evaluated, counted in ke.db), with --torch torch.jsonl
# (bench/baselines/torch_bench.py --device cuda --compile, after the
# searches), and table.md (bench/gpu_table.py, also printed).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="bench/gpu_search.sh ARCHIVE OUT [--budget N] [--workers N] [--timeout S] [--min-time S] [--torch] [KERNEL ...]"
archive="${1:?$usage}"
out="${2:?$usage}"
shift 2
budget=8
workers=1
limit=420
min_time=0.05
torch=0
kernels=()
while [ $# -gt 0 ]; do
  case "$1" in
    --budget) budget="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --timeout) limit="$2"; shift 2 ;;
    --min-time) min_time="$2"; shift 2 ;;
    --torch) torch=1; shift ;;
    -*) echo "bench/gpu_search.sh: unknown option $1" >&2; exit 2 ;;
    *) kernels+=("$1"); shift ;;
  esac
done
[[ "$limit" =~ ^[1-9][0-9]*$ ]] ||
  { echo "bench/gpu_search.sh: --timeout takes whole seconds, not '$limit'" >&2; exit 2; }
[ ${#kernels[@]} -gt 0 ] || kernels=("$root"/bench/kernels/*.mlir)
for i in "${!kernels[@]}"; do
  k="${kernels[$i]}"
  [ -f "$k" ] || k="$root/bench/kernels/$k.mlir"
  [ -f "$k" ] || { echo "bench/gpu_search.sh: no kernel ${kernels[$i]}" >&2; exit 2; }
  kernels[$i]="$k"
done
[ -f "$archive" ] || { echo "bench/gpu_search.sh: no archive $archive" >&2; exit 2; }
mkdir -p "$out"
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
tar -xJf "$archive" -C "$unpacked" || exit 1
bin="$unpacked/ke/bin"

# ke-run says whether the CUDA driver loads here, and why not.
probe_input="$root/test/Target/Inputs/vadd.mlir"
if [ -f "$probe_input" ]; then
  probe=$("$bin/ke-run" "$probe_input" --target nvgpu --json 2>/dev/null)
  if ! printf '%s' "$probe" | grep -q '"runnable":true'; then
    reason=$(printf '%s' "$probe" | sed -n 's/.*"not_runnable":"\([^"]*\)".*/\1/p')
    echo "bench/gpu_search.sh: no usable NVIDIA GPU here (${reason:-ke-run failed})" >&2
    exit 1
  fi
fi

# Candidates a search evaluated, from ke.db (python3's sqlite3: the host
# need not have the sqlite3 tool): the nodes of the runs newer than BEFORE,
# without the floor (proposer 'default', outside the budget). Where the
# database cannot be read, the "evaluated" column of the summary table that
# ends the search's log.
#   throughput before DB            -> the newest run's id (0: none)
#   throughput after DB BEFORE LOG KERNEL SECONDS EXIT WORKERS BUDGET -> JSON
throughput_py='
import json, os, sqlite3, sys

def query(db, sql, args=()):
    if not os.path.exists(db):
        return None
    try:
        connection = sqlite3.connect(db, timeout=30)
        try:
            return connection.execute(sql, args).fetchall()
        finally:
            connection.close()
    except sqlite3.Error:
        return None

mode, db = sys.argv[1], sys.argv[2]
if mode == "before":
    rows = query(db, "SELECT coalesce(max(id), 0) FROM runs")
    print(rows[0][0] if rows else 0)
    sys.exit(0)
before, log, kernel = int(sys.argv[3]), sys.argv[4], sys.argv[5]
seconds, status, workers, budget = float(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9])
row = {"kernel": kernel, "seconds": round(seconds, 3), "candidates": None,
       "per_minute": None, "correct": None, "incorrect": None, "failed": None,
       "workers": workers, "budget": budget, "exit": status, "source": None}
counts = query(db, "SELECT status, count(*) FROM nodes WHERE run > ? AND "
               "proposer != ? GROUP BY status", (before, "default"))
runs = query(db, "SELECT status FROM runs WHERE id > ? ORDER BY id", (before,))
if counts is not None and runs:
    by_status = dict(counts)
    row["candidates"] = sum(by_status.values())
    row["correct"] = by_status.get("correct", 0)
    row["incorrect"] = by_status.get("incorrect", 0)
    row["failed"] = row["candidates"] - row["correct"] - row["incorrect"]
    row["run_status"] = runs[-1][0]
    row["source"] = "ke.db"
else:
    # | kernel | naive | best | speedup | evaluated | correct | incorrect | failed | ...
    total, seen = 0, False
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 8 and cells[4].isdigit():
            seen = True
            total += int(cells[4])
            for key, cell in zip(("correct", "incorrect", "failed"), cells[5:8]):
                if cell.isdigit():
                    row[key] = (row[key] or 0) + int(cell)
    if seen:
        row["candidates"] = total
        row["source"] = "log"
if row["candidates"] is not None and seconds > 0:
    row["per_minute"] = round(row["candidates"] * 60.0 / seconds, 2)
print(json.dumps(row))
'
now() { date +%s.%N; }

# This run's results only (the database is kept: bench/run.sh clears it).
: > "$out/default.jsonl"
: > "$out/best.jsonl"
: > "$out/throughput.jsonl"
for kernel in "${kernels[@]}"; do
  name="$(basename "$kernel" .mlir)"
  rm -f "$out/$name.best.mlir" "$out/$name.run.log"
  before=$(python3 -c "$throughput_py" before "$out/ke.db")
  start=$(now)
  # The search stops itself at the limit, so its confirmation still runs;
  # killed at the limit, it output a node slower than the default lowering
  # (the H100 bench's bf16 attention at --timeout 24).
  timeout "$((limit + 300))" "$bin/ke-opt" "$kernel" \
    --ke-evolve="target=nvgpu budget=$budget workers=$workers min-time=$min_time time-limit=$limit db=$out/ke.db" \
    -o "$out/$name.best.mlir" 2> "$out/$name.evolve.log"
  status=$?
  seconds=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(now)")
  record=$(python3 -c "$throughput_py" after "$out/ke.db" "${before:-0}" \
    "$out/$name.evolve.log" "$name" "$seconds" "$status" "$workers" "$budget")
  printf '%s\n' "$record" >> "$out/throughput.jsonl"
  printf '%s: ke-evolve exit %s; %s\n' "$name" "$status" "$record" >&2
  grep "^| $name |" "$out/$name.evolve.log" >&2
  "$bin/ke-run" "$kernel" --target nvgpu --seeds 2 --json \
    >> "$out/default.jsonl" 2>> "$out/$name.run.log"
  [ -s "$out/$name.best.mlir" ] &&
    "$bin/ke-run" "$out/$name.best.mlir" --reference "$kernel" --naive \
      --target nvgpu --seeds 2 --json >> "$out/best.jsonl" \
      2>> "$out/$name.run.log"
done
table_args=(--best "$out/best.jsonl" --default "$out/default.jsonl"
  --throughput "$out/throughput.jsonl")
if [ $torch -eq 1 ]; then
  names=()
  for kernel in "${kernels[@]}"; do names+=("$(basename "$kernel" .mlir)"); done
  python3 "$root/bench/baselines/torch_bench.py" --device cuda --compile \
    --kernels "${names[@]}" > "$out/torch.jsonl" 2> "$out/torch.log"
  table_args+=(--torch "$out/torch.jsonl")
fi
python3 "$root/bench/gpu_table.py" "${table_args[@]}" > "$out/table.md"
cat "$out/table.md"
