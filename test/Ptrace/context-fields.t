// Each clause reads one group of its context (ids, registers, names,
// parameters, the data model), and an in-process hit builds only the
// groups a clause reads (TSCC_CLAUSE_CTX_*): every value is the one the
// program printed itself or passed to f(), in both data models.
// RUN: %cc64 -O1 %S/Inputs/context-fields.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o 42 -- %t.exe > %t.out
// RUN: FileCheck %s -DDM=64 < %t.out
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/context-fields.c -o %t32.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o 42 -- %t32.exe > %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s -DDM=32 < %t32.out %}
// CHECK: ids [[PID:[0-9]+]] [[PPID:[0-9]+]] [[UID:[0-9]+]] [[TID:[0-9]+]]
// CHECK-DAG: clause ids [[PID]] [[PPID]] [[UID]] [[TID]]
// CHECK-DAG: clause args 3 40
// CHECK-DAG: clause names f {{.*}}.exe @@uft:*:a.out:f:entry
// CHECK-DAG: clause param 42
// CHECK-DAG: clause model [[DM]]

long f(long, long);

@@uft:*:a.out:f:entry { printf("clause ids %d %d %u %d\n", __pid, __ppid, __uid, __tid); }
@@uft:*:a.out:f:entry { printf("clause args %ld %ld\n", __arg1, __arg2); }
@@uft:*:a.out:f:entry { printf("clause names %s %s %s\n", __func, __module, __probe); }
@@uft:*:a.out:f:entry { printf("clause param %lld\n", $1); }
@@uft:*:a.out:f:entry { printf("clause model %d\n", __datamodel); }
