#!/bin/sh
# Per-hit cost of the counting probe in a launched process (int3) and in an
# attached one (faulting breakpoints + healer, docs/runtime.md "If tsrun is
# killed"), alternating with bpftrace's uprobe on the same program, each
# timed by the target itself over N calls. Both on the breakpoint (ptrace)
# path, --ptrace: the in-process path does not trap at all.
#   bench/probe-overhead/attached.sh [N] [ROUNDS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TSCC=${TSCC:-$root/build/bin/tscc}
TSRUN=${TSRUN:-$root/build/bin/tsrun}
N=${1:-40000}
ROUNDS=${2:-4}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O1 "$here/timed-loop.c" -o "$work/loop"
"$TSCC" "$here/count.t" -o "$work/count.o"
untraced() {
  mkfifo "$work/go"
  "$work/loop" "$N" "$work/go" > "$work/out" &
  pid=$!
  echo x > "$work/go"
  wait "$pid" || true
  rm -f "$work/go"
  cat "$work/out"
}
launched() {
  mkfifo "$work/go"
  "$TSRUN" --ptrace "$work/count.o" -o /dev/null -- "$work/loop" "$N" "$work/go" > "$work/out" &
  ts=$!
  echo x > "$work/go"
  wait "$ts" || true
  rm -f "$work/go"
  cat "$work/out"
}
attached() {
  mkfifo "$work/go"
  : > "$work/err"
  "$work/loop" "$N" "$work/go" > "$work/out" &
  pid=$!
  "$TSRUN" --ptrace "$work/count.o" -o /dev/null -v -p "$pid" 2> "$work/err" &
  ts=$!
  # -v says when the probes are in: the handshake, no sleeping on luck.
  until grep -q ': attached' "$work/err"; do
    kill -0 "$ts" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
    sleep 0.01
  done
  echo x > "$work/go"
  wait "$pid" || true
  wait "$ts" || true
  rm -f "$work/go"
  cat "$work/out"
}
# The peer, in the same run: bpftrace's uprobe with a count. bpftrace runs
# BEGIN once every probe is attached, so "ready" is the handshake.
bpftrace_uprobe() {
  if ! command -v bpftrace >/dev/null 2>&1; then
    echo "not installed"
    return
  fi
  mkfifo "$work/go"
  : > "$work/bt"
  bpftrace -e "BEGIN { printf(\"ready\\n\"); } uprobe:$work/loop:hit { @n = count(); }" \
    > "$work/bt" 2>&1 &
  bt=$!
  until grep -q '^ready' "$work/bt"; do
    kill -0 "$bt" 2>/dev/null || { cat "$work/bt" >&2; exit 1; }
    sleep 0.01
  done
  "$work/loop" "$N" "$work/go" > "$work/out" &
  pid=$!
  echo x > "$work/go"
  wait "$pid" || true
  kill -INT "$bt"
  wait "$bt" || true
  grep -q "@n: $N\$" "$work/bt" || { echo "bpftrace missed hits:" >&2; cat "$work/bt" >&2; exit 1; }
  rm -f "$work/go"
  cat "$work/out"
}
echo "| round | untraced (µs/call) | bpftrace uprobe (µs/call) | launched, int3 (µs/call) | attached, faulting + healer (µs/call) |"
echo "|---|---|---|---|---|"
i=1
while [ "$i" -le "$ROUNDS" ]; do
  echo "| $i | $(untraced) | $(bpftrace_uprobe) | $(launched) | $(attached) |"
  i=$((i + 1))
done
