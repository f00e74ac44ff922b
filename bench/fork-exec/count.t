// Counts the fork() calls of bench/fork-exec/forkexec.c (one per round).
__global long n;

@@uft:*:libc.so.6:fork:entry { n++; }
@@END { printf("count %ld\n", n); }
