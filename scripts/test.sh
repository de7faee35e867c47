#!/usr/bin/env bash
# Runs the whole test suite (unit tests, lit, and the release archive run
# with LLVM hidden); fails on any failure. Tests that need a GPU host are
# in test/GPU/gpu-host.sh (docs/targets.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
status=0
"$root/build/bin/KeUnitTests" --gtest_brief=1 || status=1
/usr/lib/llvm-22/bin/lit -sv "$root/build/test" || status=1
archive="$root/build/package-test/ke-linux-x86_64.tar.xz"
if "$root/scripts/package.sh" "$archive"; then
  "$root/test/Package/archive.sh" "$archive" || status=1
else
  echo "ke: scripts/package.sh failed" >&2
  status=1
fi
if [ $status -ne 0 ]; then
  echo "ke: tests FAILED" >&2
else
  echo "ke: all tests passed" >&2
fi
exit $status
