// An exit probe: tsrun follows each call of foo() until it returns.
@@uft:*:a.out:foo:exit
{
  printf("foo returned %ld\n", __rv);
}
