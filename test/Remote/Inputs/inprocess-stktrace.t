long rec(long);
@@uft:*:a.out:rec:entry when (__arg1 == 0) { printf("innermost\n"); stktrace(); }
