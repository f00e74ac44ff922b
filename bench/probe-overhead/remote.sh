#!/usr/bin/env bash
# Per-hit cost of a probe on the gdb-remote path: a program calls hit() with
# an entry probe on it (a count() aggregation), traced under qemu-i386 -g
# (32-bit build) and gdbserver (64-bit build). Each is run with N/10 and N
# calls; the per-hit cost is the slope, so fixed costs (starting the stub,
# connecting, resolving libraries) cancel out. The qemu-i386 target is
# measured both ways: with every hit a breakpoint over the protocol
# (TSCC_REMOTE_AGENT=0), and with the clause run in the guest by the
# in-process agent (the default), with M calls instead of N (a hit costs
# far less there: the slope needs more of them).
#
# Each row gives two slopes: wall time, and CPU time (user + system of the
# stub, tsrun and the session helper together, from bash's `time`). On a
# loaded machine the wall slope is mostly waiting for a CPU (a hit in the
# guest is pure computation, with no system call and no round trip), so
# compare CPU with CPU; the load (`uptime`) is printed with the rows.
#
#   bench/probe-overhead/remote.sh [N [M]]    (default N = 4000, M = 400000)
#   TSCC=... TSRUN=... to choose the tools (default: build*/bin, then PATH)
set -euo pipefail
N=${1:-4000}
M=${2:-400000}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
find_tool() {
  local name=$1 var=$2
  if [[ -n ${!var:-} ]]; then echo "${!var}"; return; fi
  for d in "$ROOT"/build*/bin; do
    [[ -x $d/$name ]] && { echo "$d/$name"; return; }
  done
  command -v "$name" || { echo "remote.sh: no $name (set $var)" >&2; exit 1; }
}
TSCC=$(find_tool tscc TSCC)
TSRUN=$(find_tool tsrun TSRUN)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/loop.c" <<'C'
#include <stdlib.h>
__attribute__((noinline)) long hit(long x) { return x + 1; }
int main(int argc, char **argv) {
  long n = atol(argv[1]), s = 0;
  for (long i = 0; i < n; ++i)
    s += hit(i);
  return s == 0; /* keep the calls */
}
C
cat > "$WORK/count.t" <<'T'
long hit(long);
@@uft:*:a.out:hit:entry { @hits = count(); }
T
gcc -m32 -O1 -fno-omit-frame-pointer "$WORK/loop.c" -o "$WORK/loop32"
gcc -m64 -O1 -fno-omit-frame-pointer "$WORK/loop.c" -o "$WORK/loop64"
"$TSCC" "$WORK/count.t" -o "$WORK/count.o"

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }
SESSION="python3 $ROOT/utils/lit/remote_session.py"

# Time one traced run of N calls: prints "WALL CPU" in seconds.
traced_time() {
  local stub=$1 exe=$2 n=$3 agent=$4 times
  times=$( { TIMEFORMAT='%R %U %S'; time TSCC_REMOTE_AGENT=$agent $SESSION \
    --stub "${stub//@N@/$n}" -- "$TSRUN" "$WORK/count.o" \
    --remote "127.0.0.1:{port0}=$exe" > "$WORK/out" 2>&1; } 2>&1 )
  grep -q "@hits: $n\$" "$WORK/out" || { echo "expected $n hits:" >&2; cat "$WORK/out" >&2; exit 1; }
  read -r wall user sys <<< "$times"
  echo "$wall $(echo "$user + $sys" | bc -l)"
}

# The marginal cost of a hit: the difference between N and N/10 calls, so
# that starting the stub, connecting and resolving libraries cancel out.
run_case() {
  local label=$1 stub=$2 exe=$3 n=${4:-$N} agent=${5:-0}
  local small=$((n / 10)) w_small c_small w_big c_big per cpu
  read -r w_small c_small <<< "$(traced_time "$stub" "$exe" "$small" "$agent")"
  read -r w_big c_big <<< "$(traced_time "$stub" "$exe" "$n" "$agent")"
  per=$(echo "($w_big - $w_small) / ($n - $small) * 1000000" | bc -l)
  cpu=$(echo "($c_big - $c_small) / ($n - $small) * 1000000" | bc -l)
  printf '%-22s %7d calls %7.3fs  %7d calls %7.3fs  per hit %9.3f us  CPU per hit %9.3f us\n' \
    "$label" "$small" "$w_small" "$n" "$w_big" "$per" "$cpu"
}

echo "gdb-remote per-hit cost (entry probe, count() aggregation); load: $(uptime | sed 's/.*load average: //')"
run_case "qemu-i386 over RSP" "qemu-i386 -g {port} $WORK/loop32 @N@" "$WORK/loop32"
run_case "qemu-i386 in-process" "qemu-i386 -g {port} $WORK/loop32 @N@" \
  "$WORK/loop32" "$M" 1
if command -v gdbserver > /dev/null; then
  run_case "gdbserver (LP64)" "gdbserver 127.0.0.1:{port} $WORK/loop64 @N@" "$WORK/loop64"
fi
echo "load at the end: $(uptime | sed 's/.*load average: //')"
