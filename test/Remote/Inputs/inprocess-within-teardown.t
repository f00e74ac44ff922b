long outer(char *);
@@uft:*:a.out:outer:entry {
  printf("outer within %d\n", within("outer"));
  exit();
}
