#!/usr/bin/env bash
# Downloads real Debian i386 programs for the tests that trace them
# (test/Ptrace/debian-i386.test): `apt-get download PKG:i386`, unpacked with
# `dpkg -x` into DIR (default: the build's directory given as $1, or
# ./debian-i386). The machine's own dpkg architectures are left alone: apt
# gets a private state directory that lists the i386 packages only. Their
# libraries are the machine's 32-bit ones (gcc-multilib's libc6-i386).
#
# usage: fetch-debian-i386.sh [DIR]
set -euo pipefail
dest=$(realpath -m "${1:-debian-i386}")
packages=(hello)
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$dest"
opts=(-o APT::Architecture=i386 -o "APT::Architectures::=i386"
      -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache"
      -o Debug::NoLocking=1 -q)
apt-get "${opts[@]}" update >/dev/null || true  # one failed index is fine
cd "$state"
for p in "${packages[@]}"; do
  apt-get "${opts[@]}" download "$p:i386" >/dev/null
done
for deb in "$state"/*_i386.deb; do
  dpkg -x "$deb" "$dest"
done
echo "unpacked into $dest: $(cd "$state" && ls ./*_i386.deb | xargs -n1 basename)"
