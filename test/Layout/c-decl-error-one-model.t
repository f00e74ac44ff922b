// A C declaration that is only wrong for one data model: the diagnostic
// names that model.
// RUN: not %tscc --dump-layout 'struct wide' %s 2>&1 | FileCheck %s --implicit-check-not=error:
struct wide { long v; };
_Static_assert(sizeof(struct wide) == 8, "struct wide must be 8 bytes");
// CHECK: c-decl-error-one-model.t:[[#@LINE-1]]:16: error: static assertion failed due to requirement 'sizeof(struct wide) == 8': struct wide must be 8 bytes [ILP32 only]{{$}}
// CHECK: note: expression evaluates to '4 == 8'
