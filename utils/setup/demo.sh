#!/usr/bin/env bash
# The main job, end to end on a fresh Debian machine: install every
# dependency, build, compile the demo script once, and trace a 64-bit build
# and a 32-bit build of the demo program in one tsrun session. Where the
# kernel runs i386 programs, both are native processes (clauses run inside
# each, in its own data model's stream); the 32-bit build is then traced
# once more under qemu-i386, through its GDB stub, the path for kernels
# without i386 support (and the only one where the kernel lacks it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TSCC_BUILD_DIR:-$root/build}
out=$build/demo

"$root/utils/setup/install-deps.sh"
"$root/utils/setup/build.sh"

mkdir -p "$out"
"$build/bin/tscc" "$root/utils/demo/demo.t" -o "$out/probe.o"
gcc -m64 -O1 -g -fno-omit-frame-pointer "$root/utils/demo/app.c" -o "$out/app64"
gcc -m32 -O1 -g -fno-omit-frame-pointer "$root/utils/demo/app.c" -o "$out/app32"

if "$out/app32" 0 >/dev/null 2>&1; then
  echo "== tsrun: one probe object, a native 64-bit and a native 32-bit process =="
  "$build/bin/tsrun" "$out/probe.o" -c "$out/app64 3" -c "$out/app32 2"
else
  echo "== this kernel does not run i386 programs natively: 32-bit under qemu-i386 only =="
fi

# qemu-i386 waits for a debugger before running the program; tsrun connects.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
qemu-i386 -g "$port" "$out/app32" 2 > "$out/app32.out" 2>&1 &
qemu_pid=$!
trap 'kill $qemu_pid 2>/dev/null || true' EXIT
# Readiness handshake: wait until the stub accepts connections.
python3 "$root/utils/lit/wait_for_port.py" 127.0.0.1 "$port" 30

echo "== tsrun: a native 64-bit process and a 32-bit one under qemu-i386 =="
"$build/bin/tsrun" "$out/probe.o" -c "$out/app64 3" --remote "127.0.0.1:$port=$out/app32"
wait $qemu_pid || true
echo "== the qemu 32-bit program's own output =="
cat "$out/app32.out"
