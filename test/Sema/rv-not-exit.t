// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@uft:*:a.out:main:entry { printf("%ld\n", __rv); }
// CHECK: [[#@LINE-1]]:44: error: '__rv' is only available in exit probes
