#!/usr/bin/env bash
# Builds ke's release archive for hosts without LLVM (GPU nodes): ke-opt and
# ke-run linked statically against MLIR and LLVM, with the JIT's runtime
# libraries beside them. Usage: scripts/release.sh [OUT.tar.xz]
# Unpacked anywhere, bin/ke-opt --ke-evolve finds bin/ke-run next to it and
# ke-run finds lib/ (override with KE_MLIR_LIB_DIR).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
out="${1:-$build/release/ke-linux-x86_64.tar.xz}"
# The development build's libraries, relinked (tools/release/CMakeLists.txt).
"$root/scripts/build.sh"
ninja -C "$build" -j "${KE_BUILD_JOBS:-2}" ke-release
llvm_lib=/usr/lib/llvm-22/lib
stage="$build/release/stage/ke"
rm -rf "$build/release/stage"
mkdir -p "$stage/bin" "$stage/lib"
cp "$build/bin/ke-release" "$stage/bin/ke"
strip "$stage/bin/ke"
# One binary; the name it is called by picks the tool.
ln -s ke "$stage/bin/ke-opt"
ln -s ke "$stage/bin/ke-run"
# The OpenMP runtime for multi-threaded CPU kernels (it needs only libc);
# MLIR's runner utilities are built into ke (lib/Runtime/HostRuntime.cpp).
cp -L "$llvm_lib/libomp.so" "$stage/lib/"
git -C "$root" rev-parse --short HEAD > "$stage/VERSION" 2>/dev/null || true
# What the archive still needs from the host: the C and C++ runtimes.
echo "bin/ke needs:" $(ldd "$stage/bin/ke" | awk '{print $1}' | sort) \
  > "$stage/NEEDS"
mkdir -p "$(dirname "$out")"
XZ_OPT=-9 tar -C "$build/release/stage" -cJf "$out" ke
echo "ke: release archive $out ($(du -h "$out" | cut -f1))"
