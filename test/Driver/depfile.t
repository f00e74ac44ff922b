// -MD writes a Make-style depfile: the script, then every header Clang read
// for either data model, so build systems rebuild when one changes.
// RUN: rm -rf %t && mkdir -p %t/inc && echo 'struct s { int a; long b; };' > %t/inc/s.h
// RUN: %tscc -I%t/inc -MD -MF %t/out.d -MT probe.o %s -o %t/out.o
// RUN: FileCheck %s < %t/out.d
// CHECK: probe.o: \
// CHECK-NEXT: depfile.t \
// CHECK-DAG: {{.*}}/inc/s.h
// CHECK-DAG: /usr/include/signal.h
//
// Without -MF the depfile is next to the output.
// RUN: %tscc -I%t/inc -MD %s -o %t/default.o
// RUN: FileCheck %s --check-prefix=DEFAULT < %t/default.o.d
// DEFAULT: {{.*}}default.o: \
//
// A failed compilation writes neither the object nor the depfile.
// RUN: not %tscc -MD -MF %t/bad.d %s -o %t/bad.o 2> %t/bad.err
// RUN: not test -e %t/bad.d
// RUN: not test -e %t/bad.o
#include <signal.h>
#include "s.h"

@@BEGIN { printf("%d %d\n", sizeof(struct s), SIGINT); }
