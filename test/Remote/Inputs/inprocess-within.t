long inner(long);
long leaf(long);
long long innerIn, innerOut, leafIn, leafOut;

@@uft:*:a.out:inner:entry {
  if (within("outer"))
    innerIn++;
  else
    innerOut++;
}
@@uft:*:a.out:leaf:entry {
  if (within("outer")) {
    leafIn++;
    @paths[stktrace()] = count();
  } else {
    leafOut++;
  }
}
@@END {
  printf("inner inside=%lld outside=%lld\n", innerIn, innerOut);
  printf("leaf inside=%lld outside=%lld\n", leafIn, leafOut);
}
