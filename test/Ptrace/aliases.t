// A clause fires once per call whatever the number of names the called
// address has: through a glob that matches all three names, and through a
// clause that lists two of them (as a clause may list open and open64).
// RUN: %cc64 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.libaliases.so
// RUN: %cc64 %S/Inputs/aliases.c -o %t.exe %t.libaliases.so -Wl,-rpath,%T
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 7 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.i386/%basename_t.tmp.libaliases.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/aliases.c -o %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.libaliases.so -Wl,-rpath,%T %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 7 | FileCheck %s %}
// CHECK: calls=[[N:[0-9]+]]
// CHECK: glob=[[N]] listed=[[N]] exits=[[N]] name=work

__global long glob, listed, exits;
__global String name;

@@uft:*:*:*work*:entry { glob++; name = __func; }
@@uft:*:*:work:entry, @@uft:*:*:work_alias:entry { listed++; }
@@uft:*:*:work:exit, @@uft:*:*:__work_impl:exit { exits++; }
@@END { printf("glob=%ld listed=%ld exits=%ld name=%s\n", glob, listed, exits, name); }
