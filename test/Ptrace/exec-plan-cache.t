// The site-plan cache (InProcess/Patch/SitePlanCache.h): the plan of a
// site is made once per file and reused, moved to the new load address,
// in every later image that maps the same file; with TSCC_EXEC_STATS, -v
// says how many of a module's plans were reused. A parent (another build,
// K=4) execs a child program twice: the first image of the child makes
// the plan of its work() site, the second reuses it, and both trace the
// same hits and print the same sums. Then the same with a new file put at the child's
// path between the two execs (another build, K=5, built without a
// build-id so that only the file's identity tells the two apart; its
// work() is at the same address with the same size, one `lea` and a `ret`
// under the jump): the second image must not reuse the first one's plan
// (it would run K=3's lea and print 30), and traces correctly. 64-bit and
// 32-bit, attached and --detach.
// REQUIRES: inprocess
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %tscc %s -o %t.o
// RUN: %cc64 -O2 -DK=4 %S/Inputs/exec-plan-cache.c -o %t.d/parent
// RUN: %cc64 -O2 -DK=3 %S/Inputs/exec-plan-cache.c -o %t.d/child
// RUN: env TSCC_EXEC_STATS=1 %tsrun -v -o %t.trace %t.o -- %t.d/parent %t.d/child > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=SAME < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// RUN: FileCheck %s --check-prefix=REUSED < %t.err
// RUN: env TSCC_EXEC_STATS=1 %tsrun --detach -v -o %t.trace %t.o -- %t.d/parent %t.d/child > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=SAME < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// RUN: FileCheck %s --check-prefix=REUSED < %t.err
//
// RUN: %cc64 -O2 -DK=3 -Wl,--build-id=none %S/Inputs/exec-plan-cache.c -o %t.d/child
// RUN: %cc64 -O2 -DK=5 -Wl,--build-id=none %S/Inputs/exec-plan-cache.c -o %t.d/next
// RUN: env TSCC_EXEC_STATS=1 %tsrun -v -o %t.trace %t.o -- %t.d/parent %t.d/child %t.d/next > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=REPLACED < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// RUN: FileCheck %s --check-prefix=MADE < %t.err
// RUN: %cc64 -O2 -DK=3 -Wl,--build-id=none %S/Inputs/exec-plan-cache.c -o %t.d/child
// RUN: %cc64 -O2 -DK=5 -Wl,--build-id=none %S/Inputs/exec-plan-cache.c -o %t.d/next
// RUN: env TSCC_EXEC_STATS=1 %tsrun --detach -v -o %t.trace %t.o -- %t.d/parent %t.d/child %t.d/next > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=REPLACED < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
// RUN: FileCheck %s --check-prefix=MADE < %t.err
//
// The -m32 twins.
// RUN: %if native-i386 %{ %cc32 -O2 -DK=4 %S/Inputs/exec-plan-cache.c -o %t.d/parent %}
// RUN: %if native-i386 %{ %cc32 -O2 -DK=3 %S/Inputs/exec-plan-cache.c -o %t.d/child %}
// RUN: %if native-i386 %{ env TSCC_EXEC_STATS=1 %tsrun -v -o %t.trace %t.o -- %t.d/parent %t.d/child > %t.out 2> %t.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SAME < %t.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=TRACE < %t.trace %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=REUSED < %t.err %}
// RUN: %if native-i386 %{ %cc32 -O2 -DK=3 -Wl,--build-id=none %S/Inputs/exec-plan-cache.c -o %t.d/child %}
// RUN: %if native-i386 %{ %cc32 -O2 -DK=5 -Wl,--build-id=none %S/Inputs/exec-plan-cache.c -o %t.d/next %}
// RUN: %if native-i386 %{ env TSCC_EXEC_STATS=1 %tsrun --detach -v -o %t.trace %t.o -- %t.d/parent %t.d/child %t.d/next > %t.out 2> %t.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=REPLACED < %t.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=TRACE < %t.trace %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=MADE < %t.err %}
//
// SAME: child K=3 sum 30
// SAME-NEXT: child K=3 sum 30
// SAME-NEXT: parent done
//
// REPLACED: child K=3 sum 30
// REPLACED-NEXT: child K=5 sum 36
// REPLACED-NEXT: parent done
//
// TRACE: work 0
// TRACE-NEXT: work 1
// TRACE-NEXT: work 2
// TRACE-NEXT: work 0
// TRACE-NEXT: work 1
// TRACE-NEXT: work 2
// TRACE-NEXT: calls 6
// TRACE-NOT: work
//
// REUSED: pid {{[0-9]+}}: parent: 0 site plans reused from an earlier image of the same file, 1 made
// REUSED: pid {{[0-9]+}}: child: 0 site plans reused from an earlier image of the same file, 1 made
// REUSED: pid {{[0-9]+}}: child: 1 site plans reused from an earlier image of the same file, 0 made
// REUSED-NOT: child: {{.*}} made
//
// MADE: pid {{[0-9]+}}: child: 0 site plans reused from an earlier image of the same file, 1 made
// MADE: pid {{[0-9]+}}: child: 0 site plans reused from an earlier image of the same file, 1 made
// MADE-NOT: child: {{.*}} made

__global long n;

@@uft:*:a.out:work:entry { n++; printf("work %ld\n", __arg1); }
@@END { printf("calls %ld\n", n); }
