#!/usr/bin/env bash
# Installs every Debian package tscc needs to build, test and benchmark.
# Safe to run repeatedly; a machine that already has everything just re-checks.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache git python3 python3-psutil
  llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 llvm-19-tools
  clang-format-19  # utils/format/check-format.sh, run by run-tests.sh
  antlr4 libantlr4-runtime-dev
  nlohmann-json3-dev libgtest-dev googletest
  gcc-multilib qemu-user gdb gdbserver
  libclang-rt-19-dev  # libFuzzer and the sanitizer runtimes (utils/fuzz, TSCC_FUZZ)
  bpftrace strace ltrace systemtap-sdt-dev
  libc6-dbg  # libc's separate debug symbols (test/Ptrace/libc-debug-vs-bpftrace.t)
  babeltrace2 prometheus
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libffi-dev libncurses-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
