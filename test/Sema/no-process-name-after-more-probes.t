// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s
//
// The name of a BEGIN clause's probe in this message was a view into the
// probe table, which later clauses' probes grow (and move): under ASan a
// heap-use-after-free, found by the front-end fuzzer
// (test/Fuzz/Inputs/regressions/frontend/). The clauses after it must not
// change the message.
@@BEGIN
{
  printf("%d\n", __pid);
}
// CHECK: error: '__pid' is not available in a @@BEGIN clause: it runs without a traced process
@@uft:*:a.out:f1:entry, @@uft:*:a.out:f2:entry, @@uft:*:a.out:f3:entry { }
@@uft:*:a.out:f4:entry, @@uft:*:a.out:f5:entry, @@uft:*:a.out:f6:entry { }
@@uft:*:a.out:f7:entry, @@uft:*:a.out:f8:entry, @@uft:*:a.out:f9:entry { }
@@uft:*:a.out:fa:entry, @@uft:*:a.out:fb:entry, @@uft:*:a.out:fc:entry { }
@@uft:*:a.out:fd:entry, @@uft:*:a.out:fe:entry, @@uft:*:a.out:ff:entry { }
