/* Counts CPython's audit events (bench/tiny-function/run.py). */
__global long n;
@@usdt:*:a.out:python:audit { n++; }
@@END { printf("n=%ld\n", n); }
