// A stub on 127.0.0.1 whose process tsrun cannot see: qemu-i386 started
// in a PID namespace (and mount namespace, with its own /proc) of its
// own, as a container would run it. It reports its namespace's pids (its
// program is "1", our init here), and tsrun's /proc/TSRUN/fd is not
// reachable from it, so the guest cannot map tsrun's memfds. tsrun used
// to take the stub for one of this machine: it read pid 1's /proc files
// as the target's, then tried the injection, which failed on the open
// through /proc. Now a stub counts as this machine's only if the process
// it names holds the stub's end of the connection (or its parent does,
// for gdbserver): here the clauses run in tsrun, -v says why, and every
// record is there.
// REQUIRES: compiler, qemu-i386, m32, unshare
// RUN: %cc32 -O1 %S/Inputs/burst-threads.c -o %t32 -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %remote_session \
// RUN:   --stub 'unshare --user --map-root-user --pid --fork --mount-proc --kill-child qemu-i386 -g {port} %t32 1 40' \
// RUN:   --out %t.prog -- %tsrun %t.o -v -f json -o %t.json \
// RUN:   --remote 127.0.0.1:{port0}=%t32 2> %t.err
// RUN: FileCheck %s < %t.json
// RUN: FileCheck --check-prefix=PROG %s < %t.prog
// RUN: %python -c "import json,sys; [print(r['text'], end='') for r in map(json.loads, open(sys.argv[1])) if r.get('type') == 'printf']" %t.json > %t.out
// RUN: %python %S/Inputs/check-thread-bursts.py 1 40 %t.out | FileCheck --check-prefix=EXACT %s
// CHECK: "pid":1,"type":"target_attached"
// CHECK-NOT: clauses run in the guest
// CHECK: (pid 1): clauses run in tsrun at breakpoints: the stub's process is not one tsrun can see (another machine, a tunnel, or another PID namespace), so records could not come back through shared memory"
// CHECK: "mechanism":"breakpoint (the stub's process is not one tsrun can see
// CHECK: "drops":0,"faults":0,"fired":40,
// PROG: burst: 1 threads, 40 calls each
// EXACT: exact: 1 threads x 40 records, none lost

long hit(long, long);
@@uft:*:a.out:hit:entry { printf("hit %ld %ld\n", __arg1, __arg2); }
