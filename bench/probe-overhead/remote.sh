#!/usr/bin/env bash
# Per-hit cost of a probe on the gdb-remote path: a program calls hit() N
# times with an entry probe on it, run (a) under qemu-i386 with no tracer,
# (b) under qemu-i386 -g traced by tsrun, and the same for a 64-bit build
# under gdbserver. Per-hit cost = (traced - untraced) / N.
#
#   bench/probe-overhead/remote.sh [N]        (default N = 2000)
#   TSCC=... TSRUN=... to choose the tools (default: build*/bin, then PATH)
set -euo pipefail
N=${1:-2000}
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

run_case() {
  local label=$1 plain=$2 stub=$3 exe=$4
  local t0 t1 t2 t3
  t0=$(now); $plain "$exe" "$N" || true; t1=$(now)
  t2=$(now)
  $SESSION --stub "$stub" -- "$TSRUN" "$WORK/count.o" \
    --remote "127.0.0.1:{port0}=$exe" > "$WORK/out.$label" 2>&1
  t3=$(now)
  local base traced per
  base=$(elapsed "$t0" "$t1")
  traced=$(elapsed "$t2" "$t3")
  per=$(echo "($traced - $base) / $N * 1000000" | bc -l)
  printf '%-22s N=%-7s untraced %6.3fs  traced %7.3fs  per hit %7.1f us\n' \
    "$label" "$N" "$base" "$traced" "$per"
  grep -q "hits" "$WORK/out.$label" || { echo "no hits counted:"; cat "$WORK/out.$label"; }
}

echo "gdb-remote per-hit cost (entry probe, count() aggregation)"
run_case "qemu-i386 (ILP32)" "qemu-i386" "qemu-i386 -g {port} $WORK/loop32 $N" "$WORK/loop32"
if command -v gdbserver > /dev/null; then
  run_case "gdbserver (LP64)" "" "gdbserver 127.0.0.1:{port} $WORK/loop64 $N" "$WORK/loop64"
fi
