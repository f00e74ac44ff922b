// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { printf("%d\n", __pid); }
// CHECK: [[#@LINE-1]]:26: error: '__pid' is not available in a @@BEGIN clause: it runs without a traced process
