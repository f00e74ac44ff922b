// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN, @@uft:*:a.out:main:entry { }
// CHECK: [[#@LINE-1]]:1: error: a clause cannot mix '@@BEGIN', which runs without a process, with process probes
