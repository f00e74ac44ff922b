// Entry probe that only increments a script global (one copy for the
// session: the hit takes the session lock).
long hit(long, long);
__global long n;
@@uft:*:a.out:hit:entry { n++; }
@@END { printf("hits %ld\n", n); }
