// The famous difference: sa_mask follows a 4-byte handler on i386 and an
// 8-byte one on x86-64.
// RUN: %tscc --dump-layout 'struct sigaction' %s | FileCheck %s
#include <signal.h>

// CHECK:      ILP32 struct sigaction size=140 align=4
// CHECK-NEXT:   __sigaction_handler offset=0 size=4 type=union (unnamed at {{.*}}bits/sigaction.h:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT:   __sigaction_handler.sa_handler offset=0 size=4 type=__sighandler_t
// CHECK-NEXT:   __sigaction_handler.sa_sigaction offset=0 size=4 type=void (*)(int, siginfo_t *, void *)
// CHECK-NEXT:   sa_mask offset=4 size=128 type=__sigset_t
// CHECK-NEXT:   sa_mask.__val offset=4 size=128 count=32 elem_size=4 type=unsigned long[32]
// CHECK-NEXT:   sa_flags offset=132 size=4 type=int
// CHECK-NEXT:   sa_restorer offset=136 size=4 type=void (*)(void)
// CHECK-NEXT: LP64 struct sigaction size=152 align=8
// CHECK-NEXT:   __sigaction_handler offset=0 size=8 type=union (unnamed at {{.*}}bits/sigaction.h:{{[0-9]+}}:{{[0-9]+}})
// CHECK-NEXT:   __sigaction_handler.sa_handler offset=0 size=8 type=__sighandler_t
// CHECK-NEXT:   __sigaction_handler.sa_sigaction offset=0 size=8 type=void (*)(int, siginfo_t *, void *)
// CHECK-NEXT:   sa_mask offset=8 size=128 type=__sigset_t
// CHECK-NEXT:   sa_mask.__val offset=8 size=128 count=16 elem_size=8 type=unsigned long[16]
// CHECK-NEXT:   sa_flags offset=136 size=4 type=int
// CHECK-NEXT:   sa_restorer offset=144 size=8 type=void (*)(void)
// CHECK-NOT: {{.}}
