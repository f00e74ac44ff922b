/* Counts the calls of the 4-byte function (bench/tiny-function/run.py). */
__global long n;
@@uft:*:a.out:tiny:entry { n++; }
@@END { printf("n=%ld\n", n); }
