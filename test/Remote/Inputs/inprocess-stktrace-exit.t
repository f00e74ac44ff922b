long rec(long);
@@uft:*:a.out:rec:exit when (__rv == 4) { printf("second returns\n"); stktrace(); }
