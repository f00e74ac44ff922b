@@uft:*:a.out:leaf:entry {
  @paths[stktrace()] = count();
  @[__pname, stktrace(2)] = sum(__arg1);
}
