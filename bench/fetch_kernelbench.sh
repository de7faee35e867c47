#!/usr/bin/env bash
# Copies the KernelBench problem sources (levelN/NAME.py) that the .mlir
# files of a kernel folder were converted from into build/bench/kernelbench-py/,
# for bench/kernelbench_torch.py --kernelbench-dir. KernelBench's code is not
# kept in this repository: bring your own clone of
# github ScalingIntelligence/KernelBench.
#
#   bench/fetch_kernelbench.sh [SRC] [--rev REV] [--mlir-dir DIR] [--out DIR]
#
# SRC (default $KERNELBENCH_DIR): a git repository of KernelBench (a clone or
# a bare git dir), read at REV (default 423217d, the commit the .mlir files
# name), or a plain folder: KernelBench's root or its KernelBench/ folder.
# DIR (default ../shared/kernelbench) is searched recursively for .mlir files
# whose header says `// KernelBench levelN/NAME`.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="${KERNELBENCH_DIR:-}" rev=423217d mlir_dir="$root/../shared/kernelbench"
out="$root/build/bench/kernelbench-py"
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev="$2"; shift 2 ;;
    --mlir-dir) mlir_dir="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n 2,15p "$0"; exit 0 ;;
    -*) echo "bench/fetch_kernelbench.sh: unknown option $1" >&2; exit 2 ;;
    *) src="$1"; shift ;;
  esac
done
[ -n "$src" ] || { echo "bench/fetch_kernelbench.sh: give a KernelBench clone (or set KERNELBENCH_DIR)" >&2; exit 2; }
[ -e "$src" ] || { echo "bench/fetch_kernelbench.sh: $src does not exist" >&2; exit 2; }

# The problems named by the .mlir headers, e.g. level1/95_CrossEntropyLoss.
problems=$(find "$mlir_dir" -name '*.mlir' -exec sed -n 's|^// KernelBench \(level[0-9]*/[^ ]*\).*|\1|p' {} + | sort -u)
[ -n "$problems" ] || { echo "bench/fetch_kernelbench.sh: no '// KernelBench' headers under $mlir_dir" >&2; exit 2; }

# A git repository that holds REV is read at REV, whatever its work tree has
# checked out; anything else is read as a folder.
git_dir=""
for candidate in "$src" "$src/.git"; do
  if [ -d "$candidate" ] && git --git-dir="$candidate" rev-parse --verify -q "$rev^{commit}" >/dev/null 2>&1; then
    git_dir="$candidate"
    break
  fi
done
folder=""
if [ -z "$git_dir" ]; then
  for candidate in "$src/KernelBench" "$src"; do
    [ -d "$candidate/level1" ] && { folder="$candidate"; break; }
  done
  [ -n "$folder" ] || { echo "bench/fetch_kernelbench.sh: $src is neither a git repository holding $rev nor a folder with level1/" >&2; exit 2; }
  echo "bench/fetch_kernelbench.sh: $src is not a git repository holding $rev; copying its files as they are" >&2
fi

mkdir -p "$out"
copied=0 missing=0
for problem in $problems; do
  mkdir -p "$out/$(dirname "$problem")"
  dest="$out/$problem.py"
  if [ -n "$git_dir" ]; then
    git --git-dir="$git_dir" show "$rev:KernelBench/$problem.py" > "$dest.tmp" 2>/dev/null
  else
    cp "$folder/$problem.py" "$dest.tmp" 2>/dev/null
  fi
  if [ $? -eq 0 ]; then
    mv "$dest.tmp" "$dest"
    copied=$((copied + 1))
  else
    # Never leave a stale copy from an earlier run in place of a missing one.
    rm -f "$dest.tmp" "$dest"
    echo "bench/fetch_kernelbench.sh: missing $problem.py" >&2
    missing=$((missing + 1))
  fi
done
echo "bench/fetch_kernelbench.sh: $copied problem files in $out${git_dir:+ (from $git_dir at $rev)}, $missing missing" >&2
[ "$missing" -eq 0 ]
