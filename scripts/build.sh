#!/usr/bin/env bash
# Installs what is missing, configures build/ once and builds incrementally.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
if [ ! -f "$root/build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$root/build"
fi
# Two jobs: MLIR translation units are big and this project's machines small.
ninja -C "$root/build" -j "${KE_BUILD_JOBS:-2}"
