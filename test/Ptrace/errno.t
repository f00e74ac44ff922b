// __errno at a syscall exit: a failing openat reports ENOENT (2). cat fails,
// and tsrun exits with its status.
// RUN: %tscc %s -o %t.o
// RUN: %not %tsrun %t.o -- /bin/cat /nonexistent/file 2>&1 | FileCheck %s
// CHECK: openat failed errno=2 rv=-2

@@syscall:*:openat:exit
when (__errno != 0)
{
  printf("openat failed errno=%d rv=%ld\n", __errno, __rv);
}
