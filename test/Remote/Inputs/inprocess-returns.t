long depth(long);
long outer(char *);
@@uft:*:a.out:depth:exit { printf("depth returned %ld\n", __rv); }
@@uft:*:a.out:outer:entry { printf("outer\n"); exit(); }
@@uft:*:a.out:outer:exit { printf("outer returned %ld\n", __rv); }
