// The probe of the hostile-stub tests: one line per call of foo().
@@uft:*:a.out:foo:entry
{
  printf("foo %ld in %d\n", __arg1, __pid);
}
