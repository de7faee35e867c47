#!/usr/bin/env bash
# Builds ke's release archive for hosts without LLVM (GPU nodes):
# dist/ke-<version>-linux-x86_64.tar.xz with ke-opt, ke-run, ke-report and
# ke-gpu-run (one binary linked statically against MLIR and LLVM) and the
# JIT's OpenMP runtime beside them. Usage: scripts/package.sh [OUT.tar.xz]
# Unpacked anywhere, bin/ke-opt --ke-evolve finds bin/ke-run next to it and
# ke-run finds lib/ (override with KE_MLIR_LIB_DIR). test/Package/ checks it
# with Debian's LLVM hidden.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
version="$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo dev)"
out="${1:-$root/dist/ke-$version-linux-x86_64.tar.xz}"
max_mib=60
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
for tool in ke-opt ke-run ke-report ke-gpu-run; do
  ln -s ke "$stage/bin/$tool"
done
# The OpenMP runtime for multi-threaded CPU kernels (it needs only libc);
# MLIR's runner utilities are built into ke (lib/Runtime/HostRuntime.cpp).
cp -L "$llvm_lib/libomp.so" "$stage/lib/"
echo "$version" > "$stage/VERSION"
# What the archive still needs from the host: the C and C++ runtimes,
# libcurl, SQLite and zstd (and libcuda.so.1 for NVIDIA GPUs, at run time).
echo "bin/ke needs:" $(ldd "$stage/bin/ke" | awk '{print $1}' | sort) \
  > "$stage/NEEDS"
if ldd "$stage/bin/ke" | grep -E -q 'lib(LLVM|MLIR|clang)'; then
  echo "ke: bin/ke still needs LLVM's shared libraries:" >&2
  ldd "$stage/bin/ke" | grep -E 'lib(LLVM|MLIR|clang)' >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
XZ_OPT=-9 tar -C "$build/release/stage" -cJf "$out" ke
bytes=$(stat -c %s "$out")
if [ "$bytes" -gt $((max_mib << 20)) ]; then
  echo "ke: $out is $((bytes >> 20)) MiB, over the $max_mib MiB limit" >&2
  exit 1
fi
echo "ke: release archive $out ($(du -h "$out" | cut -f1))"
