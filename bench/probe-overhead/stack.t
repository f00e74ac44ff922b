// Entry probe that counts by call stack (@[stktrace()], bpftrace's
// @[ustack] = count()).
long hit(long, long);
@@uft:*:a.out:hit:entry { @[stktrace()] = count(); }
