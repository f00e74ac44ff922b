// --dump-ast writes to stdout, or to -o.
// RUN: %tscc --dump-ast %s | FileCheck %s
// RUN: %tscc --dump-ast %s -o %t.ast
// RUN: FileCheck %s < %t.ast
// CHECK: Script {{.*}} '{{.*}}dump-ast-output.t'
// CHECK: ProbeSpec {{.*}} '@@BEGIN'
@@BEGIN { }
