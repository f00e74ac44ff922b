// --dump-layout needs a complete type that every data model knows.
// RUN: not %tscc --dump-layout 'struct nope' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %tscc --dump-layout 'struct fwd' %s 2>&1 | FileCheck %s --check-prefix=INCOMPLETE
// RUN: not %tscc --dump-layout 'struct only64' %s 2>&1 | FileCheck %s --check-prefix=ONE-MODEL
// RUN: not %tscc --dump-layout 'struct' %s 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not %tscc --dump-layout 'struct nope' %s 2>/dev/null | count 0
#if __x86_64__
struct only64 { int x; };
#endif
struct holder { struct fwd *p; };

// UNKNOWN: error: cannot dump the layout of 'struct nope': unknown type 'struct nope'{{$}}
// INCOMPLETE: error: cannot dump the layout of 'struct fwd': 'struct fwd' is an incomplete type
// ONE-MODEL: error: cannot dump the layout of 'struct only64': unknown type 'struct only64' [ILP32 only]{{$}}
// SYNTAX: error: cannot dump the layout of 'struct': expected a tag name after 'struct'
