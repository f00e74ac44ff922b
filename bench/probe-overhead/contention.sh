#!/bin/sh
# What the polling event loop (tsrun --spin, docs/runtime.md "Waiting for
# hits") takes from a program that needs every CPU: contention.c's worker
# threads' times, untraced and traced with and without polling, on the
# breakpoint path (--ptrace), the only one that waits for stops.
#   bench/probe-overhead/contention.sh [WORKERS] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TSCC=${TSCC:-$root/build/bin/tscc}
TSRUN=${TSRUN:-$root/build/bin/tsrun}
W=${1:-$(nproc)}
ROUNDS=${2:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -pthread "$here/contention.c" -o "$work/contention"
"$TSCC" "$here/count.t" -o "$work/count.o"
echo "| round | untraced (s per worker) | tsrun --spin 0 (s per worker) | tsrun, polling (s per worker) |"
echo "|---|---|---|---|"
i=1
while [ "$i" -le "$ROUNDS" ]; do
  a=$("$work/contention" "$W")
  b=$("$TSRUN" --ptrace --spin 0 "$work/count.o" -o /dev/null -- "$work/contention" "$W")
  c=$("$TSRUN" --ptrace "$work/count.o" -o /dev/null -- "$work/contention" "$W")
  echo "| $i | $a | $b | $c |"
  i=$((i + 1))
done
