// A clause fires once per call whatever the number of names the called
// address has: through a glob that matches all three names, and through a
// clause that lists two of them (as a clause may list open and open64).
// RUN: %cc64 -shared -fPIC %S/Inputs/aliases-lib.c -o %t.libaliases.so
// RUN: %cc64 %S/Inputs/aliases.c -o %t.exe %t.libaliases.so -Wl,-rpath,%T
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 7 | FileCheck %s
// CHECK: calls=[[N:[0-9]+]]
// CHECK: glob=[[N]] listed=[[N]] exits=[[N]] name=work

__global long glob, listed, exits;
__global String name;

@@uft:*:*:*work*:entry { glob++; name = __func; }
@@uft:*:*:work:entry, @@uft:*:*:work_alias:entry { listed++; }
@@uft:*:*:work:exit, @@uft:*:*:__work_impl:exit { exits++; }
@@END { printf("glob=%ld listed=%ld exits=%ld name=%s\n", glob, listed, exits, name); }
