// Exit probe that only counts.
long hit(long, long);
__global long n;
@@uft:*:a.out:hit:exit { n++; }
@@END { printf("hits %ld\n", n); }
