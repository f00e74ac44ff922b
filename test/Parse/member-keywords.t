// The script's keywords are ordinary names in C: members named `when`,
// `String` can be read; and preprocessor lines may sit
// inside a struct body, where Clang sees them.
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o | FileCheck %s
// CHECK: when=4 String=8 size=24
#define WITH_EXTRA 1
struct odd {
  int a;
  int when;
#ifdef WITH_EXTRA
  long String;
#endif
#ifdef NOT_DEFINED
  char never[100];
#endif
  long b;
};

@@BEGIN {
  printf("when=%d String=%d size=%d\n", offsetof(struct odd, when),
         offsetof(struct odd, String), sizeof(struct odd));
  exit();
}
@@uft:*:a.out:main:entry when (((struct odd *)__arg1)->when > 0) {
  struct odd *o = (struct odd *)__arg1;
  printf("%d %ld %ld\n", o->when, o->String, o->b);
}
