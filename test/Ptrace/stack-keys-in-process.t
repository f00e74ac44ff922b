// Stacks used as aggregation keys are walked by the agent in the process
// (the sites take jumps, -v says so), and the keys are what tsrun's own
// unwinder gives at a breakpoint (--ptrace): the same text, stack for
// stack, for a recursion deeper than --max-stack-depth, frames in libc, a
// signal handler's stack (through the kernel's signal frame), a library
// loaded with dlopen() after the start, an exit probe (hijacked returns
// put back), and a depth the clause asks for. (Addresses in no module,
// such as the i386 vDSO's sigreturn and what the frame-pointer chain finds
// past it, differ from run to run: they are compared as ADDRESS.)
// RUN: %cc64 -O1 -fno-omit-frame-pointer %S/Inputs/stack-shapes.c -o %t.exe -ldl
// RUN: %cc64 -O1 -fno-omit-frame-pointer -shared -fPIC %S/Inputs/stack-shapes-lib.c -o %t.lib.so
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe %t.lib.so > %t.in 2> %t.in.err
// RUN: %tsrun --ptrace %t.o -- %t.exe %t.lib.so > %t.host
// RUN: sed -E 's/^( +)0x[0-9a-f]+$/\1ADDRESS/' %t.host > %t.host.n
// RUN: sed -E 's/^( +)0x[0-9a-f]+$/\1ADDRESS/' %t.in > %t.in.n
// RUN: diff %t.host.n %t.in.n
// RUN: FileCheck %s < %t.in
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.in.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -fno-omit-frame-pointer %S/Inputs/stack-shapes.c -o %t.i386/%basename_t.tmp.exe -ldl %}
// RUN: %if native-i386 %{ %cc32 -O1 -fno-omit-frame-pointer -shared -fPIC %S/Inputs/stack-shapes-lib.c -o %t.i386/lib.so %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe %t.i386/lib.so > %t.i386/in 2> %t.i386/in.err %}
// RUN: %if native-i386 %{ %tsrun --ptrace %t.o -- %t.i386/%basename_t.tmp.exe %t.i386/lib.so > %t.i386/host %}
// RUN: %if native-i386 %{ sed -E 's/^( +)0x[0-9a-f]+$/\1ADDRESS/' %t.i386/host > %t.i386/host.n %}
// RUN: %if native-i386 %{ sed -E 's/^( +)0x[0-9a-f]+$/\1ADDRESS/' %t.i386/in > %t.i386/in.n %}
// RUN: %if native-i386 %{ diff %t.i386/host.n %t.i386/in.n %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/in %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SITES < %t.i386/in.err %}
//
// SITES: probe @@uft:*:a.out:leaf:entry at leaf in {{.*}}, in-process jump
// SITES: probe @@uft:*:a.out:leaf:exit at leaf in {{.*}}, in-process jump
//
// CHECK: deep 3 shallow 2 qsort-items 2 signals 4
// CHECK: through the library 5
// CHECK-DAG: {{^        }}through_lib+0x{{[0-9a-f]+}} ({{.*}}lib.so)
// CHECK-DAG: {{^        }}[truncated: depth limit]
// CHECK-DAG: {{^        }}handler+0x{{[0-9a-f]+}} ({{.*}})
// CHECK-DAG: {{^        }}compare+0x{{[0-9a-f]+}} ({{.*}})
// CHECK-DAG: {{^        }}{{.*}} (libc.so.6)
// CHECK-DAG: {{^        }}recurse+0x{{[0-9a-f]+}} ({{.*}})

@@uft:*:a.out:leaf:entry
{
  @entry[stktrace()] = count();
  @depth3[stktrace(3)] = count();
}
@@uft:*:a.out:leaf:exit { @exit[stktrace()] = count(); }
