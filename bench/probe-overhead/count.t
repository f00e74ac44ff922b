// Entry probe that only counts, as bpftrace's @n = count() does: the
// count() aggregation, which each thread keeps its own part of (no
// session lock on the hit).
long hit(long, long);
@@uft:*:a.out:hit:entry { @c = count(); }
@@END { print(@c); }
