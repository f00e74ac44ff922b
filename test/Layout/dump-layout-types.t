// --dump-layout takes any C type name: typedefs, scalars, pointers, arrays.
// RUN: %tscc --dump-layout 'sigset_t' %s | FileCheck %s --check-prefix=TYPEDEF
// RUN: %tscc --dump-layout 'unsigned long' %s | FileCheck %s --check-prefix=ULONG
// RUN: %tscc --dump-layout 'long double' %s | FileCheck %s --check-prefix=LDOUBLE
// RUN: %tscc --dump-layout 'pid_t *[4]' %s | FileCheck %s --check-prefix=PTRS
// RUN: %tscc --dump-layout 'struct inner' %s | FileCheck %s --check-prefix=INNER
#include <signal.h>
struct outer { struct inner { char c; long long v; } in; };

// TYPEDEF:      ILP32 sigset_t size=128 align=4
// TYPEDEF-NEXT:   __val offset=0 size=128 count=32 elem_size=4 type=unsigned long[32]
// TYPEDEF-NEXT: LP64 sigset_t size=128 align=8
// TYPEDEF-NEXT:   __val offset=0 size=128 count=16 elem_size=8 type=unsigned long[16]

// ULONG:      ILP32 unsigned long size=4 align=4
// ULONG-NEXT: LP64 unsigned long size=8 align=8

// LDOUBLE:      ILP32 long double size=12 align=4
// LDOUBLE-NEXT: LP64 long double size=16 align=16

// PTRS:      ILP32 pid_t *[4] size=16 align=4
// PTRS-NEXT: LP64 pid_t *[4] size=32 align=8

// A tag first declared inside a struct has file scope in C.
// INNER:      ILP32 struct inner size=12 align=4
// INNER-NEXT:   c offset=0 size=1 type=char
// INNER-NEXT:   v offset=4 size=8 type=long long
// INNER-NEXT: LP64 struct inner size=16 align=8
// INNER-NEXT:   c offset=0 size=1 type=char
// INNER-NEXT:   v offset=8 size=8 type=long long
