// An error in a C declaration is Clang's, reported once (not once per data
// model) at the script's own line and column.
// RUN: not %tscc --dump-layout 'struct bad' %s 2>&1 | FileCheck %s --implicit-check-not=error:
#include <signal.h>

struct bad {
  int ok;
  no_such_t oops;
// CHECK: c-decl-error.t:[[#@LINE-1]]:3: error: unknown type name 'no_such_t'
// CHECK-NEXT: {{^}} [[#@LINE-2]] |   no_such_t oops;
// CHECK-NEXT: {{^}} {{ *}}|   ^
};
// CHECK: 1 error generated.
