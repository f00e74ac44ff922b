// Entry probe that prints two arguments.
long hit(long, long);
@@uft:*:a.out:hit:entry { printf("%ld %ld\n", __arg1, __arg2); }
