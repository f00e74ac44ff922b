// The USDT probes of a system library: libstdc++'s libstdcxx:throw and
// libstdcxx:catch (no semaphores; arguments in registers and in memory at
// -80(%rbx)), found through the library's soname with and without its
// version. bpftrace 0.17 cannot place libstdc++'s USDT probes ("Error
// finding location"), so the oracle is its uprobes on the functions that
// hold them, __cxa_throw and __cxa_begin_catch, and what the program caught.
// REQUIRES: bpftrace, root, libstdcxx-usdt
// RUN: g++ -O1 %S/Inputs/usdt-throw.cc -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: bpftrace -o %t.bpf -e 'uprobe:"/lib/x86_64-linux-gnu/libstdc++.so.6":__cxa_throw /pid == cpid/ { @throw = count(); } uprobe:"/lib/x86_64-linux-gnu/libstdc++.so.6":__cxa_begin_catch /pid == cpid/ { @catch = count(); }' -c %t.exe > /dev/null
// RUN: %tsrun %t.o -o %t.ours -- %t.exe > %t.out
// RUN: cat %t.bpf %t.out %t.ours | FileCheck %s
// CHECK-DAG: @throw: [[N:[0-9]+]]
// CHECK-DAG: @catch: [[N]]
// CHECK: caught [[N]]
// CHECK: throw=[[N]] catch=[[N]] typed=[[N]]

__global long throws, catches, typed;
@@usdt:*:libstdc++.so.6:libstdcxx:throw { throws++; }
@@usdt:*:libstdc++.so:libstdcxx:catch { catches++; }
// The second argument of throw is the std::type_info of the thrown object.
@@usdt:*:libstdc++.so.6:libstdcxx:throw when (__arg2 != 0) { typed++; }
@@END { printf("throw=%ld catch=%ld typed=%ld\n", throws, catches, typed); }
