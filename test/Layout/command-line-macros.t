// -D and -U reach the C declarations, in command-line order.
// RUN: %tscc -DNAMELEN=32 --dump-layout 'struct rec' %s | FileCheck %s --check-prefix=D32
// RUN: %tscc -DNAMELEN=32 -UNAMELEN --dump-layout 'struct rec' %s | FileCheck %s --check-prefix=DEFAULT
#ifndef NAMELEN
#define NAMELEN 8
#endif
struct rec { int id; char name[NAMELEN]; };

// D32: ILP32 struct rec size=36 align=4
// D32:   name offset=4 size=32 count=32 elem_size=1 type=char[32]
// DEFAULT: ILP32 struct rec size=12 align=4
// DEFAULT:   name offset=4 size=8 count=8 elem_size=1 type=char[8]
