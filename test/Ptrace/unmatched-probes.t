// Probes that match nothing are never silent. A probe that names a loaded
// module without such a function is reported at once, with the closest
// name the module has; the others when the session ends. When no probe can
// ever fire, tsrun refuses to run the program for nothing, as bpftrace does.
// RUN: %cc64 %S/Inputs/aliases-lib.c -shared -fPIC -o %t.lib.so
// RUN: %cc64 %S/Inputs/aliases.c -o %t.exe %t.lib.so -Wl,-rpath,%T
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 3 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// OUT: calls=3
// OUT: fired=3
// ERR-DAG: tsrun: warning: probe '@@uft:*:a.out:mian:entry': no function 'mian' in unmatched-probes.t.tmp.exe (a.out); did you mean 'main'?
// ERR-DAG: tsrun: warning: probe '@@uft:*:libc.so.6:mallco:entry': no function 'mallco' in libc.so.6; did you mean 'malloc'?
// ERR-DAG: tsrun: warning: probe '@@uft:*:*.lib.so:wrok:entry' never matched: no function 'wrok' in the 1 module searched; did you mean 'work'?
// ERR-DAG: tsrun: warning: probe '@@uft:*:libfoo.so:bar:entry' never matched: no module named 'libfoo.so' was loaded
// ERR-DAG: tsrun: warning: probe '@@uft:*:*:prinft:entry' never matched: no function 'prinft' in the {{[0-9]+}} modules searched; did you mean 'printf'?
// ERR-NOT: error

// Every probe dead: an error, and the program does not run.
// RUN: printf '@@uft:*:libc.so.6:mallco:entry { printf("x\\n"); }\n@@uft:*:libc.so.6:fre:exit { printf("y\\n"); }\n' > %t.dead.t
// RUN: %tscc %t.dead.t -o %t.dead.o
// RUN: not %tsrun %t.dead.o -- %t.exe 3 > %t.dead.out 2> %t.dead.err
// RUN: FileCheck %s --check-prefix=DEAD < %t.dead.err
// RUN: count 0 < %t.dead.out
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/aliases-lib.c -shared -fPIC -o %t.i386/%basename_t.tmp.lib.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/aliases.c -o %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.lib.so -Wl,-rpath,%T %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 3 > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=OUT < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ printf '@@uft:*:libc.so.6:mallco:entry { printf("x\\n"); }\n@@uft:*:libc.so.6:fre:exit { printf("y\\n"); }\n' > %t.i386/%basename_t.tmp.dead.t %}
// RUN: %if native-i386 %{ not %tsrun %t.dead.o -- %t.i386/%basename_t.tmp.exe 3 > %t.dead.out 2> %t.i386/%basename_t.tmp.dead.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=DEAD < %t.i386/%basename_t.tmp.dead.err %}
// RUN: %if native-i386 %{ count 0 < %t.dead.out %}
// DEAD: tsrun: error: no probe of the script can ever fire: each names a loaded module that has no such function (see the warnings above)

__global long fired;
@@uft:*:a.out:mian:entry { fired = 100; }
@@uft:*:libc.so.6:mallco:entry { fired = 100; }
@@uft:*:libfoo.so:bar:entry { fired = 100; }
@@uft:*:*:prinft:entry { fired = 100; }
@@uft:*:*.lib.so:wrok:entry { fired = 100; }
@@uft:*:*:work:entry { fired++; }
@@END { printf("fired=%ld\n", fired); }
