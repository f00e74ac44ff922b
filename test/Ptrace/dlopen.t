// A dlopen()ed library is instrumented before its constructor runs.
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.libprobe.so
// RUN: %cc64 %S/Inputs/dlopen.c -o %t.exe -ldl
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe %t.libprobe.so 5 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.i386/%basename_t.tmp.libprobe.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/dlopen.c -o %t.i386/%basename_t.tmp.exe -ldl %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.libprobe.so 5 | FileCheck %s %}
// CHECK: expected=[[N:[0-9]+]]
// CHECK: lib_func=[[N]] module=dlopen.t.tmp.libprobe.so

__global long n;
__global String mod;

@@uft:*:*:lib_func:entry { n++; mod = __module; }
@@END { printf("lib_func=%ld module=%s\n", n, mod); }
