// A real Debian i386 program, GNU hello from Debian's hello:i386 package
// (utils/setup/fetch-debian-i386.sh: apt-get download, dpkg -x), traced as
// a native 32-bit process: its libc's malloc and free counted as bpftrace's
// uprobes count them, its system calls by their i386 numbers (mmap2 exists
// only there) counted as strace counts them, and what it wrote read from
// its write(2) and compared with its own output. Without the network (no
// package) or a kernel that runs i386 programs, unsupported.
// REQUIRES: debian-i386
// RUN: %tscc %s -o %t.o 2> /dev/null
// RUN: %debian_i386/usr/bin/hello -g tscc-on-i386 > %t.own
// RUN: %tsrun %t.o -o %t.ours -- %debian_i386/usr/bin/hello -g tscc-on-i386 > %t.out
// RUN: diff %t.own %t.out
// RUN: strace -f -qq -e trace=write,openat,close,mmap2 -o %t.strace %debian_i386/usr/bin/hello -g tscc-on-i386 > /dev/null
// RUN: %python -c "import re, sys; t = open(sys.argv[1]).read(); print('strace ' + ' '.join('%%s=%%d' %% (n, len(re.findall(r'\b' + n + r'\(', t))) for n in ('write', 'openat', 'close', 'mmap2')))" %t.strace > %t.counts
// RUN: cat %t.own %t.counts %t.ours | FileCheck %s
// CHECK: [[OWN:tscc-on-i386]]
// CHECK: strace write=[[W:[0-9]+]] openat=[[O:[0-9]+]] close=[[C:[0-9]+]] mmap2=[[M:[0-9]+]]
// CHECK: wrote to 1: [[OWN]]
// CHECK: tsrun write=[[W]] openat=[[O]] close=[[C]] mmap2=[[M]]
// bpftrace's uprobes on the same 32-bit libc:
// RUN: %if bpftrace && root %{ bpftrace -o %t.bpf -e 'uprobe:/lib32/libc.so.6:malloc /pid == cpid/ { @m = count(); } uprobe:/lib32/libc.so.6:free /pid == cpid/ { @f = count(); }' -c '%debian_i386/usr/bin/hello -g tscc-on-i386' > /dev/null %}
// RUN: %if bpftrace && root %{ cat %t.bpf %t.ours | FileCheck %s --check-prefix=BPF %}
// BPF-DAG: @f: [[F:[0-9]+]]
// BPF-DAG: @m: [[MA:[0-9]+]]
// BPF: malloc=[[MA]] free=[[F]]

__global long m;
__global long f;
__global long w;
__global long o;
__global long c;
__global long mm;

@@uft:*:libc.so.6:malloc:entry { m++; }
@@uft:*:libc.so.6:free:entry { f++; }
@@syscall:*:write:entry
{
  w++;
  printf("wrote to %ld: %s", __arg1, get_userstring(__arg2, __arg3 + 1));
}
@@syscall:*:openat:exit { o++; }
@@syscall:*:close:entry { c++; }
@@syscall:*:mmap2:entry { mm++; }
@@END
{
  printf("tsrun write=%ld openat=%ld close=%ld mmap2=%ld\n", w, o, c, mm);
  printf("malloc=%ld free=%ld\n", m, f);
}
