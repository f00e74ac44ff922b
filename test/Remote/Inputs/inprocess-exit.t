long foo(long);
@@uft:*:a.out:foo:entry { printf("in %ld\n", __arg1); }
@@uft:*:a.out:foo:exit { printf("out %ld\n", __rv); }
