// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:/parse_(req/:entry { }
// CHECK: [[#@LINE-1]]:15: error: invalid regular expression 'parse_(req' in probe specification: {{.*}}
