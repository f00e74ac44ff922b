// A misspelled provider gets the closest one.
// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s
@@BEGN { exit(); }
// CHECK: [[#@LINE-1]]:3: error: unknown probe provider 'BEGN'; did you mean 'BEGIN'?
@@syscal:*:read:entry { }
// CHECK: [[#@LINE-1]]:3: error: unknown probe provider 'syscal'; did you mean 'syscall'?
@@begin { }
// CHECK: [[#@LINE-1]]:3: error: unknown probe provider 'begin'; did you mean 'BEGIN'?
@@frobnicate:x { }
// CHECK: [[#@LINE-1]]:3: error: unknown probe provider 'frobnicate'; expected BEGIN, END, uft, usdt, syscall or interval
