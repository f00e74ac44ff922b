// Syscall counts of a real program agree with strace's.
// REQUIRES: strace
// RUN: %tscc %s -o %t.o
// RUN: strace -f -qq -e trace=read,close,openat -o %t.strace /usr/bin/sort /etc/services > /dev/null
// RUN: %python -c "import re, sys; t = open(sys.argv[1]).read(); print('strace ' + ' '.join('%%s=%%d' %% (n, len(re.findall(r'\b' + n + r'\(', t))) for n in ('read', 'close', 'openat')))" %t.strace > %t.counts
// RUN: %tsrun %t.o -o %t.ours -- /usr/bin/sort /etc/services > /dev/null
// RUN: cat %t.counts %t.ours | FileCheck %s
// CHECK: strace read=[[R:[0-9]+]] close=[[C:[0-9]+]] openat=[[O:[0-9]+]]
// CHECK: tsrun read=[[R]] close=[[C]] openat=[[O]]

__global long r;
__global long c;
__global long o;

@@syscall:*:read:entry { r++; }
@@syscall:*:close:entry { c++; }
@@syscall:*:openat:exit { o++; }
@@END { printf("tsrun read=%ld close=%ld openat=%ld\n", r, c, o); }
