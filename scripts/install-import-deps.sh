#!/usr/bin/env bash
# Installs what tools/ke-import needs into a Python virtualenv: PyTorch and
# torch-mlir (its FX importer) from PyPI. Neither the core build, the
# README's two commands nor CI's core tests need it.
#
#   scripts/install-import-deps.sh [VENV]
#
# VENV defaults to $KE_IMPORT_VENV, else .venv at the repository's root (where
# ke-import looks). An existing venv that already has torch keeps it: only
# what is missing is installed. Idempotent.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-${KE_IMPORT_VENV:-$root/.venv}}"
# The pair the importer was written against (torch-mlir names the torch it
# was built with; newer torch releases may change what the FX exporter emits).
torch_req="torch>=2.15,<2.16"
torch_mlir_req="torch-mlir==20261001"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" 2>/dev/null || {
    echo "ke: python3 -m venv failed; install Debian's python3-venv" >&2; exit 1; }
fi
if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "ke: installing $torch_req into $venv (a large download)" >&2
  "$venv/bin/pip" install -q "$torch_req"
fi
if ! "$venv/bin/python" -c "import torch_mlir.fx" 2>/dev/null; then
  echo "ke: installing $torch_mlir_req into $venv" >&2
  # --no-deps: its requirements name no torch version, and a resolver
  # must not replace the torch installed above.
  "$venv/bin/pip" install -q --no-deps "$torch_mlir_req"
  "$venv/bin/pip" install -q numpy packaging
fi
"$venv/bin/python" -c "import torch, torch_mlir.fx; print('ke-import: torch', torch.__version__, 'with torch-mlir in $venv')"
