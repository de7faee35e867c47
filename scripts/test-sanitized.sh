#!/usr/bin/env bash
# The sanitizer job: ke's code built with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer in build-sanitized/ (MLIR and LLVM stay as
# Debian built them), the unit and lit tests run there, then the parser
# fuzzer (fuzz/ParserFuzzer.cpp) for KE_FUZZ_SECONDS (default 60) from
# fuzz/corpus. Fails on any failure, sanitizer report or fuzzer crash.
#   scripts/test-sanitized.sh [FUZZ_SECONDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-sanitized"
seconds="${1:-${KE_FUZZ_SECONDS:-60}}"
"$root/scripts/install-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DKE_SANITIZE=address,undefined -DKE_FUZZ=ON
fi
ninja -C "$build" -j "${KE_BUILD_JOBS:-2}" all ke-fuzz-parsers
# Leaks of MLIR's and LLVM's process-lifetime singletons are not ke's; the
# crash containment installs its own SIGSEGV/SIGBUS handlers.
export ASAN_OPTIONS="detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0:allow_user_segv_handler=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
"$build/bin/KeUnitTests" --gtest_brief=1 || status=1
/usr/lib/llvm-22/bin/lit -sv "$build/test" || status=1
# The fuzzer on a scratch copy of the corpus (new inputs are not kept).
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
cp "$root"/fuzz/corpus/* "$corpus"/
log="$build/fuzz.log"
if ASAN_OPTIONS="detect_leaks=1" "$build/bin/ke-fuzz-parsers" "$corpus" \
    -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 > "$log" 2>&1; then
  grep -E "^stat::number_of_executed_units|Done [0-9]+ runs" "$log" || true
else
  tail -40 "$log"
  echo "ke: the fuzzer found a crash (input saved in the working directory)" >&2
  status=1
fi
if [ $status -ne 0 ]; then
  echo "ke: sanitized tests FAILED" >&2
else
  echo "ke: sanitized tests passed" >&2
fi
exit $status
