#!/usr/bin/env bash
# Installs the Debian packages ke needs, only those that are missing.
# Idempotent; safe to run on every build. Debian 12 (bookworm) or later.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ python3 git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22 libomp-22-dev
  # ke-report html's rendering test (headless)
  chromium
  # the sanitizer job and the fuzzer (scripts/test-sanitized.sh)
  libclang-rt-22-dev
  libcurl4-openssl-dev nlohmann-json3-dev libsqlite3-dev sqlite3 libgtest-dev
  # the Slurm executor's tests: a one-node cluster (test/Slurm/cluster.sh)
  slurmd slurmctld slurm-client munge
  # the riscv target: cross linker, qemu user mode, llvm-mca (in llvm-22)
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user llvm-22
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "ke: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "ke: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
