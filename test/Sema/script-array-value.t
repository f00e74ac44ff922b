// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGIN { char buf[8]; printf("%p\n", buf); }
// CHECK: [[#@LINE-1]]:39: error: script array 'buf' can only be subscripted, measured with sizeof or filled with copy_userdata()
