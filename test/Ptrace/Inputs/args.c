/* Struct arguments: the program prints what it passes. */
#include <stdio.h>

struct req { int id; long len; char *name; };
__attribute__((noinline)) int handle(struct req *r, int flags) {
  return r->id + flags;
}
int main(void) {
  char Names[3][8] = {"alpha", "beta", "gamma"};
  for (int I = 0; I < 3; ++I) {
    struct req R = {I + 10, 100L * (I + 1) + 7, Names[I]};
    printf("program: id %d len %ld name %s flags %d\n", R.id, R.len, R.name,
           I * 2);
    fflush(stdout);
    handle(&R, I * 2);
  }
  return 0;
}
