// A system-call entry probe that only counts.
__global long n;
@@syscall:*:getppid:entry { n++; }
@@END { printf("hits %ld\n", n); }
