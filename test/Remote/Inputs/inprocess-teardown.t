long foo(long);
@@uft:*:a.out:foo:entry {
  printf("foo %ld\n", __arg1);
  if (__arg1 == 2)
    exit();
}
