// Syscall counts of real programs agree with strace's: `ls -l /usr/bin`
// (a stat and extended-attribute reads per file, readlink per symbolic
// link), alone and in a shell pipeline that forks and execs (sh, ls, wc).
// Only calls whose number does not depend on timing are counted (wc's
// reads of the pipe do). In both tsrun modes; the in-process one runs the
// clauses at glibc's patched system-call sites.
// REQUIRES: strace
// RUN: %tscc %s -o %t.o
// RUN: strace -f -qq -e trace=statx,lgetxattr,getxattr,readlink,openat,close,write -o %t.strace /bin/ls -l /usr/bin > /dev/null
// RUN: %python %S/Inputs/strace-counts.py %t.strace > %t.counts
// RUN: %tsrun %t.o -o %t.ours -- /bin/ls -l /usr/bin > /dev/null
// RUN: cat %t.counts %t.ours | FileCheck %s
// RUN: strace -f -qq -e trace=statx,lgetxattr,getxattr,readlink,openat,close,write -o %t.strace2 /bin/sh -c '/bin/ls -l /usr/bin | /usr/bin/wc -l' > /dev/null
// RUN: %python %S/Inputs/strace-counts.py %t.strace2 > %t.counts2
// RUN: %tsrun %t.o -o %t.ours2 -- /bin/sh -c '/bin/ls -l /usr/bin | /usr/bin/wc -l' > /dev/null
// RUN: cat %t.counts2 %t.ours2 | FileCheck %s
// CHECK: strace statx=[[A:[0-9]+]] lgetxattr=[[B:[0-9]+]] getxattr=[[C:[0-9]+]] readlink=[[D:[0-9]+]] openat=[[E:[0-9]+]] openat_failed=[[F:[0-9]+]] close=[[G:[0-9]+]] write=[[H:[0-9]+]]
// CHECK: tsrun statx=[[A]] lgetxattr=[[B]] getxattr=[[C]] readlink=[[D]] openat=[[E]] openat_failed=[[F]] close=[[G]] write=[[H]]

__global long sx;
__global long lx;
__global long gx;
__global long rl;
__global long op;
__global long of;
__global long cl;
__global long wr;

@@syscall:*:statx:entry { sx++; }
@@syscall:*:lgetxattr:entry { lx++; }
@@syscall:*:getxattr:entry { gx++; }
@@syscall:*:readlink:entry { rl++; }
@@syscall:*:openat:exit { op++; }
@@syscall:*:openat:exit when (__rv < 0) { of++; }
@@syscall:*:close:entry { cl++; }
@@syscall:*:write:entry { wr++; }
@@END { printf("tsrun statx=%ld lgetxattr=%ld getxattr=%ld readlink=%ld openat=%ld openat_failed=%ld close=%ld write=%ld\n", sx, lx, gx, rl, op, of, cl, wr); }
