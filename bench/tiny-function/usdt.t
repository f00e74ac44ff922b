/* Counts the USDT probe bench:tick (bench/tiny-function/run.py). */
__global long n;
@@usdt:*:a.out:bench:tick { n++; }
@@END { printf("n=%ld\n", n); }
