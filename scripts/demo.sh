#!/usr/bin/env bash
# The main job on the built-in defaults: evaluate the example kernel on this
# CPU (lower, run, check against the naive reference, time) and print the
# result, once as a sentence and once as the JSON line the search consumes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" >&2
example="${1:-$root/examples/matmul_bias_relu.mlir}"
"$root/build/bin/ke-run" "$example" --target cpu
"$root/build/bin/ke-run" "$example" --target cpu --json
