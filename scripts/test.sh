#!/usr/bin/env bash
# Runs the whole test suite (lit + unit tests); fails on any failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
status=0
"$root/build/bin/KeUnitTests" --gtest_brief=1 || status=1
/usr/lib/llvm-22/bin/lit -sv "$root/build/test" || status=1
if [ $status -ne 0 ]; then
  echo "ke: tests FAILED" >&2
else
  echo "ke: all tests passed" >&2
fi
exit $status
