#!/usr/bin/env bash
# The main job on the built-in defaults: search for a faster verified
# implementation of the example kernel on this CPU (transform-library
# proposer, SQLite record in build/demo.db), then check and time the result.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" >&2
example="${1:-$root/examples/matmul_bias_relu.mlir}"
out="$root/build/demo-out.mlir"
"$root/build/bin/ke-opt" "$example" --ke-evolve="db=$root/build/demo.db" -o "$out"
echo "best implementation written to $out; checking it against the original:"
"$root/build/bin/ke-run" "$out" --reference "$example" --naive --target cpu --json
