// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@kprobe:*:f:entry { }
// CHECK: [[#@LINE-1]]:3: error: unknown probe provider 'kprobe'; expected BEGIN, END, uft, usdt, syscall or interval
