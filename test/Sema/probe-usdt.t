// RUN: not %tscc -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// A USDT clause reads __arg1..__arg12, typed long long in both models; a
// clause that mixes USDT and function probes has no one meaning of __argN.
int f(int a);
@@usdt:*:a.out:demo { }
// CHECK: [[#@LINE-1]]:16: error: wrong number of fields in 'usdt' probe specification; expected usdt:PID:MODULE:PROVIDER:NAME
@@usdt:*:a.out:demo:tick { printf("%lld\n", __arg12); }
@@usdt:*:a.out:demo:tick { printf("%lld\n", __arg13); }
// CHECK: [[#@LINE-1]]:45: error: unknown built-in variable '__arg13'
@@uft:*:a.out:f:entry { printf("%ld\n", __arg9); }
// CHECK: [[#@LINE-1]]:41: error: '__arg9' exists only in USDT probes; function probes have __arg1 to __arg8
@@usdt:*:a.out:demo:tick, @@uft:*:a.out:f:entry { printf("%d\n", (int)__arg1); }
// CHECK: [[#@LINE-1]]:71: error: '__arg1' is ambiguous: the clause mixes USDT probes, whose arguments come from their notes, with other probes
@@usdt:*:a.out:demo:tick { printf("%lld\n", __rv); }
// CHECK: [[#@LINE-1]]:45: error: '__rv'
