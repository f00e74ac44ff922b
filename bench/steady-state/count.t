// The probe of the steady-state benchmarks: counts the calls of work().
long work(long);
__global long n;
@@uft:*:a.out:work:entry { n++; }
@@END { printf("count %ld\n", n); }
