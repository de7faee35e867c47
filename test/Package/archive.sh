#!/usr/bin/env bash
# The release archive (scripts/package.sh) runs where no LLVM is installed:
# it is unpacked to a temporary directory and run in a mount namespace where
# Debian's LLVM/MLIR directory is an empty directory and its shared
# libraries are /dev/null. Checks ke-run on the CPU, a small ke-evolve,
# ke-report and ke-gpu-run from the archive, and its size (<= 60 MiB).
#   test/Package/archive.sh ARCHIVE
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
archive="${1:?test/Package/archive.sh ARCHIVE}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
check() { # NAME COMMAND...
  local name="$1"
  shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; failures=$((failures + 1)); fi
}

bytes=$(stat -c %s "$archive")
check "archive size $((bytes >> 20)) MiB <= 60 MiB" test "$bytes" -le $((60 << 20))
tar -xJf "$archive" -C "$work" || { echo "FAIL: unpack"; exit 1; }
check "bin/ke needs no LLVM or MLIR shared library" \
  sh -c "! ldd '$work/ke/bin/ke' | grep -E -q 'lib(LLVM|MLIR|clang)'"
cp "$root/test/Target/Inputs/vadd.mlir" "$work/vadd.mlir"

# What runs with LLVM hidden; each line prints PASS/FAIL.
cat > "$work/inside.sh" <<INSIDE
set -u
bin="$work/ke/bin"
verdict() { if "\$@"; then echo "PASS: \$name"; else echo "FAIL: \$name"; fi; }
if [ "\${KE_LLVM_HIDDEN:-0}" = 1 ]; then
  name="LLVM is hidden"
  verdict test -z "\$(ls -A /usr/lib/llvm-22 2>/dev/null)"
fi
name="ke-run on the CPU: correct"
"\$bin/ke-run" "$work/vadd.mlir" --json --min-time 0.01 > "$work/run.json" 2> "$work/run.err"
verdict grep -q '"correct":true' "$work/run.json"
name="ke-evolve budget=2: finishes and writes the best kernel"
"\$bin/ke-opt" "$work/vadd.mlir" --ke-evolve="budget=2 min-time=0.01 db=$work/ke.db" \
  -o "$work/best.mlir" > /dev/null 2> "$work/evolve.log"
verdict grep -q "func.func @vadd" "$work/best.mlir"
name="ke-report reads the search's database"
"\$bin/ke-report" skills --db "$work/ke.db" > "$work/skills.md"
verdict grep -q "| id | target" "$work/skills.md"
name="ke-gpu-run starts (usage without bundles)"
"\$bin/ke-gpu-run" > /dev/null 2>&1
verdict test \$? -eq 2
INSIDE

if unshare --user --map-root-user --mount true 2>/dev/null; then
  mkdir -p "$work/empty"
  unshare --user --map-root-user --mount sh -c '
    mount --bind "$1/empty" /usr/lib/llvm-22 || exit 1
    for library in /usr/lib/x86_64-linux-gnu/libLLVM* \
                   /usr/lib/x86_64-linux-gnu/libMLIR* \
                   /usr/lib/x86_64-linux-gnu/libclang*; do
      [ -e "$library" ] && mount --bind /dev/null "$library"
    done
    KE_LLVM_HIDDEN=1 exec bash "$1/inside.sh"' sh "$work" > "$work/inside.out" 2>&1
else
  echo "note: no user namespaces here; LLVM cannot be hidden, so the archive runs beside it"
  bash "$work/inside.sh" > "$work/inside.out" 2>&1
fi
cat "$work/inside.out"
inside_failures=$(grep -c '^FAIL' "$work/inside.out")
inside_passes=$(grep -c '^PASS' "$work/inside.out")
[ "$inside_passes" -ge 5 ] || { echo "FAIL: the checks inside did not all run"; failures=$((failures + 1)); }
failures=$((failures + inside_failures))
if [ $failures -gt 0 ]; then
  echo "archive: $failures failed"
  tail -5 "$work/evolve.log" "$work/run.err" 2>/dev/null
  exit 1
fi
echo "archive: all passed"
