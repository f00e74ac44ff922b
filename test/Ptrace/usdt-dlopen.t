// A USDT probe in a library that dlopen() loads, through a relative path:
// tsrun installs it (and sets its semaphore, in the library's data at its
// load bias) when the loader reports the library, and its arguments are
// what the library passed.
// RUN: mkdir -p %t.dir
// RUN: %cc64 -O2 -shared -fPIC %S/Inputs/usdt-plug.c -o %t.dir/libplug.so
// RUN: %cc64 %S/Inputs/dlopen.c -o %t.dir/host -ldl
// RUN: %tscc %s -o %t.o
// RUN: cd %t.dir && %tsrun %t.o -o %t.trace -- ./host ./libplug.so 3 > %t.out
// RUN: grep '^VAL' %t.out | diff - %t.trace
// RUN: FileCheck %s < %t.trace
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ mkdir -p %t.i386/%basename_t.tmp.dir %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu -O2 -shared -fPIC %S/Inputs/usdt-plug.c -o %t.i386/%basename_t.tmp.dir/libplug.so %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu %S/Inputs/dlopen.c -o %t.i386/%basename_t.tmp.dir/host -ldl %}
// RUN: %if native-i386 %{ cd %t.i386/%basename_t.tmp.dir && %tsrun %t.o -o %t.i386/%basename_t.tmp.trace -- ./host ./libplug.so 3 > %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ grep '^VAL' %t.i386/%basename_t.tmp.out | diff - %t.i386/%basename_t.tmp.trace %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.trace %}
// CHECK: VAL hit 0 5
// CHECK: VAL hit 1 15
// CHECK: VAL hit 2 25

@@usdt:*:libplug.so:plug:hit { printf("VAL hit %lld %lld\n", __arg1, __arg2); }
